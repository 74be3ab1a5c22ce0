/*
 * tagset: the cache tags of one answer, a set of short names kept in the
 * order first added, each with an optional coarser tag that covers it
 * (an entry's covered by its collection's list tag), and written as one
 * header value within a count and a length: when the tags do not fit,
 * every tag that has a coarser one gives way to it; when they still do
 * not fit, the tags that fit are kept and the overflow tag is added, a
 * tag that every purge names, so that an answer that lost tags is still
 * purged by any change.
 */
#ifndef CMS_API_TAGSET_H
#define CMS_API_TAGSET_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strmap.h"

struct tagset {
	char **tags;     /* owned, in the order added */
	char **coarse;   /* owned: tags[i]'s coarser tag, or NULL */
	size_t n, alloc;
	struct strmap seen; /* tag -> nothing, to keep each once */
};

#define TAGSET_INIT {NULL, NULL, 0, 0, STRMAP_INIT}

/* Adds tag (copied) unless the set holds it; coarse (copied, may be NULL)
 * is the tag that covers it when room runs out. */
void tagset_add(struct tagset *s, const char *tag, const char *coarse);
bool tagset_has(const struct tagset *s, const char *tag);
/* Empties the set, keeping nothing. */
void tagset_clear(struct tagset *s);
void tagset_free(struct tagset *s);

/* How a header carries tags: at most max_count tags (0: no bound) in at
 * most max_bytes bytes, separated by sep. */
struct tag_limits {
	size_t max_count, max_bytes;
	char sep;
};

/* Appends the header value of s within lim to out (see the head of this
 * file); overflow is the tag added when tags had to go, and must fit
 * itself. Returns false when tags were dropped (coarsened or cut). */
bool tagset_write(const struct tagset *s, const struct tag_limits *lim, const char *overflow,
                  struct strbuf *out);

#endif
