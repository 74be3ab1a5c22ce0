/* tagset: an answer's cache tags within a header's limits; see tagset.h. */
#include "autoconfig.h"

#include "lib/tagset.h"

#include <stdlib.h>
#include <string.h>

void tagset_add(struct tagset *s, const char *tag, const char *coarse)
{
	if (strmap_get(&s->seen, tag))
		return;
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 32;
		s->tags = xrealloc(s->tags, s->alloc * sizeof *s->tags);
		s->coarse = xrealloc(s->coarse, s->alloc * sizeof *s->coarse);
	}
	s->tags[s->n] = xstrdup(tag);
	s->coarse[s->n] = coarse ? xstrdup(coarse) : NULL;
	strmap_put(&s->seen, s->tags[s->n], s);
	s->n++;
}

bool tagset_has(const struct tagset *s, const char *tag)
{
	return strmap_get(&s->seen, tag) != NULL;
}

void tagset_clear(struct tagset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->tags[i]);
		free(s->coarse[i]);
	}
	strmap_free(&s->seen);
	s->n = 0;
}

void tagset_free(struct tagset *s)
{
	tagset_clear(s);
	free(s->tags);
	free(s->coarse);
	memset(s, 0, sizeof *s);
}

/* A header value being written within limits. */
struct tag_writer {
	const struct tag_limits *lim;
	struct strbuf *out;
	size_t start, count;
	struct strmap written;
};

/* Whether tag still fits, leaving room for one more tag of reserve bytes
 * (the overflow tag). */
static bool fits(const struct tag_writer *w, const char *tag, size_t reserve)
{
	size_t used = w->out->len - w->start;
	size_t add = strlen(tag) + (w->count ? 1 : 0);
	size_t extra = reserve ? reserve + 1 : 0;
	if (w->lim->max_count && w->count + 1 + (reserve ? 1 : 0) > w->lim->max_count)
		return false;
	return !w->lim->max_bytes || used + add + extra <= w->lim->max_bytes;
}

static void put(struct tag_writer *w, const char *tag)
{
	if (strmap_get(&w->written, tag))
		return;
	if (w->count)
		strbuf_addch(w->out, w->lim->sep);
	strbuf_addstr(w->out, tag);
	strmap_put(&w->written, tag, w);
	w->count++;
}

/* The bytes and count the tags take when each gives way to its coarser
 * tag (coarsen) or not. */
static bool all_fit(const struct tagset *s, const struct tag_limits *lim, bool coarsen)
{
	struct strmap counted = STRMAP_INIT;
	size_t bytes = 0, count = 0;
	for (size_t i = 0; i < s->n; i++) {
		const char *t = coarsen && s->coarse[i] ? s->coarse[i] : s->tags[i];
		if (strmap_get(&counted, t))
			continue;
		strmap_put(&counted, t, s);
		bytes += strlen(t) + (count ? 1 : 0);
		count++;
	}
	strmap_free(&counted);
	return (!lim->max_count || count <= lim->max_count) &&
	       (!lim->max_bytes || bytes <= lim->max_bytes);
}

bool tagset_write(const struct tagset *s, const struct tag_limits *lim, const char *overflow,
                  struct strbuf *out)
{
	struct tag_writer w = {lim, out, out->len, 0, STRMAP_INIT};
	bool whole = all_fit(s, lim, false);
	bool coarsen = !whole;
	bool cut = coarsen && !all_fit(s, lim, true);
	size_t reserve = cut ? strlen(overflow) : 0;
	for (size_t i = 0; i < s->n; i++) {
		const char *t = coarsen && s->coarse[i] ? s->coarse[i] : s->tags[i];
		if (!cut || fits(&w, t, reserve))
			put(&w, t);
	}
	if (cut)
		put(&w, overflow);
	strmap_free(&w.written);
	return whole;
}
