/*
 * index: reads a Statamic site folder into a site_index; see index.h.
 * The layout rules are those of content-format.md: sites from
 * resources/sites.yaml, else the INI's [sites.*], else
 * config/statamic/sites.php, else Statamic's fallback single site;
 * collections from the YAML files in content/collections.
 */
#include "autoconfig.h"

#include "site/index.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/hash.h"
#include "lib/strbuf.h"
#include "site/assets.h"
#include "site/blueprints.h"
#include "site/dates.h"
#include "site/entries.h"
#include "site/files.h"
#include "site/globals.h"
#include "site/navs.h"
#include "site/phparray.h"
#include "site/redirects.h"
#include "site/people.h"
#include "site/taxonomies.h"
#include "site/trees.h"

/* --- sites --- */

static char *copy_string_value(value_t map, const char *key)
{
	value_t v = value_map_getz(map, key);
	if (value_type(v) == VALUE_STRING)
		return xstrdup(value_str(v, NULL));
	if (value_type(v) == VALUE_INT) {
		struct strbuf s = STRBUF_INIT;
		strbuf_addf(&s, "%lld", (long long)value_int(v));
		return strbuf_detach(&s, NULL);
	}
	return NULL;
}

/* Replaces the Antlers tags a site config may hold ({{ config:app:name }})
 * with what cms-api's own config says, since it cannot run Antlers. */
static char *expand_config_tags(const char *s, const struct config *cfg)
{
	static const struct {
		const char *key;
		int which;
	} tags[] = {{"config:app:name", 0}, {"config:app:locale", 1}, {"config:app:url", 2}};
	struct strbuf out = STRBUF_INIT;
	const char *p = s;
	while (*p) {
		const char *open = strstr(p, "{{");
		const char *close = open ? strstr(open, "}}") : NULL;
		if (!close) {
			strbuf_addstr(&out, p);
			break;
		}
		strbuf_add(&out, p, (size_t)(open - p));
		const char *k = open + 2;
		while (k < close && isspace((unsigned char)*k))
			k++;
		const char *kend = close;
		while (kend > k && isspace((unsigned char)kend[-1]))
			kend--;
		const char *replacement = NULL;
		for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
			if ((size_t)(kend - k) == strlen(tags[i].key) &&
			    memcmp(k, tags[i].key, (size_t)(kend - k)) == 0)
				replacement = tags[i].which == 0   ? cfg->app_name
				              : tags[i].which == 1 ? "en"
				                                   : cfg->base_url;
		}
		if (replacement)
			strbuf_addstr(&out, replacement);
		else
			strbuf_add(&out, open, (size_t)(close + 2 - open));
		p = close + 2;
	}
	return strbuf_detach(&out, NULL);
}

static char *short_locale_of(const char *locale)
{
	size_t n = strcspn(locale, "-_");
	return xstrndup(locale, n);
}

static char *tidy_site_url(const char *url)
{
	size_t n = strlen(url);
	while (n > 1 && url[n - 1] == '/')
		n--;
	return n ? xstrndup(url, n) : xstrdup("/");
}

static void add_site(struct site_index *idx, const struct config *cfg, const char *handle,
                     const char *name, const char *locale, const char *url, const char *lang)
{
	idx->sites = xrealloc(idx->sites, (idx->nsites + 1) * sizeof *idx->sites);
	struct site_info *s = &idx->sites[idx->nsites++];
	s->handle = xstrdup(handle);
	s->name = expand_config_tags(name ? name : handle, cfg);
	char *expanded_locale = expand_config_tags(locale ? locale : "en_US", cfg);
	s->locale = expanded_locale;
	s->short_locale = short_locale_of(s->locale);
	s->lang = lang ? xstrdup(lang) : xstrdup(s->short_locale);
	char *expanded_url = expand_config_tags(url ? url : "/", cfg);
	s->url = tidy_site_url(expanded_url);
	free(expanded_url);
}

/* Each key of map is a site: {name, locale, url, lang}. */
static void add_sites_from(struct site_index *idx, const struct config *cfg, value_t map)
{
	struct value_iter it;
	value_iter_init(&it, map);
	while (value_iter_next(&it)) {
		char *handle = xstrndup(it.key, it.key_len);
		char *name = copy_string_value(it.value, "name");
		char *locale = copy_string_value(it.value, "locale");
		char *url = copy_string_value(it.value, "url");
		char *lang = copy_string_value(it.value, "lang");
		add_site(idx, cfg, handle, name, locale, url, lang);
		free(handle);
		free(name);
		free(locale);
		free(url);
		free(lang);
	}
}

static void load_sites_yaml(struct site_index *idx, const struct config *cfg)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	if (files_read(&idx->files, "resources/sites.yaml", &b) == 0)
		add_sites_from(idx, cfg, vb_result(&b));
	vb_release(&b);
}

#define SITES_PHP "config/statamic/sites.php"
#define MAX_PHP_CONFIG (1 << 20)

/* The text of a PHP config file (at most MAX_PHP_CONFIG bytes), or -1. */
static int read_php_config(const struct site_index *idx, const char *rel, struct strbuf *out)
{
	char *path = files_join(idx->files.root, rel);
	FILE *f = fopen(path, "r");
	free(path);
	if (!f)
		return -1;
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0 && out->len <= MAX_PHP_CONFIG)
		strbuf_add(out, buf, n);
	int rc = ferror(f) || out->len > MAX_PHP_CONFIG ? -1 : 0;
	fclose(f);
	return rc;
}

/* Statamic 3 and 4 name their sites in config/statamic/sites.php: its
 * literal `'sites' => [...]` is read (env() defaults taken, config('app.
 * name') and config('app.url') as cms-api's own); a form phparray cannot
 * read is an error, and the site then has Statamic's fallback site. */
static void load_sites_php(struct site_index *idx, const struct config *cfg)
{
	struct strbuf text = STRBUF_INIT;
	struct value_builder b = VALUE_BUILDER_INIT;
	const char *const known[] = {"app.name", cfg->app_name, "app.url",
	                             cfg->base_url ? cfg->base_url : "/", "app.locale", "en", NULL};
	const struct phparray_config config = {known};
	char err[PHPARRAY_ERR_LEN];
	int line = 0;
	if (read_php_config(idx, SITES_PHP, &text) != 0)
		files_problem(&idx->files, false, SITES_PHP, 0, "cannot be read");
	else if (phparray_parse(strbuf_str(&text), text.len, &config, &b, &line, err) != 0)
		files_problem(&idx->files, false, SITES_PHP, line,
		              "%s; name the sites in the INI's [sites.*] sections instead", err);
	else if (value_count(value_map_getz(vb_result(&b), "sites")) == 0 ||
	         value_type(value_map_getz(vb_result(&b), "sites")) != VALUE_MAP)
		files_problem(&idx->files, false, SITES_PHP, 0,
		              "names no sites ('sites' => ['handle' => [...]] expected)");
	else
		add_sites_from(idx, cfg, value_map_getz(vb_result(&b), "sites"));
	vb_release(&b);
	strbuf_release(&text);
}

/* Statamic v5+ switches the site-folder layout on in system.php; before
 * that (system.php without the key, or no system.php), more than one
 * site did. */
static bool multisite_layout(const struct site_index *idx)
{
	char *path = files_join(idx->files.root, "config/statamic/system.php");
	FILE *f = fopen(path, "r");
	free(path);
	if (!f)
		return idx->nsites > 1;
	char line[512];
	bool on = false, named = false;
	while (fgets(line, sizeof line, f)) {
		char *key = strstr(line, "'multisite'");
		if (key && strstr(key, "=>")) {
			named = true;
			on = on || strstr(key, "true");
		}
	}
	fclose(f);
	return named ? on : idx->nsites > 1;
}

/* Sites from resources/sites.yaml (v5+), else the INI's [sites.*], else
 * config/statamic/sites.php (v3, v4), else Statamic's fallback. */
static void load_sites(struct site_index *idx, const struct config *cfg)
{
	if (files_exists(&idx->files, "resources/sites.yaml"))
		load_sites_yaml(idx, cfg);
	if (idx->nsites == 0) {
		for (size_t i = 0; i < cfg->nsites; i++) {
			const struct site_def *d = &cfg->sites[i];
			add_site(idx, cfg, d->handle, d->name, d->locale, d->url, d->lang);
		}
	}
	if (idx->nsites == 0 && files_exists(&idx->files, SITES_PHP))
		load_sites_php(idx, cfg);
	/* Statamic's own fallback when nothing names a site. */
	if (idx->nsites == 0)
		add_site(idx, cfg, "default", cfg->app_name, "en_US", "/", NULL);
	idx->multisite = multisite_layout(idx);
}

/* --- collections --- */

#define COLLECTIONS "content/collections"

static void read_structure(struct collection_info *c, value_t settings)
{
	value_t structure = value_map_getz(settings, "structure");
	c->max_depth = -1;
	if (value_type(structure) != VALUE_MAP && value_type(structure) != VALUE_ARRAY)
		return;
	c->structured = true;
	value_t depth = value_map_getz(structure, "max_depth");
	if (value_type(depth) == VALUE_INT && value_int(depth) > 0)
		c->max_depth = (long)value_int(depth);
	c->expects_root = value_bool(value_map_getz(structure, "root"));
}

static bool is_private(value_t v)
{
	return value_type(v) == VALUE_STRING && strcmp(value_str(v, NULL), "private") == 0;
}

/* date_behavior: {past, future}; v3 wrote past_date_behavior and
 * future_date_behavior. Both default to public. */
static void read_date_behavior(struct collection_info *c, value_t settings)
{
	value_t behavior = value_map_getz(settings, "date_behavior");
	c->past_private = is_private(value_map_getz(behavior, "past")) ||
	                  is_private(value_map_getz(settings, "past_date_behavior"));
	c->future_private = is_private(value_map_getz(behavior, "future")) ||
	                    is_private(value_map_getz(settings, "future_date_behavior"));
}

static void load_collection(struct site_index *idx, const char *rel, const char *file_name)
{
	struct collection_info c;
	memset(&c, 0, sizeof c);
	c.settings = (struct value_builder)VALUE_BUILDER_INIT;
	if (files_read(&idx->files, rel, &c.settings) != 0) {
		vb_release(&c.settings);
		return;
	}
	value_t settings = vb_result(&c.settings);
	c.handle = files_handle(file_name);
	c.title = files_title(settings, c.handle);
	c.mount = copy_string_value(settings, "mount");
	c.dated = value_bool(value_map_getz(settings, "date"));
	read_date_behavior(&c, settings);
	read_structure(&c, settings);

	idx->collections =
		xrealloc(idx->collections, (idx->ncollections + 1) * sizeof *idx->collections);
	idx->collections[idx->ncollections++] = c;
}

static int compare_collections(const void *a, const void *b)
{
	return strcmp(((const struct collection_info *)a)->handle,
	              ((const struct collection_info *)b)->handle);
}

static void load_collections(struct site_index *idx)
{
	char *dir = files_join(idx->files.root, COLLECTIONS);
	size_t n;
	char **names = files_list(&idx->files, dir, ".yaml", &n);
	for (size_t i = 0; i < n; i++) {
		char *rel = files_join(COLLECTIONS, names[i]);
		if (files_exists(&idx->files, rel))
			load_collection(idx, rel, names[i]);
		free(rel);
	}
	files_free_names(names, n);
	free(dir);
	/* File-name order is not handle order ("a-b.yaml" < "a.yaml"). */
	if (idx->ncollections > 1)
		qsort(idx->collections, idx->ncollections, sizeof *idx->collections,
		      compare_collections);
}

static void load_extras(struct site_index *idx)
{
	idx->extras = (struct value_builder)VALUE_BUILDER_INIT;
	vb_map_begin(&idx->extras);
	taxonomies_load(idx);
	navs_load(idx);
	globals_load(idx);
	forms_load(idx);
	users_load(idx);
	assets_load(idx);
	vb_map_end(&idx->extras);
}

/* The site folder and its content/ must be there and readable: without
 * them a site reads as an empty one, which it is not. */
static void check_site_folder(struct site_index *idx)
{
	const char *root = idx->files.root;
	struct stat st;
	if (stat(root, &st) != 0)
		files_unreadable(&idx->files, "", strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		files_unreadable(&idx->files, "", strerror(ENOTDIR));
	else if (access(root, R_OK | X_OK) != 0)
		files_unreadable(&idx->files, "", strerror(errno));
	else {
		char *content = files_join(root, "content");
		if (stat(content, &st) != 0 || !S_ISDIR(st.st_mode))
			files_unreadable(&idx->files, "content", "the site has no content folder");
		else if (access(content, R_OK | X_OK) != 0)
			files_unreadable(&idx->files, "content", strerror(errno));
		free(content);
	}
}

/* Adds s and its end (NULL apart from "") to b. */
static void add_part(struct strbuf *b, const char *s)
{
	strbuf_addstr(b, s ? s : "\1");
	strbuf_add(b, "", 1);
}

/* Paths are left out (the content root, a disk's or an icon folder's):
 * what is in them is signed as files (content_signature), and two
 * machines with the same files under other roots must agree. */
uint64_t site_config_print(const struct config *cfg)
{
	struct strbuf b = STRBUF_INIT;
	add_part(&b, cfg->app_name);
	add_part(&b, cfg->base_url);
	for (size_t i = 0; i < cfg->nsites; i++) {
		const struct site_def *d = &cfg->sites[i];
		const char *parts[] = {"site", d->handle, d->name, d->locale, d->url, d->lang};
		for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
			add_part(&b, parts[k]);
	}
	for (size_t i = 0; i < cfg->ndisks; i++) {
		const char *parts[] = {"disk", cfg->disks[i].name, cfg->disks[i].url};
		for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
			add_part(&b, parts[k]);
	}
	for (size_t i = 0; i < cfg->nicon_sets; i++)
		add_part(&b, cfg->icon_sets[i].name);
	uint64_t h = hash_fnv1a_bytes(b.ptr ? b.ptr : "", b.len);
	strbuf_release(&b);
	return h;
}

struct site_index *site_index_load_holding(const struct config *cfg, value_t previous,
                                           const struct strmap *held)
{
	return site_index_read(cfg, previous, NULL, held, NULL, true);
}

struct site_index *site_index_read(const struct config *cfg, value_t previous,
                                   const struct files_memo *memo, const struct strmap *held,
                                   const struct strmap *changed, bool sources)
{
	struct site_index *idx = xcalloc(1, sizeof *idx);
	files_init(&idx->files, cfg->content_root ? cfg->content_root : ".", previous);
	if (!sources)
		files_remember_nothing(&idx->files);
	idx->files.held = held;
	idx->files.last = memo;
	idx->files.changed = changed;
	idx->cfg = cfg;
	idx->config_print = site_config_print(cfg);
	idx->icons = icon_sets_copy(cfg->icon_sets, cfg->nicon_sets);
	idx->nicons = cfg->nicon_sets;
	check_site_folder(idx);
	load_sites(idx, cfg);
	load_collections(idx);
	collection_blueprints_load(idx);
	entries_load(idx);
	dates_settle(idx);
	trees_load(idx);
	load_extras(idx);
	redirects_resolve(idx);
	files_finish(&idx->files);
	idx->files.held = NULL; /* the caller's, only while loading */
	idx->files.last = NULL;
	idx->files.changed = NULL;
	idx->cfg = NULL;
	return idx;
}

struct site_index *site_index_load_over(const struct config *cfg, value_t previous)
{
	return site_index_load_holding(cfg, previous, NULL);
}

struct site_index *site_index_load(const struct config *cfg)
{
	return site_index_load_over(cfg, VALUE_MISSING);
}

static void free_site(struct site_info *s)
{
	free(s->handle);
	free(s->name);
	free(s->locale);
	free(s->short_locale);
	free(s->lang);
	free(s->url);
}

static void free_collection(struct collection_info *c)
{
	free(c->handle);
	free(c->title);
	free(c->mount);
	vb_release(&c->settings);
	for (size_t i = 0; i < c->nblueprints; i++) {
		free(c->blueprints[i].handle);
		free(c->blueprints[i].title);
		vb_release(&c->blueprints[i].fields);
	}
	free(c->blueprints);
}

void site_index_free(struct site_index *idx)
{
	if (!idx)
		return;
	for (size_t i = 0; i < idx->nsites; i++)
		free_site(&idx->sites[i]);
	free(idx->sites);
	entries_free(idx);
	vb_release(&idx->extras);
	for (size_t i = 0; i < idx->ncollections; i++)
		free_collection(&idx->collections[i]);
	free(idx->collections);
	files_free(&idx->files);
	icon_sets_free(idx->icons, idx->nicons);
	free(idx);
}
