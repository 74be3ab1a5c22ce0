/* augment: stored values to delivered values; see augment.h. */
#include "autoconfig.h"

#include "site/augment.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/php.h"
#include "lib/strbuf.h"
#include "lib/strmap.h"
#include "site/assets.h"
#include "site/bard.h"
#include "site/entries.h"
#include "site/icons.h"
#include "site/markdown.h"
#include "site/yaml.h"

static const char *field_type(value_t field)
{
	return value_str(value_map_getz(field, "type"), NULL);
}

static bool is_type(value_t field, const char *type)
{
	return strcmp(field_type(field), type) == 0;
}

/* --- scalars --- */

static bool statamic_url(const char *ref, struct strbuf *out, const void *c);
static bool asset_alt(const char *id, struct strbuf *out, const void *c);

/* A markdown field's option: its config's truth, else Statamic's default. */
static bool md_option(value_t field, const char *key, bool fallback)
{
	value_t v = value_map_getz(field, key);
	return value_is_null(v) ? fallback : php_truthy(v);
}

static void markdown_value(const struct augment_ctx *ctx, value_t v, value_t field,
                           struct value_builder *out)
{
	size_t len;
	const char *md = value_str(v, &len);
	struct statamic_links links = {statamic_url, asset_alt, ctx};
	struct markdown_options opt = {
		.line_breaks = md_option(field, "automatic_line_breaks", true),
		.auto_links = md_option(field, "automatic_links", false),
		.escape_markup = md_option(field, "escape_markup", false),
		.smartypants = md_option(field, "smartypants", false),
		.links = &links,
	};
	struct strbuf html = STRBUF_INIT;
	/* Too large or unparsable: deliver the text rather than nothing. */
	if (value_type(v) == VALUE_STRING && markdown_to_html(md, len, &opt, &html) == 0)
		vb_str(out, html.ptr ? html.ptr : "", html.len);
	else
		vb_value(out, v);
	strbuf_release(&html);
}

static bool truthy(value_t v)
{
	switch (value_type(v)) {
	case VALUE_TRUE:
		return true;
	case VALUE_INT:
	case VALUE_DOUBLE:
		return value_double(v) != 0;
	case VALUE_STRING: {
		const char *s = value_str(v, NULL);
		return *s && strcmp(s, "0") != 0 && strcasecmp(s, "false") != 0;
	}
	default:
		return false;
	}
}

static void number_value(value_t v, bool integer, struct value_builder *out)
{
	if (value_is_null(v) || (value_type(v) == VALUE_STRING && !*value_str(v, NULL))) {
		vb_null(out);
		return;
	}
	double d = value_type(v) == VALUE_STRING ? strtod(value_str(v, NULL), NULL) : value_double(v);
	if (integer)
		vb_int(out, value_int_of_double(d));
	else
		vb_double(out, d);
}

/* 'Y-m-d', 'Y-m-d H:i', 'Y-m-d H:i:s' or a Unix timestamp; -1 when not a date. */
static int date_seconds(value_t v, long long *out)
{
	if (value_type(v) == VALUE_INT) {
		*out = value_int(v);
		return 0;
	}
	size_t len;
	const char *s = value_str(v, &len);
	if (value_type(v) != VALUE_STRING)
		return -1;
	if (yaml_parse_timestamp(s, len, out) == 0)
		return 0;
	if (len == 16 && s[10] == ' ' && s[13] == ':') { /* Y-m-d H:i */
		char with_seconds[20];
		snprintf(with_seconds, sizeof with_seconds, "%.16s:00", s);
		return yaml_parse_timestamp(with_seconds, 19, out);
	}
	return -1;
}

void augment_iso8601(long long secs, struct value_builder *out)
{
	time_t t = (time_t)secs;
	struct tm tm;
	char buf[40];
	gmtime_r(&t, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S.000000Z", &tm);
	vb_strz(out, buf);
}

static void iso_date(value_t v, struct value_builder *out)
{
	long long secs;
	if (date_seconds(v, &secs) != 0)
		vb_value(out, v);
	else
		augment_iso8601(secs, out);
}

static void date_value(value_t v, struct value_builder *out)
{
	if (value_type(v) != VALUE_MAP) {
		iso_date(v, out);
		return;
	}
	vb_map_begin(out); /* range mode: {start, end} */
	struct value_iter it;
	value_iter_init(&it, v);
	while (value_iter_next(&it)) {
		vb_key(out, it.key, it.key_len);
		iso_date(it.value, out);
	}
	vb_map_end(out);
}

/* --- options --- */

static void scalar_text(value_t v, struct strbuf *out)
{
	if (value_type(v) == VALUE_INT)
		strbuf_addf(out, "%lld", (long long)value_int(v));
	else if (value_type(v) == VALUE_STRING)
		strbuf_addstr(out, value_str(v, NULL));
	else if (value_type(v) == VALUE_TRUE || value_type(v) == VALUE_FALSE)
		strbuf_addstr(out, value_bool(v) ? "true" : "false");
}

/* The label of key among the field's options: a map {key: label}, a list
 * of keys, or a list of {key, value}. The key itself when unlisted. */
static void option_label(value_t options, value_t key, struct value_builder *out)
{
	struct strbuf k = STRBUF_INIT;
	scalar_text(key, &k);
	struct value_iter it;
	value_iter_init(&it, options);
	while (value_iter_next(&it)) {
		if (value_type(options) == VALUE_MAP) {
			if (it.key_len == k.len && memcmp(it.key, strbuf_str(&k), k.len) == 0) {
				vb_value(out, value_is_null(it.value) ? key : it.value);
				strbuf_release(&k);
				return;
			}
		} else if (value_type(it.value) == VALUE_MAP) {
			struct strbuf ik = STRBUF_INIT;
			scalar_text(value_map_getz(it.value, "key"), &ik);
			bool same = strcmp(strbuf_str(&ik), strbuf_str(&k)) == 0;
			strbuf_release(&ik);
			if (same) {
				value_t label = value_map_getz(it.value, "value");
				vb_value(out, value_is_null(label) ? key : label);
				strbuf_release(&k);
				return;
			}
		}
	}
	strbuf_release(&k);
	vb_value(out, key);
}

static void option_object(value_t options, value_t key, bool key_first, struct value_builder *out)
{
	vb_map_begin(out);
	if (key_first) {
		vb_keyz(out, "key");
		vb_value(out, key);
	}
	vb_keyz(out, "value");
	vb_value(out, key);
	vb_keyz(out, "label");
	option_label(options, key, out);
	if (!key_first) {
		vb_keyz(out, "key");
		vb_value(out, key);
	}
	vb_map_end(out);
}

/* One option chosen: {value, label, key}; none: all three null (Statamic's
 * LabeledValue of null). Several: a list of {key, value, label}. */
static void options_value(value_t v, value_t field, struct value_builder *out)
{
	value_t options = value_map_getz(field, "options");
	bool several = is_type(field, "checkboxes") || value_bool(value_map_getz(field, "multiple"));
	if (!several) {
		value_t key = value_type(v) == VALUE_ARRAY ? value_array_get(v, 0) : v;
		if (!value_is_null(key)) {
			option_object(options, key, false, out);
			return;
		}
		vb_map_begin(out);
		vb_keyz(out, "value");
		vb_null(out);
		vb_keyz(out, "label");
		vb_null(out);
		vb_keyz(out, "key");
		vb_null(out);
		vb_map_end(out);
		return;
	}
	vb_array_begin(out);
	struct value_iter it;
	value_iter_init(&it, v);
	if (value_type(v) == VALUE_ARRAY) {
		while (value_iter_next(&it))
			option_object(options, it.value, true, out);
	} else if (!value_is_null(v)) {
		option_object(options, v, true, out);
	}
	vb_array_end(out);
}

/* --- code --- */

/* The code with PHP's opening tag defused, as Statamic delivers it. */
static void code_text(value_t code, struct value_builder *out)
{
	if (value_type(code) != VALUE_STRING) {
		vb_value(out, code);
		return;
	}
	size_t len;
	const char *s = value_str(code, &len);
	struct strbuf text = STRBUF_INIT;
	for (const char *p = s, *end = s + len; p < end;) {
		const char *tag = memmem(p, (size_t)(end - p), "<?php", 5);
		if (!tag) {
			strbuf_add(&text, p, (size_t)(end - p));
			break;
		}
		strbuf_add(&text, p, (size_t)(tag - p));
		strbuf_addstr(&text, "&lt;?php");
		p = tag + 5;
	}
	vb_str(out, text.ptr ? text.ptr : "", text.len);
	strbuf_release(&text);
}

/* {value, code, mode}: the code twice (Statamic's ArrayableString) and
 * its mode, the stored one ({code, mode}) or the field's (htmlmixed). */
static void code_value(value_t v, value_t field, struct value_builder *out)
{
	bool stored_mode = value_type(v) == VALUE_MAP;
	value_t code = stored_mode ? value_map_getz(v, "code") : v;
	value_t mode = stored_mode ? value_map_getz(v, "mode") : value_map_getz(field, "mode");
	vb_map_begin(out);
	vb_keyz(out, "value");
	code_text(code, out);
	vb_keyz(out, "code");
	code_text(code, out);
	vb_keyz(out, "mode");
	if (!stored_mode && value_is_null(mode))
		vb_strz(out, "htmlmixed");
	else
		vb_value(out, mode);
	vb_map_end(out);
}

/* --- lookups --- */

struct augment_tables {
	struct strmap terms;  /* "taxonomy\x1fslug\x1fsite" -> the term (taxonomies.h's map) */
	struct strmap users;  /* id as text -> the user map */
	struct strmap assets; /* "container\x1fpath" -> the file map */
	struct strmap containers; /* handle -> the container map */
	struct strmap forms;  /* handle -> the form map */
};

static void join_key(struct strbuf *key, const char *a, const char *b, const char *c)
{
	strbuf_reset(key);
	strbuf_addf(key, "%s\x1f%s", a, b);
	if (c)
		strbuf_addf(key, "\x1f%s", c);
}

static void table_terms(struct augment_tables *t, value_t taxonomies)
{
	struct strbuf key = STRBUF_INIT;
	struct value_iter tax, term;
	value_iter_init(&tax, taxonomies);
	while (value_iter_next(&tax)) {
		const char *handle = value_str(value_map_getz(tax.value, "handle"), NULL);
		value_iter_init(&term, value_map_getz(tax.value, "terms"));
		while (value_iter_next(&term)) {
			value_t v = term.value;
			const char *site = value_str(value_map_getz(v, "site"), NULL);
			/* Entries name a term by its file's slug; a localization may
			 * rename it, and is found by either. */
			join_key(&key, handle, value_str(value_map_getz(v, "file_slug"), NULL), site);
			strmap_put(&t->terms, key.ptr, v.p);
			join_key(&key, handle, value_str(value_map_getz(v, "slug"), NULL), site);
			strmap_put(&t->terms, key.ptr, v.p);
		}
	}
	strbuf_release(&key);
}

static void table_assets(struct augment_tables *t, value_t containers)
{
	struct strbuf key = STRBUF_INIT;
	struct value_iter c, f;
	value_iter_init(&c, containers);
	while (value_iter_next(&c)) {
		const char *handle = value_str(value_map_getz(c.value, "handle"), NULL);
		strmap_put(&t->containers, handle, c.value.p);
		value_iter_init(&f, value_map_getz(c.value, "files"));
		while (value_iter_next(&f)) {
			join_key(&key, handle, value_str(value_map_getz(f.value, "path"), NULL), NULL);
			strmap_put(&t->assets, key.ptr, f.value.p);
		}
	}
	strbuf_release(&key);
}

/* A stored id as text: users and entries are named by strings or numbers,
 * and 5 and "5" name the same one. */
static void scalar_id(value_t v, struct strbuf *out)
{
	strbuf_reset(out);
	scalar_text(v, out);
}

static void table_users(struct augment_tables *t, value_t users)
{
	struct strbuf id = STRBUF_INIT;
	struct value_iter it;
	value_iter_init(&it, users);
	while (value_iter_next(&it)) {
		scalar_id(value_map_getz(it.value, "id"), &id);
		strmap_put(&t->users, strbuf_str(&id), it.value.p);
	}
	strbuf_release(&id);
}

static void table_forms(struct augment_tables *t, value_t forms)
{
	struct value_iter it;
	value_iter_init(&it, forms);
	while (value_iter_next(&it))
		strmap_put(&t->forms, value_str(value_map_getz(it.value, "handle"), NULL), it.value.p);
}

struct augment_tables *augment_tables_build(const struct site_index *idx)
{
	struct augment_tables *t = xcalloc(1, sizeof *t);
	value_t extras = vb_result(&idx->extras);
	table_terms(t, value_map_getz(extras, "taxonomies"));
	table_users(t, value_map_getz(extras, "users"));
	table_assets(t, value_map_getz(extras, "assets"));
	table_forms(t, value_map_getz(extras, "forms"));
	return t;
}

void augment_tables_free(struct augment_tables *t)
{
	if (!t)
		return;
	strmap_free(&t->terms);
	strmap_free(&t->users);
	strmap_free(&t->assets);
	strmap_free(&t->containers);
	strmap_free(&t->forms);
	free(t);
}

static value_t looked_up(const struct strmap *m, const char *key)
{
	return (value_t){strmap_get(m, key)};
}

struct augment_ctx augment_in_site(const struct augment_ctx *ctx, const char *handle)
{
	struct augment_ctx local = *ctx;
	const struct site_info *site = site_index_site(ctx->idx, handle);
	local.site = site ? (size_t)(site - ctx->idx->sites) : 0;
	local.entry = NULL;
	return local;
}

/* --- URLs --- */

static bool is_absolute(const char *url)
{
	return strstr(url, "://") != NULL;
}

/* The site's url and the uri joined: "/" + "/x" is "/x", "/de" + "/" is
 * "/de", anything else the two together. */
static void join_site_url(const char *site_url, const char *uri, struct strbuf *out)
{
	if (strcmp(site_url, "/") == 0)
		strbuf_addstr(out, uri);
	else if (strcmp(uri, "/") == 0)
		strbuf_addstr(out, site_url);
	else
		strbuf_addf(out, "%s%s", site_url, uri);
}

void augment_url(const char *site_url, const char *uri, struct strbuf *out)
{
	if (!is_absolute(site_url)) {
		join_site_url(site_url, uri, out);
		return;
	}
	/* Statamic's url is relative: the absolute URL without its host. */
	struct strbuf full = STRBUF_INIT;
	join_site_url(site_url, uri, &full);
	const char *path = strchr(strstr(full.ptr, "://") + 3, '/');
	strbuf_addstr(out, path ? path : "/");
	strbuf_release(&full);
}

/* Statamic's URL::tidy drops one '/' that ends the part of a URL before
 * its query or fragment: "http://h/" is "http://h", "/#x" is "#x" below
 * the root. */
static void drop_trailing_slash(struct strbuf *url)
{
	size_t end = strcspn(url->ptr, "?#");
	if (end == 0 || url->ptr[end - 1] != '/')
		return;
	memmove(url->ptr + end - 1, url->ptr + end, url->len - end + 1);
	url->len--;
}

void augment_permalink(const char *site_url, const char *uri, struct value_builder *out)
{
	struct strbuf url = STRBUF_INIT;
	join_site_url(site_url, uri, &url);
	if (is_absolute(site_url))
		vb_str(out, url.ptr, url.len);
	else /* the root is the base itself, without a '/' */
		vb_url(out, URL_SITE, url.ptr, strcmp(url.ptr, "/") == 0 ? 0 : url.len);
	strbuf_release(&url);
}

void augment_redirect_permalink(const char *site_url, const char *target,
                                struct value_builder *out)
{
	if (*target != '/') {
		vb_strz(out, target);
		return;
	}
	struct strbuf joined = STRBUF_INIT, url = STRBUF_INIT;
	strbuf_addf(&joined, "%s/%s", strcmp(site_url, "/") == 0 ? "" : site_url, target);
	/* Path::tidy: no "//", but the scheme's. */
	const char *scheme = strstr(joined.ptr, "://");
	size_t keep = scheme ? (size_t)(scheme - joined.ptr) + 3 : 0;
	strbuf_add(&url, joined.ptr, keep);
	for (const char *p = joined.ptr + keep; *p; p++)
		if (*p != '/' || !url.len || url.ptr[url.len - 1] != '/')
			strbuf_addch(&url, *p);
	drop_trailing_slash(&url);
	if (is_absolute(site_url))
		vb_str(out, url.ptr, url.len);
	else
		vb_url(out, URL_SITE, url.ptr, url.len);
	strbuf_release(&joined);
	strbuf_release(&url);
}

void augment_absolute(const char *url, struct value_builder *out)
{
	if (strncmp(url, "http:", 5) == 0 || strncmp(url, "https:", 6) == 0) {
		vb_strz(out, url);
		return;
	}
	struct strbuf path = STRBUF_INIT;
	if (*url != '/')
		strbuf_addch(&path, '/');
	strbuf_addstr(&path, url);
	drop_trailing_slash(&path);
	vb_url(out, URL_SITE, path.ptr, path.len);
	strbuf_release(&path);
}

/* --- relations --- */

static const struct entry *entry_named(const struct augment_ctx *ctx, value_t id)
{
	struct strbuf text = STRBUF_INIT;
	scalar_id(id, &text);
	const struct entry *e = text.len ? site_index_entry(ctx->idx, text.ptr) : NULL;
	strbuf_release(&text);
	return e;
}

/* An entry's url (site-relative), or false when it has no route. */
static bool entry_url(const struct site_index *idx, const struct entry *e, struct strbuf *out)
{
	if (e->redirect) {
		strbuf_addstr(out, e->redirect);
		return true;
	}
	if (!e->uri)
		return false;
	augment_url(idx->sites[e->site].url, e->uri, out);
	return true;
}

/* {id, title, url, permalink, api_url}: an entry's short object. */
static void entry_object(const struct site_index *idx, const struct entry *e,
                         struct value_builder *out)
{
	vb_map_begin(out);
	vb_keyz(out, "id");
	vb_strz(out, e->id);
	vb_keyz(out, "title");
	vb_value(out, entry_field(idx, e, "title"));
	struct strbuf s = STRBUF_INIT;
	vb_keyz(out, "url");
	if (entry_url(idx, e, &s))
		vb_str(out, s.ptr, s.len);
	else
		vb_null(out);
	vb_keyz(out, "permalink");
	if (e->redirect)
		augment_redirect_permalink(idx->sites[e->site].url, e->redirect, out);
	else if (e->uri)
		augment_permalink(idx->sites[e->site].url, e->uri, out);
	else
		vb_null(out);
	strbuf_reset(&s);
	strbuf_addf(&s, "collections/%s/entries/%s", idx->collections[e->collection].handle, e->id);
	vb_keyz(out, "api_url");
	vb_url(out, URL_API, s.ptr, s.len);
	vb_map_end(out);
	strbuf_release(&s);
}

/* The related entry's short object in the item's site, as a reference;
 * false when it has no localization there (or is unknown). Whether it is
 * published is the request's to decide. */
static bool write_entry_ref(const struct augment_ctx *ctx, value_t raw, struct value_builder *out)
{
	const struct site_index *idx = ctx->idx;
	const struct entry *e = entry_named(ctx, raw);
	if (e)
		e = entry_in_site(idx, e, ctx->site);
	if (!e)
		return false;
	vb_ref_begin(out, REF_ENTRY, (uint32_t)(e - idx->entries));
	vb_value(out, raw);
	entry_object(idx, e, out);
	vb_ref_end(out);
	return true;
}

/* The term of taxonomy named slug (its file's or its own) in the item's
 * site, or missing: Statamic's query asks for the terms of that site. */
static value_t term_named(const struct augment_ctx *ctx, const char *taxonomy, const char *slug)
{
	struct strbuf key = STRBUF_INIT;
	join_key(&key, taxonomy, slug, ctx->idx->sites[ctx->site].handle);
	value_t term = looked_up(&ctx->tables->terms, key.ptr);
	strbuf_release(&key);
	return term;
}

/* Lower case, and a '-' for each run of other characters but '/' and
 * '.': Statamic's UrlBuilder slugifies a route so. */
static void add_slugified(struct strbuf *out, const char *s)
{
	bool dash = false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (isalnum(*p) || *p >= 0x80 || *p == '/' || *p == '.') {
			if (dash && out->len && out->ptr[out->len - 1] != '/' && *p != '/')
				strbuf_addch(out, '-');
			dash = false;
			strbuf_addch(out, (char)tolower(*p));
		} else {
			dash = true;
		}
	}
}

/* A term's uri (LocalizedTerm::route): /{taxonomy, - for _}/{slug},
 * under the collection's when seen through one: its mounted entry's uri
 * in the term's site, else its handle. */
static void term_uri(const struct augment_ctx *ctx, const char *taxonomy, const char *slug,
                     struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;
	const struct collection_info *c = ctx->through;
	if (c) {
		const struct entry *mount = c->mount ? site_index_entry(ctx->idx, c->mount) : NULL;
		if (mount)
			mount = entry_in_site(ctx->idx, mount, ctx->site);
		strbuf_addch(&raw, '/');
		add_slugified(&raw, mount && mount->uri ? mount->uri : c->handle);
	}
	strbuf_addch(&raw, '/');
	for (const char *p = taxonomy; *p; p++)
		strbuf_addch(&raw, *p == '_' ? '-' : *p);
	strbuf_addf(&raw, "/%s", slug);
	/* Tidy: no "//" (a mount at "/"). */
	for (const char *p = raw.ptr; *p; p++)
		if (*p != '/' || !out->len || out->ptr[out->len - 1] != '/')
			strbuf_addch(out, *p);
	strbuf_release(&raw);
}

/* taxonomy::slug, or a slug of the field's (first) taxonomy: {id, title,
 * slug, url, permalink, api_url} of the term in the item's site; false
 * when the site has no such term (neither a file nor an entry of a
 * collection that uses the taxonomy makes it), as Statamic's query finds
 * none. */
static bool write_term_ref(const struct augment_ctx *ctx, value_t raw, value_t field,
                           struct value_builder *out)
{
	struct strbuf given = STRBUF_INIT, taxonomy = STRBUF_INIT;
	scalar_text(raw, &given);
	const char *text = strbuf_str(&given);
	const char *sep = strstr(text, "::");
	if (sep) {
		strbuf_add(&taxonomy, text, (size_t)(sep - text));
		text = sep + 2;
	} else {
		value_t t = value_map_getz(field, "taxonomies");
		scalar_text(value_type(t) == VALUE_ARRAY ? value_array_get(t, 0)
		                                         : value_map_getz(field, "taxonomy"),
		            &taxonomy);
	}
	value_t term = taxonomy.len && *text ? term_named(ctx, taxonomy.ptr, text) : VALUE_MISSING;
	if (value_is_missing(term)) {
		strbuf_release(&given);
		strbuf_release(&taxonomy);
		return false;
	}
	const char *slug = value_str(value_map_getz(term, "slug"), NULL);
	const char *site_url = ctx->idx->sites[ctx->site].url;
	struct strbuf s = STRBUF_INIT, uri = STRBUF_INIT;
	vb_ref_begin(out, REF_TERM, UINT32_MAX);
	vb_value(out, raw);
	vb_map_begin(out);
	vb_keyz(out, "id");
	strbuf_addf(&s, "%s::%s", taxonomy.ptr, value_str(value_map_getz(term, "file_slug"), NULL));
	vb_str(out, s.ptr, s.len);
	vb_keyz(out, "title");
	vb_value(out, value_map_getz(term, "title"));
	vb_keyz(out, "slug");
	vb_strz(out, slug);
	term_uri(ctx, taxonomy.ptr, slug, &uri);
	strbuf_reset(&s);
	augment_url(site_url, uri.ptr, &s);
	vb_keyz(out, "url");
	vb_str(out, s.ptr, s.len);
	vb_keyz(out, "permalink");
	augment_permalink(site_url, uri.ptr, out);
	strbuf_reset(&s);
	strbuf_addf(&s, "taxonomies/%s/terms/%s", taxonomy.ptr, slug);
	vb_keyz(out, "api_url");
	vb_url(out, URL_API, s.ptr, s.len);
	vb_map_end(out);
	vb_ref_end(out);
	strbuf_release(&s);
	strbuf_release(&uri);
	strbuf_release(&given);
	strbuf_release(&taxonomy);
	return true;
}

/* A reference of kind to an item found by its stored raw value: the
 * item's keys named in keys, then api_url, {api_path}/{id}. */
static void write_found_ref(enum ref_kind kind, value_t raw, value_t item,
                            const char *const *keys, const char *api_path, const char *id,
                            struct value_builder *out)
{
	vb_ref_begin(out, kind, UINT32_MAX);
	vb_value(out, raw);
	vb_map_begin(out);
	for (size_t i = 0; keys[i]; i++) {
		vb_keyz(out, keys[i]);
		vb_value(out, value_map_getz(item, keys[i]));
	}
	struct strbuf api = STRBUF_INIT;
	strbuf_addf(&api, "%s/%s", api_path, id);
	vb_keyz(out, "api_url");
	vb_url(out, URL_API, api.ptr, api.len);
	strbuf_release(&api);
	vb_map_end(out);
	vb_ref_end(out);
}

/* The item a table has under the stored raw value (as text), as a
 * reference (write_found_ref); false when it has none. */
static bool write_table_ref(const struct strmap *table, enum ref_kind kind, value_t raw,
                            const char *const *keys, const char *api_path,
                            struct value_builder *out)
{
	struct strbuf id = STRBUF_INIT;
	scalar_id(raw, &id);
	value_t item = id.len ? looked_up(table, id.ptr) : VALUE_MISSING;
	if (!value_is_missing(item))
		write_found_ref(kind, raw, item, keys, api_path, id.ptr, out);
	strbuf_release(&id);
	return !value_is_missing(item);
}

/* {id, name, email, api_url}: the one lookup of a user by a stored id. */
static bool write_user_ref(const struct augment_ctx *ctx, value_t raw, struct value_builder *out)
{
	static const char *const keys[] = {"id", "name", "email", NULL};
	return write_table_ref(&ctx->tables->users, REF_USER, raw, keys, "users", out);
}

void augment_user(const struct augment_ctx *ctx, value_t id, struct value_builder *out)
{
	if (value_is_null(id) || !write_user_ref(ctx, id, out))
		vb_null(out);
}

/* {title, handle} of a collection named by handle. */
static bool write_collection_ref(const struct augment_ctx *ctx, value_t raw,
                                 struct value_builder *out)
{
	struct strbuf handle = STRBUF_INIT;
	scalar_text(raw, &handle);
	const struct collection_info *c = site_index_collection(ctx->idx, strbuf_str(&handle));
	strbuf_release(&handle);
	if (!c)
		return false;
	vb_ref_begin(out, REF_OBJECT, UINT32_MAX);
	vb_value(out, raw);
	vb_map_begin(out);
	vb_keyz(out, "title");
	vb_strz(out, c->title);
	vb_keyz(out, "handle");
	vb_strz(out, c->handle);
	vb_map_end(out);
	vb_ref_end(out);
	return true;
}

/* {handle, title, api_url} of a form named by handle. */
static bool write_form_ref(const struct augment_ctx *ctx, value_t raw, struct value_builder *out)
{
	static const char *const keys[] = {"handle", "title", NULL};
	return write_table_ref(&ctx->tables->forms, REF_OBJECT, raw, keys, "forms", out);
}

enum relation { REL_ENTRIES, REL_TERMS, REL_USERS, REL_ASSETS, REL_COLLECTIONS, REL_FORMS };

static bool write_asset_ref(const struct augment_ctx *ctx, value_t v, value_t field,
                            struct value_builder *out);

static bool write_ref(const struct augment_ctx *ctx, enum relation rel, value_t v, value_t field,
                      struct value_builder *out)
{
	switch (rel) {
	case REL_ENTRIES: return write_entry_ref(ctx, v, out);
	case REL_TERMS: return write_term_ref(ctx, v, field, out);
	case REL_USERS: return write_user_ref(ctx, v, out);
	case REL_ASSETS: return write_asset_ref(ctx, v, field, out);
	case REL_COLLECTIONS: return write_collection_ref(ctx, v, out);
	case REL_FORMS: return write_form_ref(ctx, v, out);
	}
	return false;
}

/* One item or many: max_items (max_files) 1 makes one, and a form field
 * holds one unless it says otherwise (its max_items defaults to 1). */
static bool single_relation(enum relation rel, value_t field)
{
	value_t max = value_map_getz(field, "max_items");
	if (rel == REL_FORMS && value_is_null(max))
		return true;
	return value_int(max) == 1 || value_int(value_map_getz(field, "max_files")) == 1;
}

/* A list of references, or one (or null) when the field holds one;
 * unknown items are left out. */
static void relation_value(const struct augment_ctx *ctx, enum relation rel, value_t v,
                           value_t field, struct value_builder *out)
{
	if (single_relation(rel, field)) {
		value_t first = value_type(v) == VALUE_ARRAY ? value_array_get(v, 0) : v;
		if (value_is_null(first) || !write_ref(ctx, rel, first, field, out))
			vb_null(out);
		return;
	}
	vb_array_begin(out);
	if (value_type(v) == VALUE_ARRAY) {
		struct value_iter it;
		value_iter_init(&it, v);
		while (value_iter_next(&it))
			write_ref(ctx, rel, it.value, field, out);
	} else if (!value_is_null(v)) {
		write_ref(ctx, rel, v, field, out);
	}
	vb_array_end(out);
}

/* The collection an entry's terms field sees its terms through
 * (Terms::queryBuilder's shouldQueryCollection): the entry's own, when
 * the field is one of the entry's (not inside a set), has one taxonomy,
 * is named like it, and the collection lists that taxonomy; else NULL. */
static const struct collection_info *seen_through(const struct augment_ctx *ctx, const char *key,
                                                  value_t field)
{
	value_t taxonomies = value_map_getz(field, "taxonomies");
	value_t one = value_type(taxonomies) == VALUE_ARRAY && value_count(taxonomies) == 1
	              ? value_array_get(taxonomies, 0)
	              : value_type(taxonomies) == VALUE_STRING ? taxonomies
	              : value_is_missing(taxonomies) ? value_map_getz(field, "taxonomy")
	                                             : VALUE_MISSING;
	if (!ctx->entry || ctx->nested || value_type(one) != VALUE_STRING ||
	    strcmp(value_str(one, NULL), key) != 0)
		return NULL;
	const struct collection_info *c = &ctx->idx->collections[ctx->entry->collection];
	struct value_iter it;
	value_iter_init(&it, value_map_getz(vb_result(&c->settings), "taxonomies"));
	while (value_iter_next(&it))
		if (value_type(it.value) == VALUE_STRING && strcmp(value_str(it.value, NULL), key) == 0)
			return c;
	return NULL;
}

/* --- assets and links --- */

/* The field's container, or the only one there is. */
static value_t container_named(const struct augment_ctx *ctx, const char *handle)
{
	if (*handle)
		return looked_up(&ctx->tables->containers, handle);
	value_t all = value_map_getz(vb_result(&ctx->idx->extras), "assets");
	return value_count(all) >= 1 ? value_array_get(all, 0) : VALUE_MISSING;
}

/* The file map of an asset of the container, or missing. */
static value_t asset_file(const struct augment_ctx *ctx, const char *handle, const char *path)
{
	struct strbuf key = STRBUF_INIT;
	join_key(&key, handle, path, NULL);
	value_t file = looked_up(&ctx->tables->assets, key.ptr);
	strbuf_release(&key);
	return file;
}

/* {id, url, permalink, api_url, alt}: an asset's short object. */
static void asset_object(value_t container, const char *path, value_t file,
                         struct value_builder *out)
{
	const char *handle = value_str(value_map_getz(container, "handle"), NULL);
	struct strbuf s = STRBUF_INIT;
	vb_map_begin(out);
	vb_keyz(out, "id");
	strbuf_addf(&s, "%s::%s", handle, path);
	vb_str(out, s.ptr, s.len);
	strbuf_reset(&s);
	bool has_url = assets_url(container, path, &s);
	vb_keyz(out, "url");
	if (has_url)
		vb_str(out, s.ptr, s.len);
	else
		vb_null(out);
	vb_keyz(out, "permalink");
	if (has_url)
		augment_permalink(s.ptr, "", out); /* a disk's url may be absolute */
	else
		vb_null(out);
	strbuf_reset(&s);
	assets_api_path(handle, path, &s);
	vb_keyz(out, "api_url");
	vb_url(out, URL_API, s.ptr, s.len);
	vb_keyz(out, "alt");
	vb_value(out, value_map_getz(value_map_getz(file, "data"), "alt"));
	vb_map_end(out);
	strbuf_release(&s);
}

/* An asset of the field's container (or the only one) as a reference;
 * false when the file is not there. */
static bool write_asset_ref(const struct augment_ctx *ctx, value_t v, value_t field,
                            struct value_builder *out)
{
	const char *path = value_str(v, NULL);
	value_t container = container_named(ctx, value_str(value_map_getz(field, "container"), NULL));
	if (!*path || value_is_missing(container))
		return false;
	value_t file = asset_file(ctx, value_str(value_map_getz(container, "handle"), NULL), path);
	if (value_is_missing(file))
		return false;
	vb_ref_begin(out, REF_ASSET, UINT32_MAX);
	vb_value(out, v);
	asset_object(container, path, file, out);
	vb_ref_end(out);
	return true;
}

/* The first child of the augmented entry in its tree (Statamic's @child
 * link), or NULL. */
static const struct entry *first_child(const struct augment_ctx *ctx)
{
	const struct entry *parent = ctx->entry, *first = NULL;
	if (!parent)
		return NULL;
	const struct collection_info *c = &ctx->idx->collections[parent->collection];
	for (size_t i = 0; i < c->nentries; i++) {
		const struct entry *e = c->entries[i];
		if (e->parent == parent && e->order > 0 && (!first || e->order < first->order))
			first = e;
	}
	return first;
}

/* The entry a link names by entry::{id}, in the item's site when it has
 * a localization there; NULL when it is not there. */
static const struct entry *linked_entry(const struct augment_ctx *ctx, const char *id)
{
	const struct entry *e = site_index_entry(ctx->idx, id);
	const struct entry *local = e ? entry_in_site(ctx->idx, e, ctx->site) : NULL;
	return local ? local : e;
}

/* The asset an asset::{container}::{path} target names (id is what
 * follows asset::): its container, file map and path; false when the file
 * is not there. */
struct linked_asset {
	value_t container, file;
	const char *path;
};

static bool asset_target(const struct augment_ctx *ctx, const char *id, struct linked_asset *a)
{
	const char *sep = strstr(id, "::");
	if (!sep)
		return false;
	char *handle = xstrndup(id, (size_t)(sep - id));
	a->container = looked_up(&ctx->tables->containers, handle);
	a->file = asset_file(ctx, handle, sep + 2);
	a->path = sep + 2;
	free(handle);
	return !value_is_missing(a->container) && !value_is_missing(a->file);
}

/* The URL a link target names: a URL as it is; entry::{id} the entry's url
 * (in the item's site when it has a localization there); asset::c::p the
 * asset's url; @child the first child's url. Appends nothing (and returns
 * false) when the target is not there. */
static bool link_target(const struct augment_ctx *ctx, const char *s, struct strbuf *out)
{
	if (strncmp(s, "entry::", 7) == 0) {
		const struct entry *e = linked_entry(ctx, s + 7);
		return e && entry_url(ctx->idx, e, out);
	}
	if (strncmp(s, "asset::", 7) == 0) {
		struct linked_asset a;
		return asset_target(ctx, s + 7, &a) && assets_url(a.container, a.path, out);
	}
	if (strcmp(s, "@child") == 0) {
		const struct entry *child = first_child(ctx);
		return child && entry_url(ctx->idx, child, out);
	}
	strbuf_addstr(out, s);
	return true;
}

/* Whether a link's target names an item (entry::, asset::, @child)
 * rather than being a URL. */
static bool names_item(value_t v)
{
	const char *s = value_str(v, NULL);
	return value_type(v) == VALUE_STRING && (strncmp(s, "entry::", 7) == 0 ||
	                                         strncmp(s, "asset::", 7) == 0 || strcmp(s, "@child") == 0);
}

/* The item a link names as its short object, a reference whatever the
 * entry's status (Statamic resolves it so); false when it is not there. */
static bool write_linked_item(const struct augment_ctx *ctx, value_t v, struct value_builder *out)
{
	const char *s = value_str(v, NULL);
	const struct entry *e = strcmp(s, "@child") == 0          ? first_child(ctx)
	                        : strncmp(s, "entry::", 7) == 0 ? linked_entry(ctx, s + 7)
	                                                        : NULL;
	struct linked_asset a;
	bool asset = !e && strncmp(s, "asset::", 7) == 0 && asset_target(ctx, s + 7, &a);
	if (!e && !asset)
		return false;
	vb_ref_begin(out, e ? REF_OBJECT : REF_ASSET, UINT32_MAX);
	vb_value(out, v);
	if (e)
		entry_object(ctx->idx, e, out);
	else
		asset_object(a.container, a.path, a.file, out);
	vb_ref_end(out);
	return true;
}

/* The object a link target names (Statamic's ArrayableLink): an entry's
 * or an asset's short object; else {url}, the URL as it is (a number as a
 * number), null for an item that is not there. */
static void link_value(const struct augment_ctx *ctx, value_t v, struct value_builder *out)
{
	if (value_type(v) == VALUE_MAP)
		v = value_map_getz(v, "url");
	if (names_item(v) && write_linked_item(ctx, v, out))
		return;
	size_t len;
	const char *s = value_str(v, &len);
	vb_map_begin(out);
	vb_keyz(out, "url");
	if (names_item(v))
		vb_null(out);
	else if (value_type(v) == VALUE_STRING && php_is_numeric(s, len))
		vb_int(out, value_int_of_double(strtod(s, NULL)));
	else if (value_type(v) == VALUE_DOUBLE)
		vb_int(out, value_int_of_double(value_double(v)));
	else
		vb_value(out, v);
	vb_map_end(out);
}

/* The URL of what a statamic:// link names, as Statamic's
 * Data::find($ref)->url() gives it to Bard and Markdown in the API:
 * "entry::id" (or a bare id) the entry's own url (not localized to the
 * item's site), "asset::c::p" the asset's; false, appending nothing, for
 * anything else, an unknown target, or one without a url. */
static bool statamic_url(const char *ref, struct strbuf *out, const void *c)
{
	const struct augment_ctx *ctx = c;
	size_t at = out->len;
	bool found = false;
	if (strncmp(ref, "asset::", 7) == 0) {
		found = link_target(ctx, ref, out);
	} else {
		const char *id = strncmp(ref, "entry::", 7) == 0 ? ref + 7 : ref;
		const struct entry *e = site_index_entry(ctx->idx, id);
		found = e && entry_url(ctx->idx, e, out);
	}
	if (!found)
		strbuf_truncate(out, at);
	return found;
}

/* The alt text of the asset "c::p", from its data; false when none. */
static bool asset_alt(const char *id, struct strbuf *out, const void *c)
{
	struct linked_asset a;
	if (!asset_target(c, id, &a))
		return false;
	value_t alt = value_map_getz(value_map_getz(a.file, "data"), "alt");
	if (value_is_null(alt))
		return false;
	php_string(alt, out);
	return true;
}

/* --- nested fields: replicator, grid, group --- */

static bool named(const char *key, size_t len, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (strlen(names[i]) == len && memcmp(names[i], key, len) == 0)
			return true;
	return false;
}

/* Writes the fields of a set, row or group (items: [{handle, field}]),
 * each its stored value (or default) augmented; stored keys no field
 * names are left out, as are fields named in `own` (the keys the caller
 * writes itself). */
static void nested_values(const struct augment_ctx *outer, value_t items, value_t values,
                          const char *const *own, struct value_builder *out)
{
	struct augment_ctx inner = *outer;
	const struct augment_ctx *ctx = &inner;
	inner.nested = true;
	struct value_iter it;
	value_iter_init(&it, items);
	while (value_iter_next(&it)) {
		size_t len;
		const char *h = value_str(value_map_getz(it.value, "handle"), &len);
		if (!len || named(h, len, own))
			continue;
		char *key = xstrndup(h, len);
		vb_key(out, h, len);
		augment_field(ctx, key, value_map_get(values, h, len), value_map_getz(it.value, "field"),
		              out);
		free(key);
	}
}

/* The fields a replicator or Bard set defines: sets: {handle: {fields}}
 * or, since v5, grouped, sets: {group: {sets: {handle: {fields}}}} (when
 * the first has `sets`; a later group's set of a name wins, as Statamic
 * flattens them). A list, else missing when its config defines none
 * (blueprints.h keeps `fields: []` as null), and Statamic then delivers
 * the set as it is stored. */
static value_t set_fields(value_t sets, const char *type, size_t len)
{
	struct value_iter it;
	value_iter_init(&it, sets);
	bool grouped = value_iter_next(&it) && !value_is_missing(value_map_getz(it.value, "sets"));
	value_t set = grouped ? VALUE_MISSING : value_map_get(sets, type, len);
	value_iter_init(&it, grouped ? sets : VALUE_MISSING);
	while (value_iter_next(&it)) {
		value_t one = value_map_get(value_map_getz(it.value, "sets"), type, len);
		if (!value_is_missing(one))
			set = one;
	}
	value_t fields = value_map_getz(set, "fields");
	return value_type(fields) == VALUE_ARRAY ? fields : VALUE_MISSING;
}

/* A set with fields: {fields..., id, type}, id null when it has none. */
static void set_object(const struct augment_ctx *ctx, value_t fields, value_t values, value_t id,
                       value_t type, struct value_builder *out)
{
	static const char *const own[] = {"id", "type", NULL};
	vb_map_begin(out);
	nested_values(ctx, fields, values, own, out);
	vb_keyz(out, "id");
	vb_value(out, id);
	vb_keyz(out, "type");
	vb_value(out, type);
	vb_map_end(out);
}

/* The enabled sets, each through its set's fields (or as stored when its
 * set defines none). */
static void replicator_value(const struct augment_ctx *ctx, value_t v, value_t field,
                             struct value_builder *out)
{
	vb_array_begin(out);
	struct value_iter it;
	value_iter_init(&it, value_type(v) == VALUE_ARRAY ? v : VALUE_MISSING);
	while (value_iter_next(&it)) {
		if (value_type(value_map_getz(it.value, "enabled")) == VALUE_FALSE)
			continue; /* disabled sets are not delivered */
		size_t len;
		value_t type = value_map_getz(it.value, "type");
		const char *name = value_str(type, &len);
		value_t fields = set_fields(value_map_getz(field, "sets"), name, len);
		if (value_is_missing(fields))
			vb_value(out, it.value);
		else
			set_object(ctx, fields, it.value, value_map_getz(it.value, "id"), type, out);
	}
	vb_array_end(out);
}

/* The rows, each {fields..., id} (id null when the row has none). */
static void grid_value(const struct augment_ctx *ctx, value_t v, value_t field,
                       struct value_builder *out)
{
	static const char *const own[] = {"id", NULL};
	vb_array_begin(out);
	struct value_iter it;
	value_iter_init(&it, value_type(v) == VALUE_ARRAY ? v : VALUE_MISSING);
	while (value_iter_next(&it)) {
		vb_map_begin(out);
		nested_values(ctx, value_map_getz(field, "fields"), it.value, own, out);
		vb_keyz(out, "id");
		vb_value(out, value_map_getz(it.value, "id"));
		vb_map_end(out);
	}
	vb_array_end(out);
}

/* Every field of the group, set or not. */
static void group_value(const struct augment_ctx *ctx, value_t v, value_t field,
                        struct value_builder *out)
{
	static const char *const own[] = {NULL};
	vb_map_begin(out);
	nested_values(ctx, value_map_getz(field, "fields"), value_type(v) == VALUE_MAP ? v : VALUE_MISSING,
	              own, out);
	vb_map_end(out);
}

/* --- bard --- */

static void text_block(struct strbuf *html, struct value_builder *out)
{
	vb_map_begin(out);
	vb_keyz(out, "type");
	vb_strz(out, "text");
	vb_keyz(out, "text");
	vb_str(out, html->ptr ? html->ptr : "", html->len);
	vb_map_end(out);
	strbuf_reset(html);
}

/* A Bard set node: through its set's fields, or its stored values and id
 * when its set defines none. */
static void bard_set_object(const struct augment_ctx *ctx, value_t sets, value_t node,
                            struct value_builder *out)
{
	value_t attrs = value_map_getz(node, "attrs");
	value_t values = value_map_getz(attrs, "values");
	size_t len;
	value_t type = value_map_getz(values, "type");
	const char *name = value_str(type, &len);
	value_t fields = set_fields(sets, name, len);
	if (!value_is_missing(fields)) {
		set_object(ctx, fields, values, value_map_getz(attrs, "id"), type, out);
		return;
	}
	vb_map_begin(out);
	struct value_iter it;
	value_iter_init(&it, values);
	while (value_iter_next(&it)) {
		if (it.key_len == 2 && memcmp(it.key, "id", 2) == 0)
			continue; /* the set's own id replaces it */
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
	vb_keyz(out, "id");
	vb_value(out, value_map_getz(attrs, "id"));
	vb_map_end(out);
}

/* Where bard_value's sets go as Bard renders them. */
struct bard_sets {
	const struct augment_ctx *ctx;
	value_t sets; /* the field's sets config */
	struct value_builder *out;
};

/* A set met while the Bard renders: the text before it as a block, then
 * the set. A disabled one is not there at all (Statamic removes it before
 * rendering, so the text around it stays one block). */
static void bard_set(value_t set, struct strbuf *html, void *c)
{
	struct bard_sets *b = c;
	if (value_type(value_map_getz(value_map_getz(set, "attrs"), "enabled")) == VALUE_FALSE)
		return;
	if (html->len)
		text_block(html, b->out);
	bard_set_object(b->ctx, b->sets, set, b->out);
}

/* Without sets: one HTML string. With sets: text blocks between the sets
 * and the sets (bard_set). Nothing (null, []) is [] with sets and null
 * without. A saved-as-HTML value (save_html, no sets) is delivered with
 * its statamic:// URLs resolved; any other string as it is. */
static void bard_value(const struct augment_ctx *ctx, value_t v, value_t field,
                       struct value_builder *out)
{
	struct strbuf html = STRBUF_INIT;
	struct statamic_links links = {statamic_url, asset_alt, ctx};
	value_t sets = value_map_getz(field, "sets");
	bool has_sets = value_count(sets) > 0;
	if (value_type(v) == VALUE_STRING && !has_sets &&
	    php_truthy(value_map_getz(field, "save_html"))) {
		size_t len;
		const char *s = value_str(v, &len);
		statamic_urls_resolve(s, len, &links, &html);
		vb_str(out, strbuf_str(&html), html.len);
	} else if (!php_truthy(v)) {
		if (has_sets) {
			vb_array_begin(out);
			vb_array_end(out);
		} else {
			vb_null(out);
		}
	} else if (value_type(v) == VALUE_STRING) {
		vb_value(out, v);
	} else if (!has_sets) {
		bard_render(v, &links, NULL, NULL, &html);
		vb_str(out, strbuf_str(&html), html.len);
	} else {
		struct bard_sets b = {ctx, sets, out};
		vb_array_begin(out);
		bard_render(v, &links, bard_set, &b, &html);
		if (html.len)
			text_block(&html, out);
		vb_array_end(out);
	}
	strbuf_release(&html);
}

/* --- icons --- */

/*
 * icon: Statamic's Icon fieldtype augments a value to the SVG of the
 * field's set (`set:`, Statamic's own "default" set when none). A falsy
 * value is null. The SVG is the file's bytes when [icons] names the set's
 * folder and it holds <name>.svg (icons.h). Where Statamic fails with a
 * 500 error (a set never registered, a name without a file, a list) and
 * for the default set, whose files come with Statamic and not with the
 * site, the value is delivered as stored: its name.
 */
static void icon_value(const struct augment_ctx *ctx, value_t v, value_t field,
                       struct value_builder *out)
{
	if (!php_truthy(v)) {
		vb_null(out);
		return;
	}
	value_t set = value_map_getz(field, "set");
	const char *folder = icons_folder(ctx->idx->icons, ctx->idx->nicons,
	                                  value_type(set) == VALUE_STRING ? value_str(set, NULL)
	                                                                  : "default");
	struct strbuf name = STRBUF_INIT, svg = STRBUF_INIT;
	if (value_type(v) != VALUE_ARRAY && value_type(v) != VALUE_MAP)
		php_string(v, &name);
	if (folder && name.len && icons_read(folder, name.ptr, name.len, &svg) == 0)
		vb_str(out, svg.ptr ? svg.ptr : "", svg.len);
	else
		vb_value(out, v);
	strbuf_release(&name);
	strbuf_release(&svg);
}

/* --- fields --- */

bool augment_is_relationship(value_t field)
{
	static const char *const types[] = {
		"entries", "terms", "users", "collections", "form", "navs", "taxonomies", "sites",
		"structures", "user_groups", "user_roles", "asset_container", "asset_folder",
		"template_folder", NULL,
	};
	const char *type = field_type(field);
	return named(type, strlen(type), types);
}

/* A value of a known fieldtype. */
static void typed_value(const struct augment_ctx *ctx, const char *type, value_t v, value_t field,
                        struct value_builder *out)
{
	if (strcmp(type, "markdown") == 0)
		markdown_value(ctx, v, field, out);
	else if (strcmp(type, "toggle") == 0)
		vb_bool(out, truthy(v));
	else if (strcmp(type, "integer") == 0)
		number_value(v, true, out);
	else if (strcmp(type, "float") == 0)
		number_value(v, false, out);
	else if (strcmp(type, "date") == 0 && !value_is_null(v))
		date_value(v, out);
	else if (strcmp(type, "select") == 0 || strcmp(type, "radio") == 0 ||
	         strcmp(type, "button_group") == 0 || strcmp(type, "checkboxes") == 0)
		options_value(v, field, out);
	else if (strcmp(type, "entries") == 0)
		relation_value(ctx, REL_ENTRIES, v, field, out);
	else if (strcmp(type, "terms") == 0)
		relation_value(ctx, REL_TERMS, v, field, out);
	else if (strcmp(type, "users") == 0)
		relation_value(ctx, REL_USERS, v, field, out);
	else if (strcmp(type, "assets") == 0)
		relation_value(ctx, REL_ASSETS, v, field, out);
	else if (strcmp(type, "collections") == 0)
		relation_value(ctx, REL_COLLECTIONS, v, field, out);
	else if (strcmp(type, "form") == 0)
		relation_value(ctx, REL_FORMS, v, field, out);
	else if (strcmp(type, "link") == 0)
		link_value(ctx, v, out);
	else if (strcmp(type, "code") == 0)
		code_value(v, field, out);
	else if (strcmp(type, "replicator") == 0)
		replicator_value(ctx, v, field, out);
	else if (strcmp(type, "grid") == 0)
		grid_value(ctx, v, field, out);
	else if (strcmp(type, "group") == 0)
		group_value(ctx, v, field, out);
	else if (strcmp(type, "bard") == 0)
		bard_value(ctx, v, field, out);
	else if (strcmp(type, "icon") == 0)
		icon_value(ctx, v, field, out);
	else
		vb_value(out, v);
}

void augment_field(const struct augment_ctx *ctx, const char *key, value_t v, value_t field,
                   struct value_builder *out)
{
	if (value_is_missing(field)) {
		if (strcmp(key, "content") == 0 && value_type(v) == VALUE_STRING)
			markdown_value(ctx, v, field, out);
		else
			vb_value(out, v);
		return;
	}
	/* Nothing stored (or null): the field's default, augmented. */
	if (value_is_null(v))
		v = value_map_getz(field, "default");
	/* Terms are seen through the collection, or not, by the field. */
	struct augment_ctx local = *ctx;
	local.through = is_type(field, "terms") ? seen_through(ctx, key, field) : NULL;
	typed_value(&local, field_type(field), v, field, out);
}

void augment_item_field(const struct augment_ctx *ctx, const char *key, value_t v, value_t field,
                        struct value_builder *out)
{
	if (!augment_is_relationship(field)) {
		augment_field(ctx, key, v, field, out);
		return;
	}
	vb_ref_begin(out, REF_FIELD, UINT32_MAX);
	vb_value(out, v);
	augment_field(ctx, key, v, field, out);
	vb_ref_end(out);
}
