/* api/renders: a worker's cache of rendered entries; see renders.h. */
#include "autoconfig.h"

#include "api/renders.h"

#include <stdlib.h>
#include <string.h>

/* One render in one allocation: the header, its marks, then its text. */
struct render {
	struct status_span span;
	size_t len, nmarks;
	bool used; /* found since the clock hand last passed */
	struct jsonw_mark marks[];
};

static const char *render_text(const struct render *r)
{
	return (const char *)(r->marks + r->nmarks);
}

static size_t render_bytes(const struct render *r)
{
	return sizeof *r + r->nmarks * sizeof r->marks[0] + r->len + 1;
}

void renders_init(struct renders *c, size_t max_bytes)
{
	memset(c, 0, sizeof *c);
	c->max_bytes = max_bytes;
}

static void drop(struct renders *c, uint32_t n)
{
	c->bytes -= render_bytes(c->slots[n]);
	free(c->slots[n]);
	c->slots[n] = NULL;
	c->dropped++;
}

void renders_clear(struct renders *c)
{
	for (uint32_t i = 0; i < c->nslots; i++)
		if (c->slots[i])
			drop(c, i);
	free(c->slots);
	c->slots = NULL;
	c->nslots = 0;
	c->hand = 0;
}

void renders_free(struct renders *c)
{
	renders_clear(c);
	strbuf_release(&c->site_base);
	strbuf_release(&c->api_base);
	jsonw_bases_release(&c->bases);
	memset(c, 0, sizeof *c);
}

const struct render *renders_find(struct renders *c, uint32_t n, long long now)
{
	struct render *r = n < c->nslots ? c->slots[n] : NULL;
	if (!r || !status_span_holds(&r->span, now))
		return NULL;
	r->used = true;
	c->found++;
	return r;
}

/* Drops renders, keeping `keep`, until the bound holds or keep is alone.
 * Each pass of the hand clears `used` marks, so two passes are enough. */
static void make_room(struct renders *c, uint32_t keep)
{
	for (size_t steps = 0; c->bytes > c->max_bytes && steps < 2 * (size_t)c->nslots; steps++) {
		uint32_t n = c->hand;
		c->hand = n + 1 < c->nslots ? n + 1 : 0;
		struct render *r = c->slots[n];
		if (!r || n == keep)
			continue;
		if (r->used)
			r->used = false;
		else
			drop(c, n);
	}
}

const struct render *renders_put(struct renders *c, uint32_t n, const char *text, size_t len,
                                 const struct jsonw_marks *marks, struct status_span span)
{
	if (n >= c->nslots) {
		uint32_t grown = n + 1 > 2 * c->nslots ? n + 1 : 2 * c->nslots;
		c->slots = xrealloc(c->slots, grown * sizeof *c->slots);
		memset(c->slots + c->nslots, 0, (grown - c->nslots) * sizeof *c->slots);
		c->nslots = grown;
	}
	if (c->slots[n])
		drop(c, n);
	struct render *r = xmalloc(sizeof *r + marks->len * sizeof r->marks[0] + len + 1);
	r->span = span;
	r->len = len;
	r->nmarks = marks->len;
	r->used = false;
	if (marks->len)
		memcpy(r->marks, marks->items, marks->len * sizeof r->marks[0]);
	char *t = (char *)(r->marks + r->nmarks);
	memcpy(t, text, len);
	t[len] = '\0';
	c->slots[n] = r;
	c->bytes += render_bytes(r);
	c->stored++;
	make_room(c, n);
	return r;
}

/* The escaped bases of env, made again only when they change (a request
 * with another Host, or another mount). */
static const struct jsonw_bases *bases_for(struct renders *c, const struct jsonw_env *env)
{
	if (!c->have_bases || strcmp(strbuf_str(&c->site_base), env->site_base) != 0 ||
	    strcmp(strbuf_str(&c->api_base), env->api_base) != 0) {
		strbuf_reset(&c->site_base);
		strbuf_addstr(&c->site_base, env->site_base);
		strbuf_reset(&c->api_base);
		strbuf_addstr(&c->api_base, env->api_base);
		jsonw_bases_set(&c->bases, env);
		c->have_bases = true;
	}
	return &c->bases;
}

void renders_write(struct renders *c, struct jsonw *w, const struct render *r)
{
	static const struct jsonw_bases none = {STRBUF_INIT, STRBUF_INIT};
	const struct jsonw_bases *bases = w->env ? bases_for(c, w->env) : &none;
	jsonw_template(w, render_text(r), r->len, r->marks, r->nmarks, bases);
}
