/*
 * api/renders: a worker's cache of rendered entries, so that a list page
 * copies the same entries' JSON instead of building and writing each of
 * them again for every request.
 *
 * An entry is rendered once as a template (jsonw.h): its JSON with a mark
 * wherever a URL's base goes, since the bases follow the request's Host
 * when base_url is unset; every copy puts in the bases of its own request.
 * A render also carries the span of moments over which the statuses it
 * read hold (its own, its relations': site/status.h); outside that span it
 * is not found, and the caller renders again.
 *
 * What else a render depends on is the owner's to follow: the snapshot
 * (renders_clear whenever another one is used: the app does it as it
 * moves to a new index) and the config (one for the cache's life).
 *
 * Bounded: the renders held take at most max_bytes (text, marks and
 * bookkeeping), or one render alone when that one is bigger; past the
 * bound, renders not found since the clock hand last passed them go
 * first (the CLOCK approximation of least recently used).
 */
#ifndef CMS_API_RENDERS_H
#define CMS_API_RENDERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/jsonw.h"
#include "lib/strbuf.h"
#include "site/status.h"

/* The bound of a worker's renders (about 4,000 entries of 2 KB): the app
 * uses it; no config key sets another yet. */
#define RENDERS_DEFAULT_MAX_BYTES ((size_t)8 << 20)

struct render;

struct renders {
	struct render **slots;   /* owned, by entry number; NULL: none held */
	uint32_t nslots;
	uint32_t hand;           /* the clock hand: the next slot to consider dropping */
	size_t bytes, max_bytes;
	struct strbuf site_base, api_base; /* the raw bases `bases` was made from */
	struct jsonw_bases bases;          /* escaped, for copies */
	bool have_bases;                   /* bases was made */
	unsigned long long found, stored, dropped; /* counts, for tests and figures */
};

void renders_init(struct renders *c, size_t max_bytes);
/* Drops every render (the snapshot changed). */
void renders_clear(struct renders *c);
void renders_free(struct renders *c);

/* Entry n's render, if one is held that holds at now; else NULL. */
const struct render *renders_find(struct renders *c, uint32_t n, long long now);

/* Keeps text (one JSON value, written under marks) as entry n's render
 * over span, in place of any other, and returns it; it stays valid until
 * the next renders_put or renders_clear. */
const struct render *renders_put(struct renders *c, uint32_t n, const char *text, size_t len,
                                 const struct jsonw_marks *marks, struct status_span span);

/* Writes r at w's position, with the bases of w's env. */
void renders_write(struct renders *c, struct jsonw *w, const struct render *r);

#endif
