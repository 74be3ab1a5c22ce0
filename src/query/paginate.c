/* paginate: Laravel's pagination links and meta; see paginate.h. */
#include "autoconfig.h"

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

/* path?every parameter but page&limit=N&page=n: the request's own
 * parameters in their order, the limit always there, the page last. */
static void page_url(const struct page *p, const struct request *req, long n, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s?", p->path);
	bool has_limit = false;
	for (size_t i = 0; i < req->nparams; i++) {
		const struct query_param *q = &req->params[i];
		if (strcmp(q->name, "page") == 0)
			continue;
		if (strcmp(q->name, "limit") == 0) {
			has_limit = true;
			strbuf_addf(out, "limit=%ld&", p->per_page);
			continue;
		}
		url_encode(q->name, out);
		strbuf_addch(out, '=');
		url_encode(q->value, out);
		strbuf_addch(out, '&');
	}
	if (!has_limit)
		strbuf_addf(out, "limit=%ld&", p->per_page);
	strbuf_addf(out, "page=%ld", n);
}

static void write_url_or_null(struct jsonw *w, const struct page *p, const struct request *req,
                              long n, bool exists)
{
	if (!exists) {
		jsonw_null(w);
		return;
	}
	struct strbuf url = STRBUF_INIT;
	page_url(p, req, n, &url);
	jsonw_string(w, url.ptr, url.len);
	strbuf_release(&url);
}

static void write_links(struct jsonw *w, const struct page *p, const struct request *req)
{
	long last = page_last(p);
	jsonw_keyz(w, "links");
	jsonw_object_begin(w);
	jsonw_keyz(w, "first");
	write_url_or_null(w, p, req, 1, true);
	jsonw_keyz(w, "last");
	write_url_or_null(w, p, req, last, true);
	jsonw_keyz(w, "prev");
	write_url_or_null(w, p, req, p->current - 1, p->current > 1);
	jsonw_keyz(w, "next");
	write_url_or_null(w, p, req, p->current + 1, p->current < last);
	jsonw_object_end(w);
}

static void link_item(struct jsonw *w, const struct page *p, const struct request *req, long n)
{
	char label[24];
	snprintf(label, sizeof label, "%ld", n);
	jsonw_object_begin(w);
	jsonw_keyz(w, "url");
	write_url_or_null(w, p, req, n, true);
	jsonw_keyz(w, "label");
	jsonw_stringz(w, label);
	jsonw_keyz(w, "page");
	jsonw_int(w, n);
	jsonw_keyz(w, "active");
	jsonw_bool(w, n == p->current);
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

static void range(struct jsonw *w, const struct page *p, const struct request *req, long a, long b)
{
	for (long n = a; n <= b; n++)
		link_item(w, p, req, n);
}

static void edge(struct jsonw *w, const struct page *p, const struct request *req, const char *label,
                 long n, bool exists)
{
	jsonw_object_begin(w);
	jsonw_keyz(w, "url");
	write_url_or_null(w, p, req, n, exists);
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
static void write_window(struct jsonw *w, const struct page *p, const struct request *req)
{
	long last = page_last(p), cur = p->current, window = EACH_SIDE * 2;
	edge(w, p, req, "&laquo; Previous", cur - 1, cur > 1);
	if (last < window + 8) {
		range(w, p, req, 1, last);
	} else if (cur <= window + 1) {
		range(w, p, req, 1, window + 4);
		dots(w);
		range(w, p, req, last - 1, last);
	} else if (cur > last - (window + 1)) {
		range(w, p, req, 1, 2);
		dots(w);
		range(w, p, req, last - (window + 3), last);
	} else {
		range(w, p, req, 1, 2);
		dots(w);
		range(w, p, req, cur - EACH_SIDE, cur + EACH_SIDE);
		dots(w);
		range(w, p, req, last - 1, last);
	}
	edge(w, p, req, "Next &raquo;", cur + 1, cur < last);
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
	write_links(w, p, req);
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
	write_window(w, p, req);
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
}
