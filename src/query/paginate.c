/* paginate: Laravel's pagination links and meta; see paginate.h. */
#include "autoconfig.h"

#include "lib/url.h"
#include "query/paginate.h"

#include <stdio.h>
#include <string.h>

#define EACH_SIDE 3

long page_last(const struct page *p)
{
	long last = (p->total + p->per_page - 1) / p->per_page;
	return last < 1 ? 1 : last;
}

long page_from(const struct page *p)
{
	long from = (p->current - 1) * p->per_page + 1;
	return from <= p->total ? from : 0;
}

long page_to(const struct page *p)
{
	long from = page_from(p);
	if (!from)
		return 0;
	long to = from + p->per_page - 1;
	return to < p->total ? to : p->total;
}

/* What every link of one page's answer shares: the JSON text of the URLs
 * up to their page number, made once (a page has up to 17 links). */
struct links {
	const struct page *p;
	struct strbuf prefix; /* "path?...&page= as JSON, opening quote included */
	struct strbuf url;    /* one link's JSON text */
};

/* path?every parameter but page&limit=N&page=n: the request's own
 * parameters in their order, the limit always there, the page last. The
 * URL without n, as a JSON string not yet closed, into l->prefix (it ends
 * in ASCII, so escaping it and then the digits is escaping the whole). */
static void links_init(struct links *l, const struct page *p, const struct request *req)
{
	struct strbuf url = STRBUF_INIT;
	strbuf_addf(&url, "%s?", p->path);
	bool has_limit = false;
	for (size_t i = 0; i < req->nparams; i++) {
		const struct query_param *q = &req->params[i];
		if (strcmp(q->name, "page") == 0)
			continue;
		if (strcmp(q->name, "limit") == 0) {
			has_limit = true;
			strbuf_addf(&url, "limit=%ld&", p->per_page);
			continue;
		}
		url_encode(q->name, &url);
		strbuf_addch(&url, '=');
		url_encode(q->value, &url);
		strbuf_addch(&url, '&');
	}
	if (!has_limit)
		strbuf_addf(&url, "limit=%ld&", p->per_page);
	strbuf_addstr(&url, "page=");
	l->p = p;
	l->prefix = (struct strbuf)STRBUF_INIT;
	l->url = (struct strbuf)STRBUF_INIT;
	strbuf_addch(&l->prefix, '"');
	json_escape(&l->prefix, url.ptr, url.len);
	strbuf_release(&url);
}

static void links_release(struct links *l)
{
	strbuf_release(&l->prefix);
	strbuf_release(&l->url);
}

static void write_url_or_null(struct jsonw *w, struct links *l, long n, bool exists)
{
	if (!exists) {
		jsonw_null(w);
		return;
	}
	strbuf_reset(&l->url);
	strbuf_add(&l->url, l->prefix.ptr, l->prefix.len);
	strbuf_addf(&l->url, "%ld\"", n);
	jsonw_raw(w, l->url.ptr, l->url.len);
}

static void write_links(struct jsonw *w, struct links *l)
{
	const struct page *p = l->p;
	long last = page_last(p);
	jsonw_keyz(w, "links");
	jsonw_object_begin(w);
	jsonw_keyz(w, "first");
	write_url_or_null(w, l, 1, true);
	jsonw_keyz(w, "last");
	write_url_or_null(w, l, last, true);
	jsonw_keyz(w, "prev");
	write_url_or_null(w, l, p->current - 1, p->current > 1);
	jsonw_keyz(w, "next");
	write_url_or_null(w, l, p->current + 1, p->current < last);
	jsonw_object_end(w);
}

static void link_item(struct jsonw *w, struct links *l, long n)
{
	char label[24];
	snprintf(label, sizeof label, "%ld", n);
	jsonw_object_begin(w);
	jsonw_keyz(w, "url");
	write_url_or_null(w, l, n, true);
	jsonw_keyz(w, "label");
	jsonw_stringz(w, label);
	jsonw_keyz(w, "page");
	jsonw_int(w, n);
	jsonw_keyz(w, "active");
	jsonw_bool(w, n == l->p->current);
	jsonw_object_end(w);
}

static void dots(struct jsonw *w)
{
	jsonw_object_begin(w);
	jsonw_keyz(w, "url");
	jsonw_null(w);
	jsonw_keyz(w, "label");
	jsonw_stringz(w, "...");
	jsonw_keyz(w, "active");
	jsonw_bool(w, false);
	jsonw_object_end(w);
}

static void range(struct jsonw *w, struct links *l, long a, long b)
{
	for (long n = a; n <= b; n++)
		link_item(w, l, n);
}

static void edge(struct jsonw *w, struct links *l, const char *label, long n, bool exists)
{
	jsonw_object_begin(w);
	jsonw_keyz(w, "url");
	write_url_or_null(w, l, n, exists);
	jsonw_keyz(w, "label");
	jsonw_stringz(w, label);
	jsonw_keyz(w, "page");
	if (exists)
		jsonw_int(w, n);
	else
		jsonw_null(w);
	jsonw_keyz(w, "active");
	jsonw_bool(w, false);
	jsonw_object_end(w);
}

/* Laravel's UrlWindow: every page up to 13; else the first 10, the last
 * 10, or the current page with 3 on each side, with the first two and
 * last two pages and "..." between. */
static void write_window(struct jsonw *w, struct links *l)
{
	long last = page_last(l->p), cur = l->p->current, window = EACH_SIDE * 2;
	edge(w, l, "&laquo; Previous", cur - 1, cur > 1);
	if (last < window + 8) {
		range(w, l, 1, last);
	} else if (cur <= window + 1) {
		range(w, l, 1, window + 4);
		dots(w);
		range(w, l, last - 1, last);
	} else if (cur > last - (window + 1)) {
		range(w, l, 1, 2);
		dots(w);
		range(w, l, last - (window + 3), last);
	} else {
		range(w, l, 1, 2);
		dots(w);
		range(w, l, cur - EACH_SIDE, cur + EACH_SIDE);
		dots(w);
		range(w, l, last - 1, last);
	}
	edge(w, l, "Next &raquo;", cur + 1, cur < last);
}

static void int_or_null(struct jsonw *w, long v)
{
	if (v)
		jsonw_int(w, v);
	else
		jsonw_null(w);
}

void paginate_write(struct jsonw *w, const struct page *p, const struct request *req)
{
	struct links l;
	links_init(&l, p, req);
	write_links(w, &l);
	jsonw_keyz(w, "meta");
	jsonw_object_begin(w);
	jsonw_keyz(w, "current_page");
	jsonw_int(w, p->current);
	jsonw_keyz(w, "from");
	int_or_null(w, page_from(p));
	jsonw_keyz(w, "last_page");
	jsonw_int(w, page_last(p));
	jsonw_keyz(w, "links");
	jsonw_array_begin(w);
	write_window(w, &l);
	jsonw_array_end(w);
	jsonw_keyz(w, "path");
	jsonw_stringz(w, p->path);
	jsonw_keyz(w, "per_page");
	jsonw_int(w, p->per_page);
	jsonw_keyz(w, "to");
	int_or_null(w, page_to(p));
	jsonw_keyz(w, "total");
	jsonw_int(w, p->total);
	jsonw_object_end(w);
	links_release(&l);
}
