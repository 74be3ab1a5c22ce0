/* query/entries: a query over a collection's entries; see entries.h. */
#include "autoconfig.h"

#include "query/entries.h"

#include <stdlib.h>
#include <string.h>

#include "lib/php.h"
#include "lib/strbuf.h"
#include "site/augment.h"

/* The keys Statamic computes for every entry, sorted; a data key of the
 * same name is replaced by them. */
static const char *const computed_keys[] = {
	"api_url", "blueprint", "collection", "date", "id", "is_entry", "last_modified", "locale",
	"mount", "order", "origin_id", "permalink", "private", "published", "slug", "status",
	"title", "updated_at", "updated_by", "uri", "url",
};
#define NCOMPUTED (sizeof computed_keys / sizeof computed_keys[0])


/* --- computed values --- */

static bool is_computed(const char *key, size_t len)
{
	for (size_t i = 0; i < NCOMPUTED; i++)
		if (strlen(computed_keys[i]) == len && memcmp(computed_keys[i], key, len) == 0)
			return true;
	return false;
}

/* Collection number n, the request's own without a lookup (a term's
 * entries come from several). */
static struct snap_collection collection_numbered(const struct entries_query *q, uint32_t n)
{
	return n == q->collection_number ? q->collection : snap_collection_at(q->snap, n);
}

static struct snap_collection collection_of(const struct entries_query *q,
                                            const struct snap_entry *e)
{
	return collection_numbered(q, e->collection);
}

enum entry_status entries_status_at(const struct snap_collection *c, const struct snap_entry *e,
                                    long long now, struct status_span *span)
{
	struct status_facts facts = {e->published, c->dated && e->has_date, e->date,
	                             c->future_private, c->past_private};
	if (span)
		status_span_narrow(span, &facts, now);
	return entry_status_at(&facts, now);
}

enum entry_status entries_status(const struct entries_query *q, const struct snap_entry *e)
{
	struct snap_collection c = collection_of(q, e);
	return entries_status_at(&c, e, q->now, q->span);
}

static void title_handle(struct value_builder *b, const char *title, const char *handle)
{
	vb_map_begin(b);
	vb_keyz(b, "title");
	vb_strz(b, title);
	vb_keyz(b, "handle");
	vb_strz(b, handle);
	vb_map_end(b);
}

/* The collection mounted on the entry with that id, as {title, handle};
 * false when none is. */
static bool collection_mounted_on(const struct snapshot *s, const char *id,
                                  struct value_builder *b)
{
	for (uint32_t i = 0; i < snap_collection_count(s); i++) {
		struct snap_collection c = snap_collection_at(s, i);
		if (c.mount && strcmp(c.mount, id) == 0) {
			title_handle(b, c.title, c.handle);
			return true;
		}
	}
	return false;
}

/* AugmentedEntry::mount(): the data's `mount`, else the collection mounted
 * on this entry, else the one mounted on its origin, else null. */
static void mounted_collection(const struct snapshot *s, const struct snap_entry *e,
                              struct value_builder *b)
{
	value_t own = value_map_getz(e->data, "mount");
	if (!value_is_missing(own) && !value_is_null(own))
		vb_value(b, own);
	else if (!collection_mounted_on(s, e->id, b) &&
	         (e->origin == SNAP_NONE ||
	          !collection_mounted_on(s, snap_entry_at(s, e->origin).id, b)))
		vb_null(b);
}

/* The root page of a collection's tree in a site (its order 1), or
 * SNAP_NONE; the last one found is kept, since a list asks it of every
 * top-level page. */
static uint32_t root_page(struct entries_query *q, uint32_t collection, uint32_t site)
{
	if (q->root_of[0] == collection + 1 && q->root_of[1] == site)
		return q->root_of[2];
	struct snap_collection c = collection_numbered(q, collection);
	uint32_t root = SNAP_NONE;
	for (uint32_t i = c.first_entry; i < c.first_entry + c.nentries && root == SNAP_NONE; i++) {
		struct snap_entry e = snap_entry_at(q->snap, i);
		if (e.site == site && e.order == 1)
			root = i;
	}
	q->root_of[0] = collection + 1; /* 0: nothing kept yet */
	q->root_of[1] = site;
	q->root_of[2] = root;
	return root;
}

/* The page above e in its collection's tree (Statamic's $entry->parent()):
 * its parent, or the root page for a top-level page of a tree that
 * expects one; SNAP_NONE for the root, top-level pages of other trees and
 * entries of collections without a tree. */
static uint32_t parent_page(struct entries_query *q, const struct snap_entry *e)
{
	if (e->parent != SNAP_NONE || e->order < 1)
		return e->parent;
	struct snap_collection c = collection_of(q, e);
	if (!c.structured || !c.expects_root || e->order == 1)
		return SNAP_NONE;
	return root_page(q, e->collection, e->site);
}

static void url_value(const struct snapshot *s, const struct snap_entry *e, struct value_builder *b);
static void permalink_value(const struct snapshot *s, const struct snap_entry *e,
                            struct value_builder *b);

/* {id, title, url, permalink, api_url} of entry n: a page's short form. */
static void short_entry(const struct snapshot *s, uint32_t n, struct value_builder *b)
{
	struct snap_entry e = snap_entry_at(s, n);
	struct strbuf api = STRBUF_INIT;
	strbuf_addf(&api, "collections/%s/entries/%s", snap_collection_at(s, e.collection).handle,
	            e.id);
	vb_map_begin(b);
	vb_keyz(b, "id");
	vb_strz(b, e.id);
	vb_keyz(b, "title");
	if (value_is_missing(e.title))
		vb_null(b);
	else
		vb_value(b, e.title);
	vb_keyz(b, "url");
	url_value(s, &e, b);
	vb_keyz(b, "permalink");
	permalink_value(s, &e, b);
	vb_keyz(b, "api_url");
	vb_url(b, URL_API, api.ptr, api.len);
	vb_map_end(b);
	strbuf_release(&api);
}

/* The template e renders with (Entry::template()): its own (or its
 * origin's), else its collection's, else "default"; "@blueprint" is the
 * collection's handle and the blueprint's. */
static void template_value(struct entries_query *q, const struct snap_entry *e, value_t own,
                           struct value_builder *b)
{
	struct snap_collection c = collection_of(q, e);
	value_t v = own;
	if (value_is_null(v) || value_is_missing(v))
		v = value_map_getz(c.settings, "template");
	if (value_type(v) == VALUE_STRING && strcmp(value_str(v, NULL), "@blueprint") == 0) {
		struct strbuf t = STRBUF_INIT;
		strbuf_addf(&t, "%s.%s", c.handle, e->blueprint);
		vb_str(b, t.ptr, t.len);
		strbuf_release(&t);
	} else if (value_is_null(v) || value_is_missing(v)) {
		vb_strz(b, "default");
	} else {
		vb_value(b, v);
	}
}

/* The value of a data key of e: as stored, but for those Statamic
 * computes when the entry has them: `parent`, always the page above e
 * whatever the data says, and `template` when the data leaves it null. */
static void data_value(struct entries_query *q, const struct snap_entry *e, const char *key,
                       size_t len, value_t v, struct value_builder *b)
{
	if (len == 8 && memcmp(key, "template", 8) == 0) {
		template_value(q, e, v, b);
		return;
	}
	if (len != 6 || memcmp(key, "parent", 6) != 0) {
		vb_value(b, v);
		return;
	}
	uint32_t parent = parent_page(q, e);
	if (parent == SNAP_NONE)
		vb_null(b);
	else
		short_entry(q->snap, parent, b);
}

/* Whether the data key is one an item leaves out: excluded_keys, and
 * `parent` on tree pages. */
static bool key_left_out(const struct entries_query *q, const char *key, size_t len)
{
	return strlist_contains_counted(&q->cfg->excluded_keys, key, len) ||
	       (q->tree_page && len == 6 && memcmp(key, "parent", 6) == 0);
}

/* Entry::url(): where a redirect sends, else the site's url and the uri. */
static void url_value(const struct snapshot *s, const struct snap_entry *e, struct value_builder *b)
{
	if (e->redirect) {
		vb_strz(b, e->redirect);
	} else if (e->uri) {
		struct strbuf t = STRBUF_INIT;
		augment_url(snap_site_at(s, e->site).url, e->uri, &t);
		vb_str(b, t.ptr, t.len);
		strbuf_release(&t);
	} else {
		vb_null(b);
	}
}

static void permalink_value(const struct snapshot *s, const struct snap_entry *e,
                            struct value_builder *b)
{
	if (e->redirect)
		augment_redirect_permalink(snap_site_at(s, e->site).url, e->redirect, b);
	else if (e->uri)
		augment_permalink(snap_site_at(s, e->site).url, e->uri, b);
	else
		vb_null(b);
}

/* Appends the computed value of key for e to b. */
static void computed_value(const struct entries_query *q, const struct snap_entry *e,
                           const char *key, struct value_builder *b)
{
	const struct snapshot *s = q->snap;
	struct strbuf t = STRBUF_INIT;
	enum entry_status status = entries_status(q, e);
	struct snap_collection c = collection_of(q, e);
	value_t updated_at = value_map_getz(e->data, "updated_at");
	if (strcmp(key, "api_url") == 0) {
		strbuf_addf(&t, "collections/%s/entries/%s", c.handle, e->id);
		vb_url(b, URL_API, t.ptr, t.len);
	} else if (strcmp(key, "blueprint") == 0) {
		title_handle(b, e->blueprint_title, e->blueprint);
	} else if (strcmp(key, "collection") == 0) {
		title_handle(b, c.title, c.handle);
	} else if (strcmp(key, "date") == 0) {
		if (c.dated && e->has_date)
			augment_iso8601(e->date, b);
		else
			vb_value(b, value_map_getz(e->data, "date"));
	} else if (strcmp(key, "id") == 0) {
		vb_strz(b, e->id);
	} else if (strcmp(key, "is_entry") == 0) {
		vb_bool(b, true);
	} else if (strcmp(key, "last_modified") == 0 || strcmp(key, "updated_at") == 0) {
		augment_iso8601(value_type(updated_at) == VALUE_INT ? value_int(updated_at) : e->mtime, b);
	} else if (strcmp(key, "locale") == 0) {
		vb_strz(b, snap_site_at(s, e->site).handle);
	} else if (strcmp(key, "mount") == 0) {
		mounted_collection(s, e, b);
	} else if (strcmp(key, "order") == 0) {
		if (e->order > 0)
			vb_int(b, e->order);
		else
			vb_value(b, value_map_getz(e->data, "order"));
	} else if (strcmp(key, "origin_id") == 0) {
		if (e->origin != SNAP_NONE)
			vb_strz(b, snap_entry_at(s, e->origin).id);
		else
			vb_null(b);
	} else if (strcmp(key, "permalink") == 0) {
		permalink_value(s, e, b);
	} else if (strcmp(key, "url") == 0) {
		url_value(s, e, b);
	} else if (strcmp(key, "private") == 0) {
		vb_bool(b, status == ENTRY_SCHEDULED || status == ENTRY_EXPIRED);
	} else if (strcmp(key, "published") == 0) {
		vb_bool(b, e->published);
	} else if (strcmp(key, "slug") == 0) {
		if (e->slug)
			vb_strz(b, e->slug);
		else
			vb_null(b);
	} else if (strcmp(key, "status") == 0) {
		vb_strz(b, entry_status_name(status));
	} else if (strcmp(key, "title") == 0) {
		vb_value(b, e->title); /* the data's, found without a walk */
	} else if (strcmp(key, "updated_by") == 0) {
		/* The index made it a user reference (augment_user), or null. */
		vb_value(b, value_map_getz(e->data, "updated_by"));
	} else if (strcmp(key, "uri") == 0) {
		if (e->uri)
			vb_strz(b, e->uri);
		else
			vb_null(b);
	}
	strbuf_release(&t);
}

static struct value_builder *next_scratch(struct entries_query *q)
{
	struct value_builder *b = &q->scratch[q->next_scratch];
	q->next_scratch ^= 1;
	vb_reset(b);
	return b;
}

/* Where the value of key is read. */
static struct entry_field field_of(const char *key)
{
	/* title is the data's own, and the snapshot knows where it is. */
	if (strcmp(key, "title") == 0)
		return (struct entry_field){key, FIELD_TITLE};
	return (struct entry_field){key, is_computed(key, strlen(key)) ? FIELD_COMPUTED : FIELD_DATA};
}

/* The value of a field for e (computed or data) as a query sees it, valid
 * until the scratch builder it lives in is used twice more. */
static value_t field_value(struct entries_query *q, const struct snap_entry *e,
                           const struct entry_field *field)
{
	switch (field->source) {
	case FIELD_TITLE:
		return e->title;
	case FIELD_DATA:
		return value_map_getz(e->data, field->key);
	default:
		break;
	}
	struct value_builder *b = next_scratch(q);
	computed_value(q, e, field->key, b);
	value_t v = vb_result(b);
	return filter_absolute(q->env, v, next_scratch(q));
}

static value_t entry_value(struct entries_query *q, const struct snap_entry *e, const char *key)
{
	struct entry_field field = field_of(key);
	return field_value(q, e, &field);
}

value_t entries_value(struct entries_query *q, const struct snap_entry *e, const char *key)
{
	return entry_value(q, e, key);
}

/* --- items --- */

static bool excluded(const struct config *cfg, const char *key)
{
	return strlist_contains(&cfg->excluded_keys, key);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_name(char ***names, size_t *n, const char *name, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*names)[i]) == len && memcmp((*names)[i], name, len) == 0)
			return;
	*names = xrealloc(*names, (*n + 1) * sizeof **names);
	(*names)[(*n)++] = xstrndup(name, len);
}

/* strcmp's order for counted names. */
static int compare_counted(const char *a, size_t a_len, const char *b, size_t b_len)
{
	int c = memcmp(a, b, a_len < b_len ? a_len : b_len);
	if (c != 0)
		return c;
	return (a_len > b_len) - (a_len < b_len);
}

/*
 * The item of an entry without extras: the computed keys and the data's,
 * both already sorted, merged in one walk (a computed key replaces a data
 * key of its name). Returns false, having written nothing, when the data's
 * keys turn out not to be in order; the caller then takes the long way.
 */
static bool build_item_merged(struct entries_query *q, const struct snap_entry *e,
                              struct value_builder *out)
{
	const struct config *cfg = q->cfg;
	struct value_iter it;
	value_iter_init(&it, e->data);
	const char *prev = NULL;
	size_t prev_len = 0;
	while (value_iter_next(&it)) {
		if (prev && compare_counted(prev, prev_len, it.key, it.key_len) >= 0)
			return false;
		prev = it.key, prev_len = it.key_len;
	}
	size_t c = 0;
	value_iter_init(&it, e->data);
	bool more = value_iter_next(&it);
	vb_map_begin(out);
	while (c < NCOMPUTED || more) {
		int order = c == NCOMPUTED ? 1
		            : !more        ? -1
		                           : compare_counted(computed_keys[c], strlen(computed_keys[c]),
		                                             it.key, it.key_len);
		if (order <= 0) {
			if (!excluded(cfg, computed_keys[c])) {
				vb_keyz(out, computed_keys[c]);
				computed_value(q, e, computed_keys[c], out);
			}
			c++;
		} else if (!key_left_out(q, it.key, it.key_len)) {
			vb_key(out, it.key, it.key_len);
			data_value(q, e, it.key, it.key_len, it.value, out);
		}
		if (order >= 0)
			more = value_iter_next(&it);
	}
	vb_map_end(out);
	return true;
}

void entries_build_item(struct entries_query *q, const struct snap_entry *e, value_t extras,
                        struct value_builder *out)
{
	if (value_is_missing(extras) && build_item_merged(q, e, out))
		return;
	char **names = NULL;
	size_t n = 0;
	struct value_iter it;
	for (size_t i = 0; i < NCOMPUTED; i++)
		add_name(&names, &n, computed_keys[i], strlen(computed_keys[i]));
	value_iter_init(&it, e->data);
	while (value_iter_next(&it))
		add_name(&names, &n, it.key, it.key_len);
	value_iter_init(&it, extras);
	while (value_iter_next(&it))
		add_name(&names, &n, it.key, it.key_len);
	qsort(names, n, sizeof *names, compare_names);
	vb_map_begin(out);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		if (!key_left_out(q, names[i], len)) {
			value_t extra = value_map_getz(extras, names[i]);
			vb_keyz(out, names[i]);
			if (!value_is_missing(extra))
				vb_value(out, extra);
			else if (is_computed(names[i], len))
				computed_value(q, e, names[i], out);
			else
				data_value(q, e, names[i], len, value_map_getz(e->data, names[i]), out);
		}
		free(names[i]);
	}
	vb_map_end(out);
	free(names);
}

/* --- filters --- */

void entries_filters_init(struct entry_filters *f)
{
	memset(f, 0, sizeof *f);
	f->default_published = true;
}

void entries_free_filters(struct entry_filters *f)
{
	for (size_t i = 0; i < f->nany; i++)
		entries_free_filters(&f->any[i]);
	free(f->any);
	for (size_t i = 0; i < f->nfields; i++)
		filter_free(&f->fields[i]);
	free(f->fields);
	free(f->from);
	for (size_t i = 0; i < f->ntaxes; i++) {
		free(f->taxes[i].taxonomy);
		strlist_free(&f->taxes[i].slugs);
	}
	free(f->taxes);
	memset(f, 0, sizeof *f);
}

/* filter[taxonomy:<handle>[:<modifier>]]; returns 0, or 400 with its
 * message in e for a modifier there is not. */
static int add_tax_filter(struct entry_filters *f, const char *key, const char *value,
                          struct http_error *e)
{
	const char *handle = key + 9;
	size_t hn = strcspn(handle, ":");
	const char *mod = handle[hn] == ':' ? handle + hn + 1 : "in";
	enum tax_mode mode;
	if (strcmp(mod, "in") == 0 || strcmp(mod, "any") == 0)
		mode = TAX_ANY;
	else if (strcmp(mod, "not_in") == 0 || strcmp(mod, "not") == 0)
		mode = TAX_NONE;
	else if (strcmp(mod, "all") == 0)
		mode = TAX_ALL;
	else
		return http_error_set(e, 400,
		                      "Unknown taxonomy filter modifier [%.100s] in filter[%.150s]", mod,
		                      key);
	f->taxes = xrealloc(f->taxes, (f->ntaxes + 1) * sizeof *f->taxes);
	struct tax_filter *t = &f->taxes[f->ntaxes++];
	memset(t, 0, sizeof *t);
	t->taxonomy = xstrndup(handle, hn);
	t->mode = mode;
	strlist_split(&t->slugs, value);
	return 0;
}

int entries_add_filter(struct entries_query *q, struct entry_filters *f, const char *key,
                       const char *value, struct http_error *e)
{
	if (strncmp(key, "taxonomy:", 9) == 0)
		return add_tax_filter(f, key, value, e);
	struct filter one;
	char err[FILTER_ERR_LEN];
	if (filter_parse(key, value, q->now, q->budget, &one, err) != 0)
		return http_error_set(e, 400, "%s", err);
	if (strcmp(one.field, "status") == 0 && one.kind == FILTER_IS && strcmp(value, "any") == 0) {
		f->default_published = false; /* every status */
		filter_free(&one);
		return 0;
	}
	if (strcmp(one.field, "status") == 0 || strcmp(one.field, "published") == 0)
		f->default_published = false;
	f->fields = xrealloc(f->fields, (f->nfields + 1) * sizeof *f->fields);
	f->from = xrealloc(f->from, (f->nfields + 1) * sizeof *f->from);
	f->fields[f->nfields] = one;
	/* filter[site] is the entry's locale; dotted fields walk maps. */
	f->from[f->nfields] = field_of(strcmp(one.field, "site") == 0
	                               ? "locale" : f->fields[f->nfields].path[0]);
	f->nfields++;
	return 0;
}

int entries_add_params(struct entries_query *q, struct entry_filters *f,
                       const struct filter_params *p, struct http_error *e)
{
	if (p->ngroups > 0) {
		f->any = xcalloc(p->ngroups, sizeof *f->any);
		f->nany = p->ngroups;
		for (size_t g = 0; g < p->ngroups; g++)
			entries_filters_init(&f->any[g]);
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct filter_param *one = &p->items[i];
		struct entry_filters *to = one->group == FILTER_TOP ? f : &f->any[one->group];
		int status = entries_add_filter(q, to, one->key, one->value, e);
		if (status != 0)
			return status;
		if (!to->default_published)
			f->default_published = false;
	}
	return 0;
}

/* Whether the entry names the term in the field called like the
 * taxonomy: the slugs it stores ("taxonomy::slug" when the field targets
 * several taxonomies), whether the field keeps them beside its term
 * references (value.h REF_FIELD) or holds them plainly. */
static bool entry_has_term(const struct snap_entry *e, const char *taxonomy, const char *slug)
{
	value_t v = value_raw(value_map_getz(e->data, taxonomy));
	struct value_iter it;
	value_iter_init(&it, v);
	bool list = value_type(v) == VALUE_ARRAY;
	size_t tlen = strlen(taxonomy);
	struct strbuf text = STRBUF_INIT;
	bool found = false;
	while (!found && (list ? value_iter_next(&it) : !value_is_missing(v))) {
		strbuf_reset(&text);
		php_string(list ? it.value : v, &text); /* a slug may be a number */
		const char *named = strbuf_str(&text);
		if (strncmp(named, taxonomy, tlen) == 0 && strncmp(named + tlen, "::", 2) == 0)
			named += tlen + 2;
		found = strcmp(named, slug) == 0;
		if (!list)
			break;
	}
	strbuf_release(&text);
	return found;
}

static bool tax_matches(const struct tax_filter *t, const struct snap_entry *e)
{
	size_t hits = 0;
	for (size_t i = 0; i < t->slugs.len; i++)
		hits += entry_has_term(e, t->taxonomy, t->slugs.items[i]);
	switch (t->mode) {
	case TAX_ANY: return hits > 0;
	case TAX_NONE: return hits == 0;
	default: return hits == t->slugs.len;
	}
}

/* Whether e passes the field and taxonomy filters of f itself, not
 * those of its groups. */
static bool own_pass(struct entries_query *q, const struct entry_filters *f,
                     const struct snap_entry *e)
{
	for (size_t i = 0; i < f->nfields; i++) {
		const struct filter *one = &f->fields[i];
		if (!filter_match_path(one, field_value(q, e, &f->from[i]), 1, q->related))
			return false;
	}
	/* in/any/all filters must all hold; the not filters exclude only an
	 * entry that every one of them would exclude, as Statamic
	 * intersects their excluded sets. */
	size_t nots = 0, excluded_by = 0;
	for (size_t i = 0; i < f->ntaxes; i++) {
		bool ok = tax_matches(&f->taxes[i], e);
		if (f->taxes[i].mode == TAX_NONE) {
			nots++;
			excluded_by += !ok;
		} else if (!ok) {
			return false;
		}
	}
	return nots == 0 || excluded_by < nots;
}

/* Whether e passes the field and taxonomy filters of f, and of one of its
 * groups when it has any. */
static bool fields_pass(struct entries_query *q, const struct entry_filters *f,
                        const struct snap_entry *e)
{
	if (!own_pass(q, f, e))
		return false;
	for (size_t g = 0; g < f->nany; g++)
		if (own_pass(q, &f->any[g], e))
			return true;
	return f->nany == 0;
}

bool entries_pass_status(struct entries_query *q, const struct entry_filters *f,
                         const struct snap_entry *e)
{
	return !f->default_published || entries_status(q, e) == ENTRY_PUBLISHED;
}

bool entries_pass_filters(struct entries_query *q, const struct entry_filters *f,
                          const struct snap_entry *e)
{
	return fields_pass(q, f, e);
}

bool entries_pass(struct entries_query *q, const struct entry_filters *f,
                  const struct snap_entry *e)
{
	return entries_pass_status(q, f, e) && fields_pass(q, f, e);
}

/* Whether filters on the title alone are all f has besides the status. */
static bool title_filters_only(const struct entry_filters *f)
{
	for (size_t i = 0; i < f->nfields; i++)
		if (f->from[i].source != FIELD_TITLE || f->fields[i].npath != 1)
			return false;
	return f->ntaxes == 0 && f->nany == 0;
}

/* Entry n's status at the request's moment, from its brief. */
static enum entry_status numbered_status(const struct entries_query *q, uint32_t n)
{
	struct snap_entry_brief b = snap_entry_brief_at(q->snap, n);
	struct snap_collection other;
	const struct snap_collection *c = &q->collection;
	if (b.collection != q->collection_number) {
		other = snap_collection_at(q->snap, b.collection);
		c = &other;
	}
	struct status_facts facts = {b.published, c->dated && b.has_date, b.date,
	                             c->future_private, c->past_private};
	return entry_status_at(&facts, q->now);
}

/* entries_pass for entry n, reading no more of it than f needs: a list
 * asks it of every candidate. titles_only: title_filters_only(f). */
static bool numbered_pass(struct entries_query *q, const struct entry_filters *f, uint32_t n,
                          bool titles_only)
{
	if (f->default_published && numbered_status(q, n) != ENTRY_PUBLISHED)
		return false;
	if (f->nfields == 0 && f->ntaxes == 0 && f->nany == 0)
		return true;
	if (titles_only) {
		value_t title = snap_entry_title(q->snap, n);
		for (size_t i = 0; i < f->nfields; i++)
			if (!filter_match(&f->fields[i], title))
				return false;
		return true;
	}
	struct snap_entry e = snap_entry_at(q->snap, n);
	return fields_pass(q, f, &e);
}

/* --- sorting --- */

static bool is_date_key(const struct sort_key *key)
{
	return key->npath == 1 && strcmp(key->path[0], "date") == 0;
}

static value_t entry_sort_value(void *ctx, uint32_t item, const struct sort_key *key)
{
	struct entries_query *q = ctx;
	/* An entry's date sorts as its timestamp: the same order as its ISO
	 * text, without formatting it. */
	long long date;
	uint32_t collection;
	if (is_date_key(key) && snap_entry_date(q->snap, item, &date, &collection) &&
	    collection_numbered(q, collection).dated) {
		struct value_builder *b = &q->scratch[q->next_scratch];
		q->next_scratch ^= 1;
		vb_reset(b);
		vb_int(b, date);
		return vb_result(b);
	}
	struct snap_entry e = snap_entry_at(q->snap, item);
	value_t v = entry_value(q, &e, key->path[0]);
	for (size_t p = 1; p < key->npath; p++)
		v = value_map_getz(v, key->path[p]);
	return v;
}

/* Whether items (n of them) are dated entries of q's collection, in the
 * collection's order; marks them in `in` (indexed from its first entry). */
static bool own_dated_entries(struct entries_query *q, const uint32_t *items, size_t n, char *in)
{
	uint32_t base = q->collection.first_entry, count = q->collection.nentries;
	for (size_t i = 0; i < n; i++) {
		long long date;
		uint32_t collection;
		if (items[i] < base || items[i] - base >= count || (i > 0 && items[i] <= items[i - 1]) ||
		    !snap_entry_date(q->snap, items[i], &date, &collection))
			return false;
		in[items[i] - base] = 1;
	}
	return true;
}

static long long date_of(const struct entries_query *q, uint32_t entry)
{
	long long date;
	uint32_t collection;
	snap_entry_date(q->snap, entry, &date, &collection);
	return date;
}

/*
 * sort=date or sort=-date over a dated collection's own entries needs no
 * sorting: the snapshot keeps them in date order (ties by entry number,
 * the order a stable sort keeps). Puts the first `first` items in that
 * order and returns true; false when it does not apply (other keys, an
 * entry without a date, entries from elsewhere).
 */
static bool take_in_date_order(struct entries_query *q, uint32_t *items, size_t n, size_t first,
                               const struct sort_spec *spec)
{
	const uint32_t *order = q->collection.by_date;
	if (spec->n != 1 || !is_date_key(&spec->keys[0]) || !order || n < 2)
		return false;
	uint32_t base = q->collection.first_entry, count = q->collection.nentries;
	char *in = xcalloc(count, 1);
	if (!own_dated_entries(q, items, n, in)) {
		free(in);
		return false;
	}
	size_t taken = 0;
	if (!spec->keys[0].descending) {
		for (size_t j = 0; j < count && taken < first; j++)
			if (in[order[j] - base])
				items[taken++] = order[j];
	} else {
		/* Latest first, but equal dates keep their ascending order. */
		for (size_t end = count; end > 0 && taken < first;) {
			size_t start = end - 1;
			long long date = date_of(q, order[start]);
			while (start > 0 && date_of(q, order[start - 1]) == date)
				start--;
			for (size_t j = start; j < end && taken < first; j++)
				if (in[order[j] - base])
					items[taken++] = order[j];
			end = start;
		}
	}
	free(in);
	return true;
}

/* --- dated collections' published entries, in date order --- */

/* The first of order[lo..hi) (in date order) dated after `date` (after),
 * or at `date` or after it. */
static size_t first_dated(const struct entries_query *q, const uint32_t *order, size_t lo,
                          size_t hi, long long date, bool after)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		long long d = date_of(q, order[mid]);
		if (after ? d <= date : d < date)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Whether a list of the whole collection can be taken from its published
 * entries in date order (snap_collection.published): the default status
 * filter, filters on the title alone that run no regex (so that the
 * regex budget does not depend on the order entries are tried in), one
 * sort key, the date, and a dated collection whose published entries all
 * have a date.
 */
static bool published_order_applies(const struct entries_query *q, const struct entry_filters *f,
                                    const struct sort_spec *sort)
{
	const struct snap_collection *c = &q->collection;
	if (!c->published || c->published_undated > 0 || !f->default_published ||
	    !title_filters_only(f) || sort->n != 1 || !is_date_key(&sort->keys[0]))
		return false;
	for (size_t i = 0; i < f->nfields; i++)
		if (filter_uses_regex(&f->fields[i]))
			return false;
	return true;
}

/*
 * Which of published[lo..hi) pass f's title filters (published_order_
 * applies): pass[j - lo]. A filter of plain text runs over the
 * collection's lowered titles at once; any other is asked of each title.
 */
static void titles_pass(const struct entries_query *q, const struct entry_filters *f, size_t lo,
                        size_t hi, unsigned char *pass)
{
	const struct snap_collection *c = &q->collection;
	unsigned char *one = f->nfields > 1 ? xmalloc(hi - lo + 1) : NULL;
	memset(pass, 1, hi - lo);
	for (size_t i = 0; i < f->nfields; i++) {
		const struct filter *filter = &f->fields[i];
		/* The first filter's answers go straight into pass. */
		unsigned char *into = i == 0 ? pass : one;
		if (!filter_match_lowered(filter, c->titles, c->title_ends, lo, hi, into))
			for (size_t j = lo; j < hi; j++)
				into[j - lo] = filter_match(filter, snap_entry_title(q->snap, c->published[j]));
		if (into != pass)
			for (size_t j = 0; j < hi - lo; j++)
				pass[j] &= one[j];
	}
	free(one);
}

/*
 * The page of a list published_order_applies to. The entries published
 * at the request's moment are one run of the collection's published ones
 * (the scheduled come after it, the expired before), already in date
 * order: without a title filter that run is the list, and with one only
 * its titles are tried. The same page as filtering every entry and then
 * take_in_date_order, reading no more entries than the page shows.
 */
static void published_page(struct entries_query *q, const struct entry_filters *f,
                           bool descending, long limit, long page, struct entries_page *out)
{
	const struct snap_collection *c = &q->collection;
	size_t lo = 0, hi = c->npublished;
	if (c->future_private)
		hi = first_dated(q, c->published, lo, hi, q->now, true);
	if (c->past_private)
		lo = first_dated(q, c->published, lo, hi, q->now, false);
	unsigned char *pass = NULL; /* NULL: every one passes */
	size_t kept = hi - lo;
	if (f->nfields > 0) {
		pass = xmalloc(hi - lo + 1);
		titles_pass(q, f, lo, hi, pass);
		kept = 0;
		for (size_t j = 0; j < hi - lo; j++)
			kept += pass[j];
	}
	/* Only the entries up to the page's end are needed, in order. */
	size_t want = (size_t)page * (size_t)limit;
	want = want < kept ? want : kept;
	uint32_t *items = xmalloc((want + 1) * sizeof *items);
	size_t taken = 0;
	if (!descending) {
		for (size_t j = lo; j < hi && taken < want; j++)
			if (!pass || pass[j - lo])
				items[taken++] = c->published[j];
	} else {
		/* Latest first, but equal dates keep their ascending order. */
		for (size_t end = hi; end > lo && taken < want;) {
			size_t start = end - 1;
			long long date = date_of(q, c->published[start]);
			while (start > lo && date_of(q, c->published[start - 1]) == date)
				start--;
			for (size_t j = start; j < end && taken < want; j++)
				if (!pass || pass[j - lo])
					items[taken++] = c->published[j];
			end = start;
		}
	}
	/* The page reads no item past its end: `taken`. */
	out->items = out->own = items;
	out->n = kept;
	free(pass);
}

/* --- the query --- */

void entries_query_init(struct entries_query *q, const struct snapshot *snap, uint32_t collection,
                        long long now, const struct config *cfg, struct regex_budget *budget,
                        const struct jsonw_env *env)
{
	memset(q, 0, sizeof *q);
	q->snap = snap;
	q->cfg = cfg;
	q->now = now;
	q->budget = budget;
	q->env = env;
	q->scratch[0] = (struct value_builder)VALUE_BUILDER_INIT;
	q->scratch[1] = (struct value_builder)VALUE_BUILDER_INIT;
	q->collection_number = collection;
	q->collection = snap_collection_at(snap, collection);
}

void entries_query_free(struct entries_query *q)
{
	vb_release(&q->scratch[0]);
	vb_release(&q->scratch[1]);
}

/* entries_query_page with sort's keys the entries serve (sort_view_served). */
static void query_page(struct entries_query *q, const struct entry_filters *f,
                       const struct sort_spec *sort, uint32_t *items, size_t n, long limit,
                       long page, struct entries_page *out)
{
	if (!items && published_order_applies(q, f, sort)) {
		published_page(q, f, sort->keys[0].descending, limit, page, out);
		return;
	}
	if (!items) {
		items = out->own = xmalloc((q->collection.nentries + 1) * sizeof *items);
		for (n = 0; n < q->collection.nentries; n++)
			items[n] = q->collection.first_entry + (uint32_t)n;
	}
	size_t kept = 0;
	bool titles_only = title_filters_only(f);
	for (size_t i = 0; i < n && !q->budget->spent; i++)
		if (numbered_pass(q, f, items[i], titles_only))
			items[kept++] = items[i];
	out->items = items;
	out->n = kept;
	if (q->budget->spent)
		return; /* the list is not whole: the caller refuses the request */
	/* Only the entries up to the page's end need their order; a page past
	 * the last shows none. */
	size_t page_end = (size_t)page <= kept / (size_t)limit ? (size_t)page * (size_t)limit : kept;
	if (!take_in_date_order(q, items, kept, page_end, sort))
		sort_items_first_cached(items, kept, page_end, sort, entry_sort_value, q);
}

void entries_query_page(struct entries_query *q, const struct entry_filters *f,
                        const struct sort_spec *sort, uint32_t *items, size_t n, long limit,
                        long page, struct entries_page *out)
{
	memset(out, 0, sizeof *out);
	struct sort_spec served;
	sort_view_served(sort, &q->cfg->excluded_keys, &served);
	query_page(q, f, &served, items, n, limit, page, out);
	sort_view_free(&served);
}

void entries_page_free(struct entries_page *p)
{
	free(p->own);
	memset(p, 0, sizeof *p);
}
