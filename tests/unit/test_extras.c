/* Unit tests: taxonomies and terms, navigations, globals, forms and users
 * of the fixture site, read through the snapshot. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "site/snapshot.h"
#include "unit.h"

static struct snapshot *snap;
static struct strbuf bytes = STRBUF_INIT;

static const char *str(value_t map, const char *key)
{
	return value_str(value_map_getz(map, key), NULL);
}

/* The item of a list whose `key` is `want`. */
static value_t find(value_t list, const char *key, const char *want)
{
	struct value_iter it;
	value_iter_init(&it, list);
	while (value_iter_next(&it))
		if (strcmp(str(it.value, key), want) == 0)
			return it.value;
	return VALUE_MISSING;
}

static value_t find_term(value_t terms, const char *slug, const char *site)
{
	struct value_iter it;
	value_iter_init(&it, terms);
	while (value_iter_next(&it))
		if (strcmp(str(it.value, "slug"), slug) == 0 && strcmp(str(it.value, "site"), site) == 0)
			return it.value;
	return VALUE_MISSING;
}

static void test_open(void)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/site");
	struct site_index *idx = site_index_load(&cfg);
	snapshot_write(idx, 1, &bytes);
	site_index_free(idx);
	config_free(&cfg);
	struct strbuf copy = STRBUF_INIT;
	strbuf_add(&copy, bytes.ptr, bytes.len);
	char err[SNAP_ERR_LEN];
	size_t len;
	char *data = strbuf_detach(&copy, &len);
	snap = snapshot_from_bytes(data, len, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
}

static void test_taxonomies_and_terms(void)
{
	value_t taxonomies = snap_extras(snap, "taxonomies");
	CU_ASSERT_EQUAL(value_count(taxonomies), 1);
	value_t tags = find(taxonomies, "handle", "tags");
	CU_ASSERT_STRING_EQUAL(str(tags, "title"), "Tags");
	value_t terms = value_map_getz(tags, "terms");
	/* launches and news in both sites (news renamed in de). */
	CU_ASSERT_EQUAL(value_count(terms), 5); /* and Big Ideas, implied by an entry */
	value_t news = find_term(terms, "news", "en");
	CU_ASSERT_STRING_EQUAL(str(news, "title"), "News");
	CU_ASSERT_STRING_EQUAL(str(value_map_getz(news, "data"), "color"), "grey"); /* inject */
	CU_ASSERT_EQUAL(value_count(value_map_getz(news, "entries")), 2);
	value_t nachrichten = find_term(terms, "nachrichten", "de");
	CU_ASSERT_STRING_EQUAL(str(nachrichten, "title"), "Nachrichten");
	CU_ASSERT_TRUE(value_is_missing(value_map_getz(value_map_getz(nachrichten, "data"),
	                                               "localizations")));
	/* The de localization of the entry inherits tags: [news]. */
	CU_ASSERT_EQUAL(value_count(value_map_getz(nachrichten, "entries")), 1);
	value_t launches = find_term(terms, "launches", "en");
	CU_ASSERT_STRING_EQUAL(str(value_map_getz(launches, "data"), "color"), "red");
	/* Augmented through the taxonomy's blueprint: markdown, and the
	 * toggle nobody set. */
	CU_ASSERT_STRING_EQUAL(str(value_map_getz(launches, "data"), "description"),
	                       "<p>New <em>things</em></p>\n");
	CU_ASSERT_EQUAL(value_type(value_map_getz(value_map_getz(launches, "data"), "featured")),
	                VALUE_FALSE);
	CU_ASSERT_EQUAL(value_count(value_map_getz(launches, "entries")), 0);
	/* A term's file time is its updated_at; an implied term has none. */
	CU_ASSERT_EQUAL(value_type(value_map_getz(launches, "mtime")), VALUE_INT);
	value_t big = find_term(terms, "big-ideas", "en");
	CU_ASSERT_STRING_EQUAL(str(big, "title"), "Big Ideas");
	CU_ASSERT_EQUAL(value_type(value_map_getz(big, "mtime")), VALUE_NULL);
	CU_ASSERT_EQUAL(value_count(value_map_getz(big, "entries")), 1);
}

static void test_implied_terms(void)
{
	struct config cfg;
	char *dir = unit_tempdir();
	unit_write_file(dir, "content/collections/posts.yaml", "taxonomies: [topics]\n");
	unit_write_file(dir, "content/collections/posts/a.md",
	                "---\nid: a\ntopics: [Big Ideas, small]\n---\n");
	unit_write_file(dir, "content/collections/posts/b.md", "---\nid: b\ntopics: small\n---\n");
	unit_write_file(dir, "content/taxonomies/topics.yaml", "title: Topics\n");
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(dir);
	struct site_index *idx = site_index_load(&cfg);
	value_t topics = value_array_get(value_map_getz(vb_result(&idx->extras), "taxonomies"), 0);
	value_t terms = value_map_getz(topics, "terms");
	CU_ASSERT_EQUAL(value_count(terms), 2);
	value_t big = find_term(terms, "big-ideas", "default");
	CU_ASSERT_STRING_EQUAL(str(big, "title"), "Big Ideas");
	CU_ASSERT_EQUAL(value_count(value_map_getz(find_term(terms, "small", "default"), "entries")), 2);
	site_index_free(idx);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

static void test_navs(void)
{
	value_t navs = snap_extras(snap, "navs");
	CU_ASSERT_EQUAL(value_count(navs), 1);
	value_t main = find(navs, "handle", "main");
	CU_ASSERT_STRING_EQUAL(str(main, "title"), "Main Menu");
	CU_ASSERT_EQUAL(value_int(value_map_getz(main, "max_depth")), 2);
	CU_ASSERT_EQUAL(value_type(value_map_getz(main, "expects_root")), VALUE_FALSE);
	value_t trees = value_map_getz(main, "trees");
	CU_ASSERT_EQUAL(value_count(trees), 1); /* en only */
	value_t en = value_map_getz(trees, "en");
	CU_ASSERT_EQUAL(value_count(en), 2);
	value_t docs = value_array_get(en, 1);
	CU_ASSERT_STRING_EQUAL(str(docs, "url"), "/docs");
	CU_ASSERT_STRING_EQUAL(str(value_map_getz(docs, "data"), "icon"), "book");
	CU_ASSERT_STRING_EQUAL(str(value_array_get(value_map_getz(docs, "children"), 0), "entry"),
	                       "about");
}

static void test_globals(void)
{
	value_t settings = find(snap_extras(snap, "globals"), "handle", "settings");
	CU_ASSERT_STRING_EQUAL(str(settings, "title"), "Settings");
	value_t sites = value_map_getz(settings, "sites");
	value_t en = value_map_getz(sites, "en"), de = value_map_getz(sites, "de");
	CU_ASSERT_STRING_EQUAL(str(en, "site_name"), "Example");
	CU_ASSERT_STRING_EQUAL(str(de, "site_name"), "Beispiel");
	CU_ASSERT_STRING_EQUAL(str(de, "phone"), "+1 555 0100"); /* from the origin */
	/* Through the set's blueprint. */
	CU_ASSERT_STRING_EQUAL(str(en, "notice"), "<p><strong>Closed</strong> on Mondays</p>\n");
	CU_ASSERT_EQUAL(value_type(value_map_getz(de, "open")), VALUE_TRUE);
	CU_ASSERT_TRUE(value_is_missing(value_map_getz(de, "origin")));
	/* keys sorted */
	struct value_iter it;
	value_iter_init(&it, de);
	CU_ASSERT_TRUE(value_iter_next(&it));
	CU_ASSERT_EQUAL(strncmp(it.key, "notice", it.key_len), 0);
}

static void test_globals_single_site_data(void)
{
	struct config cfg;
	char *dir = unit_tempdir();
	unit_write_file(dir, "content/globals/brand.yaml", "title: Brand\ndata:\n  color: blue\n");
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(dir);
	struct site_index *idx = site_index_load(&cfg);
	value_t brand = value_array_get(value_map_getz(vb_result(&idx->extras), "globals"), 0);
	CU_ASSERT_STRING_EQUAL(str(value_map_getz(value_map_getz(brand, "sites"), "default"), "color"),
	                       "blue");
	site_index_free(idx);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

static void test_forms(void)
{
	value_t contact = find(snap_extras(snap, "forms"), "handle", "contact");
	CU_ASSERT_STRING_EQUAL(str(contact, "title"), "Contact");
	value_t fields = value_map_getz(contact, "fields");
	const char *order[] = {"name", "home_street", "email"};
	struct value_iter it;
	value_iter_init(&it, fields);
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_TRUE_FATAL(value_iter_next(&it));
		CU_ASSERT_EQUAL(strncmp(it.key, order[i], it.key_len), 0);
	}
	value_t email = value_map_getz(fields, "email");
	CU_ASSERT_STRING_EQUAL(str(email, "display"), "Your e-mail");
	CU_ASSERT_STRING_EQUAL(str(email, "input_type"), "email");
	/* Notifications never reach the index. */
	CU_ASSERT_PTR_NULL(memmem(bytes.ptr, bytes.len, "secret-team", 11));
}

static void test_users(void)
{
	value_t users = snap_extras(snap, "users");
	CU_ASSERT_EQUAL(value_count(users), 2);
	value_t ada = find(users, "id", "user-ada");
	CU_ASSERT_STRING_EQUAL(str(ada, "email"), "ada@example.com");
	CU_ASSERT_STRING_EQUAL(str(ada, "name"), "Ada Lovelace");
	CU_ASSERT_EQUAL(value_type(value_map_getz(ada, "is_super")), VALUE_TRUE);
	CU_ASSERT_EQUAL(value_count(ada), 4);
	value_t bob = find(users, "id", "user-bob");
	CU_ASSERT_STRING_EQUAL(str(bob, "name"), "Bob Stone");
	CU_ASSERT_EQUAL(value_type(value_map_getz(bob, "is_super")), VALUE_FALSE);
	/* Secrets are never held. */
	const char *secrets[] = {"notarealhash", "plaintext", "XYZ", "theme", "remember"};
	for (size_t i = 0; i < 5; i++)
		CU_ASSERT_PTR_NULL(memmem(bytes.ptr, bytes.len, secrets[i], strlen(secrets[i])));
}

static void test_assets(void)
{
	/* The disk: the fixture's files plus a link out of it (made here: a
	 * distribution tarball would turn a committed link into a copy). */
	char *disk = unit_tempdir();
	char path[512];
	unit_write_file(disk, "readme.txt", "hello\n");
	unit_write_file(disk, "img/dot.gif", "not really a gif");
	unit_write_file(disk, "img/.meta/dot.gif.yaml",
	                "data:\n  alt: 'A dot'\nsize: 999\nwidth: 1\nheight: 1\nmime_type: image/gif\n");
	snprintf(path, sizeof path, "%s/escape.txt", disk);
	CU_ASSERT_EQUAL(symlink("/etc/passwd", path), 0);
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/site");
	cfg.disks = calloc(1, sizeof *cfg.disks);
	cfg.ndisks = 1;
	cfg.disks[0] = (struct disk_def){strdup("assets"), strdup(disk), strdup("/assets")};
	struct site_index *idx = site_index_load(&cfg);
	value_t containers = value_map_getz(vb_result(&idx->extras), "assets");
	CU_ASSERT_EQUAL(value_count(containers), 1);
	value_t c = value_array_get(containers, 0);
	CU_ASSERT_STRING_EQUAL(str(c, "title"), "Site Assets");
	CU_ASSERT_STRING_EQUAL(str(c, "url"), "/assets");
	value_t files = value_map_getz(c, "files");
	/* The symbolic link out of the disk is not listed. */
	CU_ASSERT_EQUAL_FATAL(value_count(files), 2);
	value_t dot = find(files, "path", "img/dot.gif");
	CU_ASSERT_STRING_EQUAL(str(dot, "folder"), "img");
	CU_ASSERT_STRING_EQUAL(str(dot, "extension"), "gif");
	CU_ASSERT_STRING_EQUAL(str(value_map_getz(dot, "data"), "alt"), "A dot");
	CU_ASSERT_EQUAL(value_int(value_map_getz(dot, "size")), 16); /* the file's, not .meta's */
	CU_ASSERT_STRING_EQUAL(str(dot, "mime_type"), "image/gif");
	value_t readme = find(files, "path", "readme.txt");
	CU_ASSERT_STRING_EQUAL(str(readme, "folder"), "/");
	CU_ASSERT_EQUAL(value_count(value_map_getz(readme, "data")), 0);
	CU_ASSERT_EQUAL(files_errors(&idx->files), 0);
	site_index_free(idx);
	config_free(&cfg);
	unit_rmtree(disk);
	free(disk);
}

static void test_close(void)
{
	snapshot_close(snap);
	strbuf_release(&bytes);
}

void suite_extras(void)
{
	CU_pSuite s = unit_add_suite("taxonomies, navs, globals, forms, users");
	unit_add_test(s, "open", test_open);
	unit_add_test(s, "taxonomies and terms", test_taxonomies_and_terms);
	unit_add_test(s, "implied terms", test_implied_terms);
	unit_add_test(s, "navigations", test_navs);
	unit_add_test(s, "globals", test_globals);
	unit_add_test(s, "globals in the set file", test_globals_single_site_data);
	unit_add_test(s, "forms", test_forms);
	unit_add_test(s, "users", test_users);
	unit_add_test(s, "assets", test_assets);
	unit_add_test(s, "close", test_close);
}
