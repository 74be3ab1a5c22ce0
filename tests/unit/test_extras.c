/* Unit tests: taxonomies and terms, navigations, globals, forms, users
 * and assets of the fixture site, read through the snapshot; the kinds,
 * MIME types and image sizes of asset files. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"
#include "site/assets.h"
#include "site/files.h"
#include "site/index.h"
#include "site/media.h"
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
	/* .meta's size, as Statamic believes it, not the file's 16 bytes. */
	CU_ASSERT_EQUAL(value_int(value_map_getz(dot, "size")), 999);
	CU_ASSERT_STRING_EQUAL(str(dot, "mime_type"), "image/gif");
	value_t readme = find(files, "path", "readme.txt");
	CU_ASSERT_STRING_EQUAL(str(readme, "folder"), "/");
	CU_ASSERT_EQUAL(value_count(value_map_getz(readme, "data")), 0);
	/* Without a .meta, the file's own size and time. */
	CU_ASSERT_EQUAL(value_int(value_map_getz(readme, "size")), 6);
	struct stat st;
	snprintf(path, sizeof path, "%s/readme.txt", disk);
	CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(value_int(value_map_getz(readme, "last_modified")), st.st_mtime);
	/* A .meta without a time: the file's. */
	snprintf(path, sizeof path, "%s/img/dot.gif", disk);
	CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(value_int(value_map_getz(dot, "last_modified")), st.st_mtime);
	CU_ASSERT_EQUAL(files_errors(&idx->files), 0);
	site_index_free(idx);
	config_free(&cfg);
	unit_rmtree(disk);
	free(disk);
}

/* --- assets: order, look-up, facts read at index time --- */

/* Writes n bytes to dir/name (binary: unit_write_file stops at a NUL). */
static void write_bytes(const char *dir, const char *name, const void *data, size_t n)
{
	char path[512];
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, name, ""), 0);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(fwrite(data, 1, n, f), n);
	fclose(f);
}

/* A site with one container, media (no disk named: its disk is "media"),
 * with its blueprint when given, and its disk at disk. */
static struct config media_site(const char *site, const char *disk, const char *blueprint)
{
	struct config cfg;
	unit_write_file(site, "content/assets/media.yaml", "allow_uploads: true\n");
	if (blueprint)
		unit_write_file(site, "resources/blueprints/assets/media.yaml", blueprint);
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(site);
	cfg.disks = calloc(1, sizeof *cfg.disks);
	cfg.ndisks = 1;
	cfg.disks[0] = (struct disk_def){strdup("media"), strdup(disk), NULL};
	return cfg;
}

static const char *const sorted_paths[] = {
	"a b#c.txt", "a-c.txt", "a/b.txt", "a/z/deep.md", "b.TXT", "noext",
};
#define NSORTED (sizeof sorted_paths / sizeof sorted_paths[0])

static void test_assets_in_path_order(void)
{
	char *site = unit_tempdir(), *disk = unit_tempdir();
	/* Written out of order; a walk folder by folder would put a/ before
	 * a-c.txt, strcmp puts '-' before '/'. */
	for (size_t i = NSORTED; i-- > 0;)
		unit_write_file(disk, sorted_paths[i], "x");
	unit_write_file(disk, ".hidden.txt", "x");
	unit_write_file(disk, "a/.meta/b.txt.yaml", "data:\n  alt: B\n");
	struct config cfg = media_site(site, disk, NULL);
	struct snapshot *s = unit_snapshot(&cfg);
	value_t media = snap_extras_find(s, "assets", "media");
	CU_ASSERT_STRING_EQUAL(str(media, "title"), "Media");
	CU_ASSERT_STRING_EQUAL(str(media, "disk"), "media");
	CU_ASSERT_EQUAL(value_type(value_map_getz(media, "url")), VALUE_NULL); /* private */
	value_t files = value_map_getz(media, "files");
	CU_ASSERT_EQUAL_FATAL(value_count(files), NSORTED); /* no hidden file, no .meta */
	for (size_t i = 0; i < NSORTED; i++) {
		CU_ASSERT_STRING_EQUAL(str(value_array_get(files, (uint32_t)i), "path"), sorted_paths[i]);
		/* Found by a binary search, in the snapshot's copy. */
		value_t found = assets_find_file(media, sorted_paths[i]);
		CU_ASSERT_STRING_EQUAL(str(found, "path"), sorted_paths[i]);
	}
	CU_ASSERT_STRING_EQUAL(str(value_map_getz(assets_find_file(media, "a/b.txt"), "data"), "alt"), "B");
	const char *absent[] = {"", "a", "a/", "a/b.tx", "a/b.txtx", "../a-c.txt", ".hidden.txt",
	                        "a/.meta/b.txt.yaml", "zzz", "B.TXT"};
	for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
		CU_ASSERT_TRUE(value_is_missing(assets_find_file(media, absent[i])));
	CU_ASSERT_TRUE(value_is_missing(assets_find_file(VALUE_MISSING, "a-c.txt")));
	/* The default blueprint: titled after the container, one alt field. */
	value_t bp = value_map_getz(media, "blueprint");
	CU_ASSERT_STRING_EQUAL(str(bp, "title"), "Media");
	CU_ASSERT_STRING_EQUAL(str(bp, "handle"), "media");
	value_t fields = value_map_getz(media, "fields");
	CU_ASSERT_EQUAL(value_count(fields), 1);
	CU_ASSERT_STRING_EQUAL(str(value_map_getz(fields, "alt"), "type"), "text");
	snapshot_close(s);
	config_free(&cfg);
	unit_rmtree(site);
	unit_rmtree(disk);
	free(site);
	free(disk);
}

static void test_assets_empty_container(void)
{
	char *site = unit_tempdir();
	struct config cfg = media_site(site, "/nonexistent-disk-root", NULL);
	struct snapshot *s = unit_snapshot(&cfg);
	value_t media = snap_extras_find(s, "assets", "media");
	CU_ASSERT_EQUAL(value_count(value_map_getz(media, "files")), 0);
	CU_ASSERT_TRUE(value_is_missing(assets_find_file(media, "x")));
	snapshot_close(s);
	config_free(&cfg);
	unit_rmtree(site);
	free(site);
}

static void test_assets_blueprint_file(void)
{
	char *site = unit_tempdir(), *disk = unit_tempdir();
	unit_write_file(disk, "a.txt", "x");
	struct config cfg = media_site(site, disk,
	                               "title: Picture\ntabs:\n  main:\n    sections:\n      -\n"
	                               "        fields:\n          -\n            handle: caption\n"
	                               "            field:\n              type: text\n");
	struct snapshot *s = unit_snapshot(&cfg);
	value_t media = snap_extras_find(s, "assets", "media");
	value_t bp = value_map_getz(media, "blueprint");
	CU_ASSERT_STRING_EQUAL(str(bp, "title"), "Picture");
	CU_ASSERT_STRING_EQUAL(str(bp, "handle"), "media");
	value_t fields = value_map_getz(media, "fields");
	CU_ASSERT_EQUAL(value_count(fields), 1);
	CU_ASSERT_FALSE(value_is_missing(value_map_getz(fields, "caption")));
	snapshot_close(s);
	config_free(&cfg);
	unit_rmtree(site);
	unit_rmtree(disk);
	free(site);
	free(disk);
}

/* Headers of each kind, at the least length that holds the size. */
static const unsigned char png[] = {
	0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
	0, 0, 0x02, 0x80, 0, 0, 0x01, 0xe0, 8, 2, 0, 0, 0, /* 640 x 480 */
};
static const unsigned char gif[] = {'G', 'I', 'F', '8', '9', 'a', 32, 0, 16, 0, 0, 0, 0};
/* An APP0 segment, fill bytes, a quantisation table, then the frame. */
static const unsigned char jpeg[] = {
	0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
	0xff, 0xff, 0xff, 0xdb, 0, 4, 0, 0,
	0xff, 0xc2, 0, 17, 8, 0, 200, 0x01, 0x2c, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, /* 300 x 200 */
	0xff, 0xd9,
};
static const unsigned char webp_lossy[] = {
	'R', 'I', 'F', 'F', 30, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', ' ', 10, 0, 0, 0,
	0, 0, 0, 0x9d, 0x01, 0x2a, 0x90, 0x01, 0x2c, 0x01, /* 400 x 300 */
};
static const unsigned char webp_lossless[] = {
	'R', 'I', 'F', 'F', 30, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'L', 5, 0, 0, 0,
	0x2f, 0x63, 0x40, 0x0c, 0x00, 0, 0, 0, 0, 0, /* 100 x 50 */
};
static const unsigned char webp_extended[] = {
	'R', 'I', 'F', 'F', 30, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'X', 10, 0, 0, 0,
	0, 0, 0, 0, 0xff, 0x03, 0, 0xff, 0x02, 0, /* 1024 x 768 */
};

static void assert_size(const char *dir, const char *name, double w, double h, bool is_float)
{
	char path[512];
	struct media_size size;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	const char *ext = strrchr(name, '.') + 1;
	CU_ASSERT_TRUE_FATAL(media_image_size(path, ext, &size));
	CU_ASSERT_DOUBLE_EQUAL(size.width, w, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(size.height, h, 1e-9);
	CU_ASSERT_EQUAL(size.is_float, is_float);
}

static bool no_size(const char *dir, const char *name)
{
	char path[512];
	struct media_size size;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return !media_image_size(path, strrchr(name, '.') + 1, &size);
}

static void test_media_image_sizes(void)
{
	char *dir = unit_tempdir();
	write_bytes(dir, "a.png", png, sizeof png);
	write_bytes(dir, "a.GIF", gif, sizeof gif);
	write_bytes(dir, "a.jpeg", jpeg, sizeof jpeg);
	write_bytes(dir, "lossy.webp", webp_lossy, sizeof webp_lossy);
	write_bytes(dir, "lossless.webp", webp_lossless, sizeof webp_lossless);
	write_bytes(dir, "extended.webp", webp_extended, sizeof webp_extended);
	unit_write_file(dir, "sized.svg", "<?xml version=\"1.0\"?>\n<!-- <svg width=\"1\" height=\"1\"> -->\n"
	                                  "<svg xmlns=\"http://www.w3.org/2000/svg\"\n width='24' height=\" 12.5 \">");
	unit_write_file(dir, "boxed.svg", "<svg viewBox=\"0 0 48,36\" width=\"100%\" height=\"100%\"></svg>");
	unit_write_file(dir, "bare.svg", "<svg><title>width=\"5\"</title></svg>");
	unit_write_file(dir, "broken.svg", "not xml at all");
	unit_write_file(dir, "garbage.png", "not a png, not at all");
	unit_write_file(dir, "cut.jpg", "\xff\xd8\xff\xe0");
	write_bytes(dir, "gif.png", gif, sizeof gif); /* the header decides, not the name */
	assert_size(dir, "a.png", 640, 480, false);
	assert_size(dir, "a.GIF", 32, 16, false);
	assert_size(dir, "a.jpeg", 300, 200, false);
	assert_size(dir, "lossy.webp", 400, 300, false);
	assert_size(dir, "lossless.webp", 100, 50, false);
	assert_size(dir, "extended.webp", 1024, 768, false);
	assert_size(dir, "sized.svg", 24, 12.5, true);
	assert_size(dir, "boxed.svg", 48, 36, true);
	assert_size(dir, "bare.svg", 300, 150, false); /* every browser's default */
	assert_size(dir, "broken.svg", 300, 150, false);
	assert_size(dir, "gif.png", 32, 16, false);
	CU_ASSERT_TRUE(no_size(dir, "garbage.png"));
	CU_ASSERT_TRUE(no_size(dir, "cut.jpg"));
	CU_ASSERT_TRUE(no_size(dir, "missing.png"));
	write_bytes(dir, "a.txt", png, sizeof png); /* not an image by its name */
	CU_ASSERT_TRUE(no_size(dir, "a.txt"));
	unit_rmtree(dir);
	free(dir);
}

static void test_media_kinds_and_types(void)
{
	CU_ASSERT_TRUE(media_is_image("JPG"));
	CU_ASSERT_TRUE(media_is_image("avif"));
	CU_ASSERT_FALSE(media_is_image("svg"));
	CU_ASSERT_FALSE(media_is_image("jpgx"));
	CU_ASSERT_FALSE(media_is_image(""));
	CU_ASSERT_TRUE(media_is_svg("SVG"));
	CU_ASSERT_TRUE(media_is_video("webm"));
	CU_ASSERT_TRUE(media_is_audio("ogg"));
	CU_ASSERT_TRUE(media_is_previewable("pdf"));
	CU_ASSERT_TRUE(media_is_previewable("txt"));
	CU_ASSERT_FALSE(media_is_previewable("png"));
	CU_ASSERT_FALSE(media_is_previewable("averyveryverylongextension"));
	CU_ASSERT_TRUE(media_has_dimensions("mov"));
	CU_ASSERT_FALSE(media_has_dimensions("mp3"));
	CU_ASSERT_TRUE(media_has_duration("mp3"));
	CU_ASSERT_FALSE(media_has_duration("png"));
	CU_ASSERT_STRING_EQUAL(media_mime_type("JPG"), "image/jpeg");
	CU_ASSERT_STRING_EQUAL(media_mime_type("svg"), "image/svg+xml");
	CU_ASSERT_STRING_EQUAL(media_mime_type("csv"), "text/csv");
	CU_ASSERT_PTR_NULL(media_mime_type("xyz"));
	CU_ASSERT_PTR_NULL(media_mime_type(""));
}

/* The .meta's facts first; the header's and the extension's fill in. */
static void test_assets_facts_at_index_time(void)
{
	char *site = unit_tempdir(), *disk = unit_tempdir();
	write_bytes(disk, "told.png", png, sizeof png);
	unit_write_file(disk, ".meta/told.png.yaml",
	                "data: {  }\nwidth: 7\nheight: 5\nmime_type: image/x-told\n");
	write_bytes(disk, "read.png", png, sizeof png);
	unit_write_file(disk, ".meta/read.png.yaml", "data: {  }\nwidth: null\nheight: null\n");
	unit_write_file(disk, "icon.svg", "<svg width=\"64\" height=\"32\"/>");
	unit_write_file(disk, "notes.txt", "hello");
	unit_write_file(disk, "blob.bin", "hello");
	struct config cfg = media_site(site, disk, NULL);
	struct snapshot *s = unit_snapshot(&cfg);
	value_t media = snap_extras_find(s, "assets", "media");
	value_t told = assets_find_file(media, "told.png");
	CU_ASSERT_EQUAL(value_int(value_map_getz(told, "width")), 7);
	CU_ASSERT_EQUAL(value_int(value_map_getz(told, "height")), 5);
	CU_ASSERT_STRING_EQUAL(str(told, "mime_type"), "image/x-told");
	value_t read = assets_find_file(media, "read.png");
	CU_ASSERT_EQUAL(value_type(value_map_getz(read, "width")), VALUE_INT);
	CU_ASSERT_EQUAL(value_int(value_map_getz(read, "width")), 640);
	CU_ASSERT_EQUAL(value_int(value_map_getz(read, "height")), 480);
	CU_ASSERT_STRING_EQUAL(str(read, "mime_type"), "image/png");
	value_t icon = assets_find_file(media, "icon.svg");
	CU_ASSERT_EQUAL(value_type(value_map_getz(icon, "width")), VALUE_DOUBLE);
	CU_ASSERT_DOUBLE_EQUAL(value_double(value_map_getz(icon, "height")), 32, 1e-9);
	CU_ASSERT_STRING_EQUAL(str(icon, "mime_type"), "image/svg+xml");
	value_t notes = assets_find_file(media, "notes.txt");
	CU_ASSERT_EQUAL(value_type(value_map_getz(notes, "width")), VALUE_NULL);
	CU_ASSERT_STRING_EQUAL(str(notes, "mime_type"), "text/plain");
	CU_ASSERT_EQUAL(value_type(value_map_getz(assets_find_file(media, "blob.bin"), "mime_type")),
	                VALUE_NULL);
	snapshot_close(s);
	config_free(&cfg);
	unit_rmtree(site);
	unit_rmtree(disk);
	free(site);
	free(disk);
}

static void test_assets_urls(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	vb_map_begin(&b);
	vb_keyz(&b, "url");
	vb_strz(&b, "/assets");
	vb_map_end(&b);
	struct strbuf s = STRBUF_INIT;
	CU_ASSERT_TRUE(assets_url(vb_result(&b), "img/a b.png", &s));
	CU_ASSERT_STRING_EQUAL(s.ptr, "/assets/img/a b.png");
	strbuf_reset(&s);
	vb_reset(&b);
	vb_map_begin(&b);
	vb_keyz(&b, "url");
	vb_strz(&b, "/");
	vb_map_end(&b);
	CU_ASSERT_TRUE(assets_url(vb_result(&b), "a.png", &s));
	CU_ASSERT_STRING_EQUAL(s.ptr, "/a.png");
	strbuf_reset(&s);
	vb_reset(&b);
	vb_map_begin(&b);
	vb_keyz(&b, "url");
	vb_null(&b);
	vb_map_end(&b);
	CU_ASSERT_FALSE(assets_url(vb_result(&b), "a.png", &s));
	CU_ASSERT_EQUAL(s.len, 0);
	assets_api_path("assets", "img/a b#1?(2)%.png", &s);
	CU_ASSERT_STRING_EQUAL(s.ptr, "assets/assets/img/a%20b%231%3F%282%29%25.png");
	/* What Laravel's URLs leave bare stays bare. */
	strbuf_reset(&s);
	assets_api_path("my=c", "a@2x=b;c,d:e+f!g*h|i&j.png", &s);
	CU_ASSERT_STRING_EQUAL(s.ptr, "assets/my=c/a@2x=b;c,d:e+f!g*h|i&j.png");
	strbuf_release(&s);
	vb_release(&b);
}

static void test_close(void)
{
	snapshot_close(snap);
	strbuf_release(&bytes);
}

void suite_extras(void)
{
	CU_pSuite s = unit_add_suite("taxonomies, navs, globals, forms, users, assets");
	unit_add_test(s, "open", test_open);
	unit_add_test(s, "taxonomies and terms", test_taxonomies_and_terms);
	unit_add_test(s, "implied terms", test_implied_terms);
	unit_add_test(s, "navigations", test_navs);
	unit_add_test(s, "globals", test_globals);
	unit_add_test(s, "globals in the set file", test_globals_single_site_data);
	unit_add_test(s, "forms", test_forms);
	unit_add_test(s, "users", test_users);
	unit_add_test(s, "assets", test_assets);
	unit_add_test(s, "assets in path order, found by path", test_assets_in_path_order);
	unit_add_test(s, "assets: a container without files", test_assets_empty_container);
	unit_add_test(s, "assets: the container's blueprint file", test_assets_blueprint_file);
	unit_add_test(s, "assets: facts from .meta, header, extension", test_assets_facts_at_index_time);
	unit_add_test(s, "assets: url and api path", test_assets_urls);
	unit_add_test(s, "media: image sizes from headers", test_media_image_sizes);
	unit_add_test(s, "media: kinds and MIME types", test_media_kinds_and_types);
	unit_add_test(s, "close", test_close);
}
