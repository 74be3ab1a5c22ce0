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

#include "value.h"

/* A file that could not be read (an error) or was read with a guess (a
 * warning); line 0 when no line applies. */
struct problem {
	char *path; /* owned, relative to the content root */
	int line;
	bool warning;
	char *message; /* owned */
};

/* One site folder being read. */
struct site_files {
	char *root;               /* owned: the site folder */
	struct problem *problems; /* owned, in the order found */
	size_t nproblems;
};

/* Starts reading the folder root (copied), with no problems yet. */
void files_init(struct site_files *files, const char *root);

/* Frees the root and the problems; files may be initialised again. */
void files_free(struct site_files *files);

/* Records an error (or a warning) about rel; line 0 when none applies. */
void files_problem(struct site_files *files, bool warning, const char *rel, int line,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The number of problems that are errors, not warnings. */
size_t files_errors(const struct site_files *files);

/* a + "/" + b, newly allocated. */
char *files_join(const char *a, const char *b);

/* Parses root/rel (YAML, or front matter and a body) and appends its map
 * to out; a failure is recorded as an error and returns -1, else 0. */
int files_read(struct site_files *files, const char *rel, struct value_builder *out);

/* True when root/rel is a regular file (or a link to one). */
bool files_exists(const struct site_files *files, const char *rel);

/* The visible entries of dir (an absolute path or one from the working
 * folder) ending in suffix (any when NULL), sorted by name; dot files are
 * invisible, as in Statamic. NULL with *count 0 when dir cannot be read.
 * Free with files_free_names. */
char **files_list(const char *dir, const char *suffix, size_t *count);
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
