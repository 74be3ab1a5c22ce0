/*
 * trees: collection trees and entry URIs (content-format.md §4, §5.6, §6).
 *
 * A structured collection has one tree per site. Statamic validates a tree
 * as it reads it: ids of other collections or sites and repeated ids are
 * dropped, and entries the tree does not list are appended at the top
 * level. From the tree come each entry's order, depth and parent, and
 * from those and the collection's route its URI.
 */
#include "autoconfig.h"

#include "site/trees.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/strbuf.h"
#include "site/entries.h"
#include "site/files.h"

struct tree_walk {
	struct site_index *idx;
	size_t collection, site;
	const char *rel;       /* the tree file, for messages */
	bool *placed;          /* per index entry: already in this tree */
	long order;            /* last order given */
};

static size_t entry_number(const struct site_index *idx, const struct entry *e)
{
	return (size_t)(e - idx->entries);
}

static void place(struct tree_walk *w, struct entry *e, const struct entry *parent, int depth)
{
	w->placed[entry_number(w->idx, e)] = true;
	e->order = ++w->order;
	e->depth = depth;
	e->parent = parent;
}

/* Places the tree's items (a list, or a map with integer keys read as one)
 * and their children. */
static void place_items(struct tree_walk *w, value_t items, const struct entry *parent, int depth)
{
	struct value_iter it;
	value_iter_init(&it, items);
	while (value_iter_next(&it)) {
		value_t id = value_map_getz(it.value, "entry");
		const struct entry *found = NULL;
		if (value_type(id) == VALUE_STRING)
			found = site_index_entry(w->idx, value_str(id, NULL));
		else if (value_type(id) == VALUE_INT) {
			char buf[32];
			snprintf(buf, sizeof buf, "%lld", (long long)value_int(id));
			found = site_index_entry(w->idx, buf);
		}
		struct entry *e = (struct entry *)found;
		if (!e || e->collection != w->collection || e->site != w->site ||
		    w->placed[entry_number(w->idx, e)])
			continue; /* foreign, missing or repeated: Statamic drops it */
		place(w, e, parent, depth);
		place_items(w, value_map_getz(it.value, "children"), e, depth + 1);
	}
}

/* The tree of collection c for site s: its own file, the site-less file
 * for the default site, or the v3.0 tree inside the collection file. */
static int read_tree(struct site_index *idx, const struct collection_info *c, size_t site,
                     struct value_builder *out, char **rel_out)
{
	const char *handle = idx->sites[site].handle;
	struct strbuf rel = STRBUF_INIT;
	strbuf_addf(&rel, "content/trees/collections/%s/%s.yaml", handle, c->handle);
	for (int attempt = 0; attempt < 2; attempt++) {
		char *abs = files_join(idx->files.root, rel.ptr);
		FILE *f = fopen(abs, "r");
		free(abs);
		if (f) {
			fclose(f);
			*rel_out = strbuf_detach(&rel, NULL);
			return files_read(&idx->files, *rel_out, out) == 0 ? 0 : -1;
		}
		if (site != 0)
			break;
		strbuf_reset(&rel);
		strbuf_addf(&rel, "content/trees/collections/%s.yaml", c->handle);
	}
	strbuf_release(&rel);
	value_t legacy = value_map_getz(value_map_getz(vb_result(&c->settings), "structure"), "tree");
	if (value_type(legacy) == VALUE_MAP && !idx->multisite)
		legacy = VALUE_MISSING;
	if (value_type(legacy) == VALUE_MAP)
		legacy = value_map_getz(legacy, handle);
	if (value_is_missing(legacy))
		return -1;
	vb_map_begin(out);
	vb_keyz(out, "tree");
	vb_value(out, legacy);
	vb_map_end(out);
	*rel_out = NULL;
	return 0;
}

static void build_tree(struct site_index *idx, size_t ci, size_t site, bool *placed)
{
	struct collection_info *c = &idx->collections[ci];
	struct tree_walk w = {idx, ci, site, NULL, placed, 0};
	struct value_builder tree = VALUE_BUILDER_INIT;
	char *rel = NULL;
	memset(placed, 0, idx->nentries * sizeof *placed);
	if (read_tree(idx, c, site, &tree, &rel) == 0) {
		w.rel = rel;
		place_items(&w, value_map_getz(vb_result(&tree), "tree"), NULL, 1);
	}
	/* Entries the tree leaves out go at the end of the top level. */
	for (size_t i = 0; i < c->nentries; i++) {
		struct entry *e = c->entries[i];
		if (e->site == site && !placed[entry_number(idx, e)])
			place(&w, e, NULL, 1);
	}
	vb_release(&tree);
	free(rel);
}

/* --- URIs --- */

struct uri_state {
	struct site_index *idx;
	unsigned char *state; /* per entry: 0 to do, 1 in progress, 2 done */
	bool *warned;         /* per collection: its route was reported */
};

static bool is_root_page(const struct site_index *idx, const struct entry *e)
{
	const struct collection_info *c = &idx->collections[e->collection];
	return c->structured && c->expects_root && e->order == 1;
}

static void compute_uri(struct uri_state *st, struct entry *e);

/* The mounted entry of e's collection, in e's site when it has one. */
static struct entry *mount_of(struct uri_state *st, const struct entry *e)
{
	const char *mount = st->idx->collections[e->collection].mount;
	if (!mount)
		return NULL;
	struct entry *m = (struct entry *)site_index_entry(st->idx, mount);
	for (size_t i = 0; m && i < st->idx->nentries; i++) {
		struct entry *x = &st->idx->entries[i];
		if (x->site == e->site && x->origin == m)
			return x;
	}
	return m;
}

static void append_scalar(struct strbuf *out, value_t v)
{
	switch (value_type(v)) {
	case VALUE_STRING:
		strbuf_addstr(out, value_str(v, NULL));
		break;
	case VALUE_INT:
		strbuf_addf(out, "%lld", (long long)value_int(v));
		break;
	case VALUE_TRUE:
		strbuf_addch(out, '1');
		break;
	default:
		break;
	}
}

enum date_part { YEAR, MONTH, DAY, FULL_DATE };

static void append_date_part(struct strbuf *out, const struct entry *e, enum date_part part)
{
	if (!e->has_date)
		return;
	time_t t = (time_t)e->date;
	struct tm tm;
	gmtime_r(&t, &tm);
	int year = tm.tm_year + 1900, month = tm.tm_mon + 1;
	switch (part) {
	case YEAR: strbuf_addf(out, "%04d", year); break;
	case MONTH: strbuf_addf(out, "%02d", month); break;
	case DAY: strbuf_addf(out, "%02d", tm.tm_mday); break;
	case FULL_DATE: strbuf_addf(out, "%04d-%02d-%02d", year, month, tm.tm_mday); break;
	}
}

/* The value of one route variable for entry e. */
static void append_variable(struct uri_state *st, struct entry *e, const char *name,
                            struct strbuf *out)
{
	struct site_index *idx = st->idx;
	if (strcmp(name, "slug") == 0) {
		if (!is_root_page(idx, e) && e->slug)
			strbuf_addstr(out, e->slug);
	} else if (strcmp(name, "parent_uri") == 0) {
		const struct entry *p = e->parent;
		if (p && !is_root_page(idx, p)) {
			compute_uri(st, (struct entry *)p);
			if (p->uri) {
				size_t n = strlen(p->uri);
				if (n > 5 && strcmp(p->uri + n - 5, ".html") == 0)
					n -= 5;
				else if (n > 4 && strcmp(p->uri + n - 4, ".htm") == 0)
					n -= 4;
				strbuf_add(out, p->uri, n);
			}
		}
	} else if (strcmp(name, "mount") == 0) {
		struct entry *m = mount_of(st, e);
		if (m) {
			compute_uri(st, m);
			if (m->uri)
				strbuf_addstr(out, m->uri);
		}
	} else if (strcmp(name, "id") == 0) {
		strbuf_addstr(out, e->id);
	} else if (strcmp(name, "year") == 0) {
		append_date_part(out, e, YEAR);
	} else if (strcmp(name, "month") == 0) {
		append_date_part(out, e, MONTH);
	} else if (strcmp(name, "day") == 0) {
		append_date_part(out, e, DAY);
	} else if (strcmp(name, "date") == 0) {
		append_date_part(out, e, FULL_DATE);
	} else if (strcmp(name, "depth") == 0) {
		strbuf_addf(out, "%d", e->depth);
	} else if (strcmp(name, "is_root") == 0) {
		if (is_root_page(idx, e))
			strbuf_addch(out, '1');
	} else {
		append_scalar(out, entry_field(idx, e, name));
	}
}

static bool is_variable_name(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* Renders {var} and {{ var }} in route; returns false when the route
 * holds an Antlers expression cms-api cannot evaluate. */
static bool render_route(struct uri_state *st, struct entry *e, const char *route,
                         struct strbuf *out)
{
	const char *p = route;
	while (*p) {
		if (*p != '{') {
			strbuf_addch(out, *p++);
			continue;
		}
		bool doubled = p[1] == '{';
		const char *start = p + (doubled ? 2 : 1);
		const char *end = strstr(start, doubled ? "}}" : "}");
		if (!end)
			return false;
		const char *a = start, *b = end;
		while (a < b && isspace((unsigned char)*a))
			a++;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		if (!is_variable_name(a, (size_t)(b - a)))
			return false;
		char *name = xstrndup(a, (size_t)(b - a));
		append_variable(st, e, name, out);
		free(name);
		p = end + (doubled ? 2 : 1);
	}
	return true;
}

/* Collapses "//", drops a trailing '/', and makes sure of a leading '/'. */
static char *tidy_uri(const char *s)
{
	struct strbuf out = STRBUF_INIT;
	strbuf_addch(&out, '/');
	for (; *s; s++)
		if (*s != '/' || out.ptr[out.len - 1] != '/')
			strbuf_addch(&out, *s);
	if (out.len > 1 && out.ptr[out.len - 1] == '/')
		strbuf_truncate(&out, out.len - 1);
	return strbuf_detach(&out, NULL);
}

static const char *route_for(const struct site_index *idx, const struct entry *e)
{
	value_t route = value_map_getz(vb_result(&idx->collections[e->collection].settings), "route");
	if (value_type(route) == VALUE_MAP)
		route = value_map_getz(route, idx->sites[e->site].handle);
	return value_type(route) == VALUE_STRING ? value_str(route, NULL) : NULL;
}

static void compute_uri(struct uri_state *st, struct entry *e)
{
	size_t n = entry_number(st->idx, e);
	if (st->state[n] != 0)
		return; /* done, or a mount/parent loop: leave it as it is */
	st->state[n] = 1;
	const char *route = route_for(st->idx, e);
	if (route) {
		struct strbuf raw = STRBUF_INIT;
		if (render_route(st, e, route, &raw))
			e->uri = tidy_uri(raw.ptr ? raw.ptr : "");
		else if (!st->warned[e->collection]) {
			st->warned[e->collection] = true;
			files_problem(&st->idx->files, true, e->path, 0,
			              "route '%s' needs Antlers; entries of this collection have no URI",
			              route);
		}
		strbuf_release(&raw);
	}
	st->state[n] = 2;
}

void trees_load(struct site_index *idx)
{
	bool *placed = xcalloc(idx->nentries ? idx->nentries : 1, sizeof *placed);
	for (size_t ci = 0; ci < idx->ncollections; ci++) {
		if (!idx->collections[ci].structured)
			continue;
		for (size_t s = 0; s < idx->nsites; s++)
			build_tree(idx, ci, s, placed);
	}
	free(placed);
	struct uri_state st = {idx, xcalloc(idx->nentries ? idx->nentries : 1, 1),
	                       xcalloc(idx->ncollections ? idx->ncollections : 1, sizeof(bool))};
	for (size_t i = 0; i < idx->nentries; i++)
		compute_uri(&st, &idx->entries[i]);
	free(st.state);
	free(st.warned);
}
