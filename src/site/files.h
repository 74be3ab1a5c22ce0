/*
 * files: the toolkit the site readers share, at the bottom of site/: a
 * site folder's root and the problems found in it, paths, listing
 * folders, and reading one YAML or front-matter file into a value.
 *
 * It knows nothing of the site index or of any kind of content: index.c
 * and the loaders (entries.c, trees.c, ...) call it, it calls none of
 * them. Paths named `rel` are relative to the root; problems name them so.
 */
#ifndef CMS_API_SITE_FILES_H
#define CMS_API_SITE_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strmap.h"
#include "lib/value.h"
#include "site/frontmatter.h"

/* A file that could not be read (an error) or was read with a guess (a
 * warning); line 0 when no line applies. */
struct problem {
	char *path; /* owned, relative to the content root */
	int line;
	bool warning;
	bool left_out; /* the file is not served for it */
	char *message; /* owned */
};

/*
 * One site folder being read.
 *
 * A folder that exists but cannot be read (or the root gone) makes the
 * read unusable as a whole: it would show a site with parts missing, so
 * `unreadable` says why and the caller keeps the last good index instead.
 *
 * Every file parsed is remembered in `sources` (path -> its map). When a
 * file fails to parse, its last good version from the previous read
 * (`previous`, that read's sources) stands in for it, with an error saying
 * so; a file that never parsed is left out.
 *
 * Every file read is listed in `reads` with the version read (its stamp),
 * so that whoever publishes the read can tell whether a file changed
 * since. A file `held` (being written: its absolute path there) is not
 * read: its last good version stands in, without a problem, and a file
 * held that has none waits for a later read.
 */
struct file_read {
	char *path;              /* owned: absolute */
	struct file_stamp stamp; /* the version read */
	bool taken;              /* not read now: the version an earlier read parsed (and
	                          * its publication checked), taken from the memo */
};

/*
 * What a read parsed, for the next read to take instead of reading and
 * parsing a file again when it is the same version (the same inode,
 * size, modification and change times): each remembered file's map, by
 * the hash of its rel path, as an offset into that read's sources. A file
 * that changed less than a second before it was read is not kept (a
 * write in the same clock tick would leave its stamp as it was).
 */
struct memo_slot {
	uint64_t hash;           /* of the rel path; 0: free */
	struct file_stamp stamp; /* the version parsed */
	size_t at;               /* its map in the sources' bytes */
};

struct files_memo {
	struct memo_slot *slots; /* owned: open addressing, nslots a power of two */
	size_t nslots, n;
};

/* Frees the memo's slots; it may be used again (empty). */
void files_memo_free(struct files_memo *memo);

struct site_files {
	char *root;               /* owned: the site folder */
	struct problem *problems; /* owned, in the order found */
	size_t nproblems;
	char *unreadable;         /* owned: why the site cannot be read whole, or NULL */
	value_t previous;         /* borrowed: the previous read's sources, or missing */
	struct value_builder sources; /* owned: an open map of rel -> parsed map */
	const struct strmap *held; /* borrowed: absolute paths not to read, or NULL */
	const struct files_memo *last; /* borrowed: the previous read's memo (its offsets
	                           * into previous), or NULL */
	const struct strmap *changed; /* borrowed: when not NULL, every file (absolute
	                           * path) that may have changed since last was made: the
	                           * others are taken from it without a stat */
	struct files_memo memo;   /* owned: this read's, into sources */
	size_t taken;             /* files taken from last, not read */
	char *stat_dir;           /* owned: the folder stat_fd is open on, or NULL */
	int stat_fd;              /* that folder (O_PATH), for stamps of its files */
	struct file_read *reads;  /* owned: the files read, in the order read */
	size_t nreads, reads_alloc;
};

/* Starts reading the folder root (copied), with no problems yet, falling
 * back on previous (a sources map, or VALUE_MISSING) for files that no
 * longer parse. */
void files_init(struct site_files *files, const char *root, value_t previous);

/* Remembers no sources from now on: the map stays empty (for a read whose
 * sources nobody keeps: they would be a copy of every file it parses). */
void files_remember_nothing(struct site_files *files);

/* Closes the sources map: vb_result(&files->sources) is then whole. */
void files_finish(struct site_files *files);

/* Frees the root and the problems; files may be initialised again. */
void files_free(struct site_files *files);

/* Records an error (or a warning) about rel; line 0 when none applies. */
void files_problem(struct site_files *files, bool warning, const char *rel, int line,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The same, for a file that is left out of the index for it (left_out):
 * said in the log once, when it comes, warning or not (indexer.h). */
void files_left_out(struct site_files *files, bool warning, const char *rel, int line,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The number of problems that are errors, not warnings. */
size_t files_errors(const struct site_files *files);

/* a + "/" + b, newly allocated. */
char *files_join(const char *a, const char *b);

/* Parses root/rel (YAML, or front matter and a body) and appends its map
 * to out. A failure is recorded as an error; the file's last good version
 * is appended instead when there is one (0), else nothing (-1). */
int files_read(struct site_files *files, const char *rel, struct value_builder *out);

/* files_read, the map given in *map: appended to out (and *map inside
 * out's bytes: valid until out grows or is freed), or, when it is the
 * version the last read parsed, left where that read's sources keep it
 * (valid as long as previous is): no copy. */
int files_read_view(struct site_files *files, const char *rel, struct value_builder *out,
                    value_t *map);

/* A problem as a line of a log, added to out: "root/path:line: message"
 * (no line when line is 0). */
void files_problem_line(struct strbuf *out, const char *root, const char *path, int line,
                        const char *message);

/* True when root/rel is a regular file (or a link to one). */
bool files_exists(const struct site_files *files, const char *rel);

/* The visible entries of dir (an absolute path or one from the working
 * folder) ending in suffix (any when NULL), sorted by name; dot files are
 * invisible, as in Statamic. NULL with *count 0 when dir cannot be read: a
 * folder that is not there is simply empty, one that is there but cannot
 * be read makes files unreadable (files may be NULL: nothing recorded).
 * Free with files_free_names. */
char **files_list(struct site_files *files, const char *dir, const char *suffix, size_t *count);

/* What files_list_kinds says of each name. */
enum { FILES_NOT_DIR = 0, FILES_DIR = 1, FILES_UNKNOWN = -1 };

/* files_list, and in *kinds (owned by the caller, NULL when there are no
 * names) whether each name is a folder, as the directory says without a
 * stat: FILES_UNKNOWN for a link or when the file system does not say. */
char **files_list_kinds(struct site_files *files, const char *dir, const char *suffix,
                        size_t *count, signed char **kinds);

/* Records that the site cannot be read whole (the first reason stays),
 * as an error about rel too. */
void files_unreadable(struct site_files *files, const char *rel, const char *why);
void files_free_names(char **names, size_t count);

/* The handle a file "x.yaml" names: "x", newly allocated (a name without
 * the ".yaml" extension is copied whole). */
char *files_handle(const char *file_name);

/* settings' `title`, else the handle with its first letter upper-cased
 * (Statamic's default); newly allocated. */
char *files_title(value_t settings, const char *handle);

/* Calls fn(ctx, handle, settings) for each top-level {handle}.yaml of
 * folder (relative to the root) in name order, settings being the file's
 * map; a file that cannot be read is recorded and skipped. The
 * collections-style layout of taxonomies, navigations, globals, forms,
 * asset containers and users. */
typedef void (*files_yaml_fn)(void *ctx, const char *handle, value_t settings);
void files_each_yaml(struct site_files *files, const char *folder, files_yaml_fn fn, void *ctx);

#endif
