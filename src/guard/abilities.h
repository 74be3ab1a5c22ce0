/*
 * abilities: what a per-user API token may read (spec §6). Each ability
 * is "*" (whatever the config enables), a resource type ("collections",
 * "navs", "taxonomies", "globals", "forms", "assets", "users", "sites"),
 * or one handle of a type that has handles ("collections:blog",
 * "assets:main" for an asset container). They narrow what the config
 * enables, never widen it; the router applies them as its second gate
 * (router.h), where a request they do not cover is a 404 as if disabled.
 *
 * Stored in the token database as a JSON list of strings, as Sanctum
 * stores them (["*"], ["collections:blog","navs"]). A stored item this
 * module does not know grants nothing.
 */
#ifndef CMS_API_ABILITIES_H
#define CMS_API_ABILITIES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"
#include "lib/strbuf.h"

struct abilities {
	struct strlist items;             /* owned: each ability as written, known ones only */
	bool all;                         /* "*" */
	bool types[RES_TYPE_COUNT];       /* the whole type */
	struct strlist handles[RES_TYPE_COUNT]; /* owned: handles of "type:handle" items */
};

#define ABILITIES_ERR_LEN 160

void abilities_init(struct abilities *a);
void abilities_free(struct abilities *a);

/* Adds the abilities of a comma-separated list ("collections:blog, navs",
 * as the command line takes it). Returns 0, or -1 with a message naming
 * the first item that is not an ability (an unknown type, a handle on a
 * type without handles, an empty or odd handle). */
int abilities_parse_list(struct abilities *a, const char *csv, char err[ABILITIES_ERR_LEN]);

/* Adds the abilities of a stored JSON list. Returns 0, or -1 when the text
 * is not a JSON list of strings; the strings of a list with another item
 * among them were added all the same, so a caller that must fail closed
 * (tokens.c) empties a on -1. */
int abilities_from_json(struct abilities *a, const char *json);

/* The JSON list of a's items, e.g. ["collections:blog","navs"]. */
void abilities_to_json(const struct abilities *a, struct strbuf *out);

/* Whether a lets a request read the whole of type t (a list of its
 * handles, a type without handles, or one whose handles the handler
 * chooses): "*" or the type itself. */
bool abilities_cover_type(const struct abilities *a, enum resource_type t);

/* Whether a lets a request read that handle of type t: "*", the type, or
 * "type:handle". */
bool abilities_cover_handle(const struct abilities *a, enum resource_type t, const char *handle);

#endif
