/*
 * Unit tests: every endpoint of every real Statamic site in
 * ../shared/corpora (CORPORA_DIR, when it exists), answered in-process.
 *
 * Each index and list is walked to its end, page by page along links.next,
 * and each item asked for again by its own api_url: every answer must be
 * 200 with the contract's shape, every count must equal the files the
 * site holds, and no answer anywhere may hold a password hash, a token,
 * two-factor data, a form's e-mail settings or anything of a file outside
 * an asset container.
 *
 * The corpora ship their assets' .meta files but not the binaries (their
 * ASSETS-MANIFEST.txt lists them with their sizes). An asset is a file on
 * its disk, so each disk is rebuilt in a temporary folder: a sparse file
 * of the listed size for every binary, a link to each .meta file, and,
 * beside them, a link to a file outside the container and a linked folder
 * outside it, which must never show.
 */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "lib/strbuf.h"
#include "unit.h"

#define ORIGIN "http://localhost"
#define CANARY "cms-api-canary-7f3a91: outside every container"

struct disk {
	const char *name, *root, *url; /* root relative to the corpus; url NULL: private */
};

struct corpus {
	const char *name;
	const char *sites_ini; /* [sites.*] for a site without resources/sites.yaml */
	struct disk disks[4];
	const char *secrets[6]; /* strings of its files no answer may hold */
};

static const struct corpus corpora[] = {
	{"amplitude-docs", "",
	 {{"assets", "public/docs/assets", "/docs/assets"},
	  {"help_center", "public/docs/output/img", "/docs/output/img"},
	  {"local", "storage/app", NULL},
	  {"public", "storage/app/public", "/storage"}},
	 {NULL}},
	{"bedrock", "",
	 {{"assets", "public/assets", "/assets"}},
	 {"fax_number"}},
	{"brand0n-gg", "[sites.default]\nname = brand0n.gg\nlocale = en_US\nurl = /\n",
	 {{"assets", "public/assets", "/assets"},
	  {"favicons", "public/favicons", "/favicons"},
	  {"social_images", "public/social_images", "/social_images"}},
	 {"FAKEFAKEFAKE", "Contact form received", "email/form_owner", "form_sender_text"}},
	{"inertia-vue-theme",
	 "[sites.default]\nname = Deutsch\nlocale = de\nurl = /de\n"
	 "[sites.en]\nname = English\nlocale = en\nurl = /en\n",
	 {{"assets", "public/assets", "/assets"}},
	 {"Kontaktformular auf Website", "notifications/contact-form", "forms@example.com"}},
};

/* Never in any answer of any site (spec §6). */
static const char *const never[] = {
	"$2y$", "password_hash", "remember_token", "two_factor", "passkey", "honeypot",
	CANARY, "escape.txt", "escape-dir",
};

static struct app app;
static const struct corpus *current;
static char tmp[64];
static size_t answers;

/* --- the site's files --- */

static char *corpus_path(const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	strbuf_addf(&p, "%s/%s%s%s", CORPORA_DIR, current->name, *rel ? "/" : "", rel);
	return strbuf_detach(&p, NULL);
}

/* The id line of an entry file's front matter, or "" (newly allocated). */
static char *id_line(const char *abs)
{
	FILE *f = fopen(abs, "r");
	char line[512];
	char *id = strdup("");
	for (int n = 0; f && n < 200 && fgets(line, sizeof line, f); n++) {
		if (n > 0 && strncmp(line, "---", 3) == 0)
			break;
		if (strncmp(line, "id:", 3) == 0) {
			free(id);
			id = strndup(line + 3, strcspn(line + 3, "\r\n"));
		}
	}
	if (f)
		fclose(f);
	return id;
}

/* The files in dir (relative to the corpus) ending in suffix, not hidden;
 * with recurse, in its folders too. With ids, a file whose id line an
 * earlier file had is not counted: the site has one item per id. */
static size_t count_in(const char *dir, const char *suffix, bool recurse, struct strlist *ids)
{
	char *abs = corpus_path(dir);
	size_t n = 0;
	DIR *d = opendir(abs);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		struct strbuf child = STRBUF_INIT;
		strbuf_addf(&child, "%s/%s", dir, e->d_name);
		char *child_abs = corpus_path(child.ptr);
		struct stat st;
		size_t len = strlen(e->d_name), slen = strlen(suffix);
		if (stat(child_abs, &st) == 0 && S_ISDIR(st.st_mode) && recurse) {
			n += count_in(child.ptr, suffix, true, ids);
		} else if (S_ISREG(st.st_mode) && len > slen &&
		           strcmp(e->d_name + len - slen, suffix) == 0) {
			char *id = ids ? id_line(child_abs) : NULL;
			n += !id || !*id || !strlist_contains(ids, id);
			if (id && *id)
				strlist_add(ids, id);
			free(id);
		}
		free(child_abs);
		strbuf_release(&child);
	}
	if (d)
		closedir(d);
	free(abs);
	return n;
}

static size_t count_files(const char *dir, const char *suffix, bool recurse)
{
	return count_in(dir, suffix, recurse, NULL);
}

/* --- the disks, rebuilt --- */

static void make_parents(const char *path)
{
	char *copy = strdup(path);
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(copy, 0755);
		*p = '/';
	}
	free(copy);
}

static char *disk_dir(const struct disk *d)
{
	struct strbuf p = STRBUF_INIT;
	strbuf_addf(&p, "%s/%s", tmp, d->name);
	return strbuf_detach(&p, NULL);
}

/* The manifest's binaries below the disk's root, as sparse files; returns
 * how many. */
static size_t make_binaries(const struct disk *d)
{
	char *manifest = corpus_path("ASSETS-MANIFEST.txt");
	FILE *f = fopen(manifest, "r");
	free(manifest);
	char line[4096];
	size_t n = 0, root_len = strlen(d->root);
	char *dir = disk_dir(d);
	mkdir(dir, 0755);
	while (f && fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t');
		if (line[0] == '#' || !tab || strncmp(line, d->root, root_len) != 0 ||
		    line[root_len] != '/')
			continue;
		*tab = '\0';
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", dir, line + root_len + 1);
		make_parents(path.ptr);
		int fd = open(path.ptr, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		CU_ASSERT_FATAL(fd >= 0);
		CU_ASSERT(ftruncate(fd, strtol(tab + 1, NULL, 10)) == 0);
		close(fd);
		strbuf_release(&path);
		n++;
	}
	if (f)
		fclose(f);
	free(dir);
	return n;
}

static const char *link_root, *link_target;

static int link_meta(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type != FTW_F || !strstr(path, "/.meta/"))
		return 0;
	struct strbuf to = STRBUF_INIT;
	strbuf_addf(&to, "%s%s", link_target, path + strlen(link_root));
	make_parents(to.ptr);
	CU_ASSERT(symlink(path, to.ptr) == 0);
	strbuf_release(&to);
	return 0;
}

/* Every .meta file below the disk's root, linked into the rebuilt disk. */
static void link_metas(const struct disk *d)
{
	char *root = corpus_path(d->root);
	char *dir = disk_dir(d);
	link_root = root;
	link_target = dir;
	nftw(root, link_meta, 16, FTW_PHYS);
	free(dir);
	free(root);
}

/* A file and a folder outside the container, linked into it. */
static void plant_escapes(const struct disk *d)
{
	struct strbuf outside = STRBUF_INIT, canary = STRBUF_INIT, link = STRBUF_INIT;
	strbuf_addf(&outside, "%s/outside", tmp);
	mkdir(outside.ptr, 0755);
	strbuf_addf(&canary, "%s/canary.txt", outside.ptr);
	FILE *f = fopen(canary.ptr, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(CANARY "\n", f);
	fclose(f);
	char *dir = disk_dir(d);
	strbuf_addf(&link, "%s/escape.txt", dir);
	CU_ASSERT(symlink(canary.ptr, link.ptr) == 0);
	strbuf_reset(&link);
	strbuf_addf(&link, "%s/escape-dir", dir);
	CU_ASSERT(symlink(outside.ptr, link.ptr) == 0);
	free(dir);
	strbuf_release(&outside);
	strbuf_release(&canary);
	strbuf_release(&link);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* --- the app --- */

static void open_corpus(const struct corpus *c)
{
	current = c;
	snprintf(tmp, sizeof tmp, "/tmp/cms-api-corpus-XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(tmp) != NULL);
	struct strbuf ini = STRBUF_INIT;
	char *root = corpus_path("");
	strbuf_addf(&ini,
	            "[api]\nenabled = true\n[content]\nroot = %s\n[cache]\ndriver = none\n"
	            "[log]\ntarget = %s/worker.log\n"
	            "[resources]\nnavs = true\ntaxonomies = true\nglobals = true\nforms = true\n"
	            "assets = true\nsites = true\nusers = true\n"
	            "[resources.collections.*]\nenabled = true\nallowed_filters = status\n%s",
	            root, tmp, c->sites_ini);
	free(root);
	for (size_t i = 0; i < 4 && c->disks[i].name; i++) {
		char *dir = disk_dir(&c->disks[i]);
		strbuf_addf(&ini, "[disks.%s]\nroot = %s\n", c->disks[i].name, dir);
		if (c->disks[i].url)
			strbuf_addf(&ini, "url = %s\n", c->disks[i].url);
		free(dir);
		make_binaries(&c->disks[i]);
		link_metas(&c->disks[i]);
		plant_escapes(&c->disks[i]);
	}
	struct strbuf ini_path = STRBUF_INIT;
	strbuf_addf(&ini_path, "%s/cms-api.ini", tmp);
	FILE *f = fopen(ini_path.ptr, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(ini.ptr, f);
	fclose(f);
	char err[CONFIG_ERR_LEN];
	int rc = app_open(&app, ini_path.ptr, APP_PRIVATE, err);
	if (rc != 0)
		fprintf(stderr, "%s\n", err);
	CU_ASSERT_FATAL(rc == 0);
	strbuf_release(&ini);
	strbuf_release(&ini_path);
}

static void close_corpus(void)
{
	app_close(&app);
	nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static bool holds_secret(const char *body, const char **which)
{
	for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
		if (strstr(body, never[i]))
			return *which = never[i], true;
	for (size_t i = 0; i < 6 && current->secrets[i]; i++)
		if (strstr(body, current->secrets[i]))
			return *which = current->secrets[i], true;
	return false;
}

/* GET path (or an absolute URL of this origin): its status must be
 * `status`; returns the parsed body (the caller puts it), NULL on 404. */
static json_object *ask(const char *path, int status)
{
	if (strncmp(path, ORIGIN, strlen(ORIGIN)) == 0)
		path += strlen(ORIGIN);
	struct request req;
	struct response res;
	request_from_uri(&req, "GET", path);
	response_init(&res);
	unit_handle(&app, &req, &res);
	answers++;
	const char *body = strbuf_str(&res.body), *secret;
	if (res.status != status)
		fprintf(stderr, "%s: GET %s: %d %.300s\n", current->name, path, res.status, body);
	CU_ASSERT_EQUAL(res.status, status);
	if (holds_secret(body, &secret)) {
		fprintf(stderr, "%s: GET %s holds \"%s\"\n", current->name, path, secret);
		CU_FAIL("an answer holds what is never served");
	}
	json_object *doc = json_tokener_parse(body);
	CU_ASSERT(doc != NULL);
	if (res.status != 200) {
		json_object_put(doc);
		doc = NULL;
	}
	response_free(&res);
	request_free(&req);
	return doc;
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* Whether o has key, null or not (member() cannot tell null from absent). */
static bool has_member(json_object *o, const char *key)
{
	return json_object_object_get_ex(o, key, NULL);
}

static const char *string_of(json_object *o, const char *key)
{
	json_object *v = member(o, key);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

/* The object's keys, comma-separated, in order. */
static void keys_of(json_object *o, struct strbuf *out)
{
	strbuf_reset(out);
	json_object_object_foreach(o, key, value) {
		(void)value;
		strbuf_addf(out, "%s%s", out->len ? "," : "", key);
	}
}

static bool has_keys(json_object *o, const char *wanted)
{
	struct strbuf keys = STRBUF_INIT;
	keys_of(o, &keys);
	bool same = strcmp(keys.ptr ? keys.ptr : "", wanted) == 0;
	if (!same)
		fprintf(stderr, "%s: keys %s, not %s\n", current->name, keys.ptr, wanted);
	strbuf_release(&keys);
	return same;
}

/* {"data": [...]} of an index: the array, owned by doc. */
static json_object *index_of(const char *path, json_object **doc)
{
	*doc = ask(path, 200);
	json_object *data = member(*doc, "data");
	CU_ASSERT_FATAL(data && json_object_is_type(data, json_type_array));
	return data;
}

/* Every item of a paginated list, page after page: a new array. */
static json_object *walk_list(const char *path)
{
	json_object *all = json_object_new_array();
	struct strbuf next = STRBUF_INIT;
	strbuf_addf(&next, "%s%slimit=1000", path, strchr(path, '?') ? "&" : "?");
	long total = -1;
	while (next.len) {
		json_object *doc = ask(next.ptr, 200);
		strbuf_reset(&next);
		if (!doc)
			break;
		json_object *data = member(doc, "data"), *links = member(doc, "links");
		CU_ASSERT_FATAL(data && links && member(doc, "meta"));
		total = json_object_get_int64(member(member(doc, "meta"), "total"));
		for (size_t i = 0; i < json_object_array_length(data); i++)
			json_object_array_add(all, json_object_get(json_object_array_get_idx(data, i)));
		if (json_object_is_type(member(links, "next"), json_type_string))
			strbuf_addstr(&next, json_object_get_string(member(links, "next")));
		json_object_put(doc);
	}
	CU_ASSERT_EQUAL((long)json_object_array_length(all), total);
	strbuf_release(&next);
	return all;
}

/* The item again by its api_url (plus a query): 200, the same id. */
static void ask_item(json_object *item, const char *query, const char *id_key)
{
	struct strbuf url = STRBUF_INIT;
	strbuf_addf(&url, "%s%s", string_of(item, "api_url"), query);
	json_object *doc = ask(url.ptr, 200);
	json_object *data = member(doc, "data");
	CU_ASSERT(data != NULL);
	if (data && id_key)
		CU_ASSERT_STRING_EQUAL(string_of(data, id_key), string_of(item, id_key));
	json_object_put(doc);
	strbuf_release(&url);
}

/* --- each resource --- */

static void check_collection(json_object *c)
{
	const char *handle = string_of(c, "handle");
	CU_ASSERT(has_keys(c, "handle,title,structure,mount,api_url"));
	ask_item(c, "", "handle");
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT;
	strbuf_addf(&path, "/api/collections/%s/entries?filter[status]=any", handle);
	json_object *entries = walk_list(path.ptr);
	strbuf_addf(&dir, "content/collections/%s", handle);
	/* Every entry file is an entry, one per id as in Statamic's Stache
	 * (amplitude-docs has a file that repeats another's id). */
	struct strlist ids = {NULL, 0};
	size_t files = count_in(dir.ptr, ".md", true, &ids);
	strlist_free(&ids);
	if (json_object_array_length(entries) != files)
		fprintf(stderr, "%s: %s: %zu entries, %zu files\n", current->name, handle,
		        json_object_array_length(entries), files);
	CU_ASSERT_EQUAL(json_object_array_length(entries), files);
	for (size_t i = 0; i < json_object_array_length(entries); i++) {
		json_object *e = json_object_array_get_idx(entries, i);
		CU_ASSERT_STRING_EQUAL(string_of(member(e, "collection"), "handle"), handle);
		CU_ASSERT(json_object_is_type(member(e, "is_entry"), json_type_boolean));
		if (strcmp(string_of(e, "status"), "draft") != 0)
			ask_item(e, "", "id");
		else
			json_object_put(ask(string_of(e, "api_url"), 404));
	}
	json_object_put(entries);
	if (json_object_is_type(member(c, "structure"), json_type_object)) {
		strbuf_reset(&path);
		strbuf_addf(&path, "/api/collections/%s/tree", handle);
		json_object_put(ask(path.ptr, 200));
	}
	strbuf_release(&path);
	strbuf_release(&dir);
}

static void check_collections(void)
{
	json_object *doc;
	json_object *list = index_of("/api/collections", &doc);
	CU_ASSERT_EQUAL(json_object_array_length(list), count_files("content/collections", ".yaml", false));
	for (size_t i = 0; i < json_object_array_length(list); i++)
		check_collection(json_object_array_get_idx(list, i));
	json_object_put(doc);
}

static void check_navs(void)
{
	json_object *doc;
	json_object *list = index_of("/api/navs", &doc);
	CU_ASSERT_EQUAL(json_object_array_length(list), count_files("content/navigation", ".yaml", false));
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *nav = json_object_array_get_idx(list, i);
		CU_ASSERT(has_keys(nav, "handle,title,max_depth,expects_root,api_url"));
		ask_item(nav, "", "handle");
	}
	json_object_put(doc);
}

static void check_term(json_object *term, const char *taxonomy)
{
	CU_ASSERT(member(term, "entries") == NULL && member(term, "collection") == NULL);
	CU_ASSERT(json_object_get_boolean(member(term, "is_term")));
	CU_ASSERT(json_object_is_type(member(term, "entries_count"), json_type_int));
	CU_ASSERT_STRING_EQUAL(string_of(member(term, "taxonomy"), "handle"), taxonomy);
	struct strbuf query = STRBUF_INIT;
	strbuf_addf(&query, "?site=%s", string_of(term, "locale"));
	ask_item(term, query.ptr, "id");
	strbuf_reset(&query);
	strbuf_addf(&query, "/entries?site=%s", string_of(term, "locale"));
	struct strbuf url = STRBUF_INIT;
	strbuf_addf(&url, "%s%s", string_of(term, "api_url"), query.ptr);
	json_object_put(ask(url.ptr, 200));
	strbuf_release(&url);
	strbuf_release(&query);
}

static void check_taxonomies(void)
{
	json_object *doc;
	json_object *list = index_of("/api/taxonomies", &doc);
	CU_ASSERT_EQUAL(json_object_array_length(list), count_files("content/taxonomies", ".yaml", false));
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *t = json_object_array_get_idx(list, i);
		const char *handle = string_of(t, "handle");
		CU_ASSERT(has_keys(t, "handle,title,api_url"));
		ask_item(t, "", "handle");
		struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT;
		strbuf_addf(&path, "/api/taxonomies/%s/terms", handle);
		json_object *terms = walk_list(path.ptr);
		/* Each term file in each of its sites, and the terms only entries name. */
		strbuf_addf(&dir, "content/taxonomies/%s", handle);
		CU_ASSERT(json_object_array_length(terms) >= count_files(dir.ptr, ".yaml", false));
		for (size_t k = 0; k < json_object_array_length(terms); k++)
			check_term(json_object_array_get_idx(terms, k), handle);
		json_object_put(terms);
		strbuf_release(&path);
		strbuf_release(&dir);
	}
	json_object_put(doc);
}

/* The last two keys of a global set are handle and api_url. */
static void check_global(json_object *set)
{
	struct strbuf keys = STRBUF_INIT;
	keys_of(set, &keys);
	size_t n = keys.len, tail = strlen(",handle,api_url");
	CU_ASSERT((n == tail - 1 && strcmp(keys.ptr, "handle,api_url") == 0) ||
	          (n > tail && strcmp(keys.ptr + n - tail, ",handle,api_url") == 0));
	ask_item(set, "", "handle");
	strbuf_release(&keys);
}

static void check_globals(void)
{
	json_object *doc;
	json_object *list = index_of("/api/globals", &doc);
	CU_ASSERT_EQUAL(json_object_array_length(list), count_files("content/globals", ".yaml", false));
	for (size_t i = 0; i < json_object_array_length(list); i++)
		check_global(json_object_array_get_idx(list, i));
	json_object_put(doc);
}

static void check_forms(void)
{
	json_object *doc;
	json_object *list = index_of("/api/forms", &doc);
	CU_ASSERT_EQUAL(json_object_array_length(list), count_files("resources/forms", ".yaml", false));
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *form = json_object_array_get_idx(list, i);
		CU_ASSERT(has_keys(form, "handle,title,fields,api_url"));
		json_object *fields = member(form, "fields");
		CU_ASSERT(json_object_is_type(fields, json_type_object) ||
		          (json_object_is_type(fields, json_type_array) &&
		           json_object_array_length(fields) == 0));
		ask_item(form, "", "handle");
	}
	json_object_put(doc);
}

static void check_users(void)
{
	json_object *users = walk_list("/api/users");
	CU_ASSERT_EQUAL(json_object_array_length(users), count_files("users", ".yaml", false));
	for (size_t i = 0; i < json_object_array_length(users); i++) {
		json_object *u = json_object_array_get_idx(users, i);
		CU_ASSERT(has_keys(u, "id,email,name,is_super,api_url"));
		ask_item(u, "", "email");
	}
	json_object_put(users);
}

static const struct disk *disk_named(const char *name)
{
	for (size_t i = 0; i < 4 && current->disks[i].name; i++)
		if (strcmp(current->disks[i].name, name) == 0)
			return &current->disks[i];
	return NULL;
}

/* The binaries the manifest lists below the disk's root. */
static size_t manifest_count(const struct disk *d)
{
	char *manifest = corpus_path("ASSETS-MANIFEST.txt");
	FILE *f = fopen(manifest, "r");
	free(manifest);
	char line[4096];
	size_t n = 0, len = strlen(d->root);
	while (f && fgets(line, sizeof line, f))
		n += strncmp(line, d->root, len) == 0 && line[len] == '/';
	if (f)
		fclose(f);
	return n;
}

/* Paths that leave the container in any spelling open nothing. */
static void ask_hostile(const char *container)
{
	static const char *const paths[] = {
		"../cms-api.ini", "%2e%2e/cms-api.ini", "..%2fcms-api.ini", "x/..%5c..%5ccms-api.ini",
		"%2fetc%2fpasswd", "escape.txt", "escape-dir/canary.txt",
	};
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		struct strbuf url = STRBUF_INIT;
		strbuf_addf(&url, "/api/assets/%s/%s", container, paths[i]);
		json_object_put(ask(url.ptr, 404));
		strbuf_release(&url);
	}
	/* An encoded NUL is refused before any route is looked at. */
	struct strbuf url = STRBUF_INIT;
	strbuf_addf(&url, "/api/assets/%s/a%%00.png", container);
	json_object_put(ask(url.ptr, 400));
	strbuf_release(&url);
}

static void check_container(json_object *c, const char *disk)
{
	const char *handle = string_of(c, "handle");
	CU_ASSERT(has_keys(c, "handle,title,api_url"));
	ask_item(c, "", "handle");
	struct strbuf path = STRBUF_INIT, prefix = STRBUF_INIT;
	strbuf_addf(&path, "/api/assets/%s", handle);
	strbuf_addf(&prefix, "%s::", handle);
	json_object *assets = walk_list(path.ptr);
	const struct disk *d = disk_named(disk);
	CU_ASSERT_EQUAL(json_object_array_length(assets), d ? manifest_count(d) : 0);
	for (size_t i = 0; i < json_object_array_length(assets); i++) {
		json_object *a = json_object_array_get_idx(assets, i);
		CU_ASSERT(strncmp(string_of(a, "id"), prefix.ptr, prefix.len) == 0);
		CU_ASSERT(has_member(a, "alt") && has_member(a, "url") && has_member(a, "api_url"));
		ask_item(a, "", "id");
	}
	json_object_put(assets);
	ask_hostile(handle);
	strbuf_release(&path);
	strbuf_release(&prefix);
}

/* content/assets/{handle}.yaml names its disk: disk: ... */
static char *container_disk(const char *handle)
{
	struct strbuf rel = STRBUF_INIT;
	strbuf_addf(&rel, "content/assets/%s.yaml", handle);
	char *abs = corpus_path(rel.ptr);
	FILE *f = fopen(abs, "r");
	char line[512], *disk = strdup(handle);
	while (f && fgets(line, sizeof line, f)) {
		if (strncmp(line, "disk:", 5) != 0)
			continue;
		free(disk);
		disk = strndup(line + 5 + strspn(line + 5, " '\""), strcspn(line + 5 + strspn(line + 5, " '\""), "'\"\r\n"));
	}
	if (f)
		fclose(f);
	free(abs);
	strbuf_release(&rel);
	return disk;
}

static void check_assets(void)
{
	json_object *doc;
	json_object *list = index_of("/api/asset-containers", &doc);
	CU_ASSERT_EQUAL(json_object_array_length(list), count_files("content/assets", ".yaml", false));
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *c = json_object_array_get_idx(list, i);
		char *disk = container_disk(string_of(c, "handle"));
		check_container(c, disk);
		free(disk);
	}
	json_object_put(doc);
}

static void check_sites(void)
{
	json_object *doc;
	json_object *list = index_of("/api/sites", &doc);
	CU_ASSERT(json_object_array_length(list) >= 1);
	for (size_t i = 0; i < json_object_array_length(list); i++)
		CU_ASSERT(has_keys(json_object_array_get_idx(list, i), "handle,name,locale,short_locale,url"));
	json_object_put(doc);
}

static void test_every_endpoint_of_every_corpus(void)
{
	struct stat st;
	if (stat(CORPORA_DIR, &st) != 0) {
		fprintf(stderr, "corpora: %s not found; skipped\n", CORPORA_DIR);
		return;
	}
	for (size_t i = 0; i < sizeof corpora / sizeof corpora[0]; i++) {
		answers = 0;
		open_corpus(&corpora[i]);
		check_sites();
		check_collections();
		check_navs();
		check_taxonomies();
		check_globals();
		check_forms();
		check_users();
		check_assets();
		close_corpus();
		CU_ASSERT(answers > 10);
	}
}

void suite_corpus_api(void)
{
	CU_pSuite s = unit_add_suite("corpus_api");
	unit_add_test(s, "every endpoint of every corpus", test_every_endpoint_of_every_corpus);
}
