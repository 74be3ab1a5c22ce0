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

#include <stddef.h>

#include "lib/value.h"
#include "site/yaml.h"

/* Parses text[0..len) and appends the resulting map to out. Returns 0, or
 * -1 with err filled (line numbers are lines of the file) and out as it
 * was before the call. */
int frontmatter_parse(const char *text, size_t len, struct value_builder *out,
                      struct yaml_error *err);

/* Reads the file at path and parses it as above. Returns 0, or -1 with err
 * filled (an unreadable file has line 0 and the errno text). */
int frontmatter_parse_file(const char *path, struct value_builder *out, struct yaml_error *err);

#endif
