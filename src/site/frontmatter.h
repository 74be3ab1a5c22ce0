/*
 * frontmatter: reads one content file the way Statamic's Yaml::parse does
 * (content-format.md §1): CRLF becomes LF; an empty file is {}; text that
 * starts with "---" is split once at the first "\n---", the part before is
 * YAML and the part after, left-trimmed, is the body; without a leading
 * "---" the whole text is YAML. A non-empty body becomes the key `content`
 * (appended last); a YAML `content` key together with a non-empty body is
 * an error, as is YAML whose value is not a map.
 */
#ifndef CMS_API_FRONTMATTER_H
#define CMS_API_FRONTMATTER_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/value.h"
#include "site/yaml.h"

/* Parses text[0..len) and appends the resulting map to out. Returns 0, or
 * -1 with err filled (line numbers are lines of the file) and out as it
 * was before the call. */
int frontmatter_parse(const char *text, size_t len, struct value_builder *out,
                      struct yaml_error *err);

/* Reads the file at path and parses it as above. Returns 0, or -1 with err
 * filled (an unreadable file has line 0 and the errno text). What is read
 * is one version of the file, whole: it is read again when it changed
 * while it was read (a writer that truncates, then writes). */
int frontmatter_parse_file(const char *path, struct value_builder *out, struct yaml_error *err);

/* Which version of a file was read: a later look that sees another one
 * means it changed since. */
struct file_stamp {
	unsigned long long ino, size;
	long long mtime_ns, ctime_ns;
};

/* The same, saying which version it read (when it read one). */
int frontmatter_parse_file_stamped(const char *path, struct value_builder *out,
                                   struct yaml_error *err, struct file_stamp *stamp);

/* The version of the file at path now; false when it cannot be looked at. */
bool frontmatter_stamp(const char *path, struct file_stamp *stamp);
/* frontmatter_stamp of name in the folder open at dirfd. */
bool frontmatter_stamp_at(int dirfd, const char *name, struct file_stamp *stamp);
bool file_stamp_equal(const struct file_stamp *a, const struct file_stamp *b);

#endif
