/* Unit tests: the index snapshot (write, open, map, read, refuse damage). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config.h"
#include "lib/php.h"
#include "site/index.h"
#include "site/snapshot.h"
#include "unit.h"

/* Builds the fixture site's snapshot bytes into out. */
static void fixture_bytes(struct strbuf *out)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/site");
	struct site_index *idx = site_index_load(&cfg);
	snapshot_write(idx, 42, out);
	site_index_free(idx);
	config_free(&cfg);
}

static struct snapshot *fixture(void)
{
	struct strbuf b = STRBUF_INIT;
	char err[SNAP_ERR_LEN];
	fixture_bytes(&b);
	size_t len;
	char *bytes = strbuf_detach(&b, &len);
	struct snapshot *s = snapshot_from_bytes(bytes, len, err);
	CU_ASSERT_PTR_NOT_NULL(s);
	return s;
}

static void test_counts_sites_collections(void)
{
	struct snapshot *s = fixture();
	CU_ASSERT_EQUAL(snapshot_signature_of(s), 42);
	CU_ASSERT_EQUAL(snap_site_count(s), 2);
	CU_ASSERT_TRUE(snap_multisite(s));
	struct snap_site de = snap_site_at(s, 1);
	CU_ASSERT_STRING_EQUAL(de.handle, "de");
	CU_ASSERT_STRING_EQUAL(de.url, "/de");
	CU_ASSERT_EQUAL(snap_site_find(s, "de"), 1);
	CU_ASSERT_EQUAL(snap_site_find(s, "fr"), SNAP_NONE);
	CU_ASSERT_EQUAL(snap_collection_count(s), 4);
	uint32_t pages = snap_collection_find(s, "pages");
	CU_ASSERT_NOT_EQUAL_FATAL(pages, SNAP_NONE);
	struct snap_collection c = snap_collection_at(s, pages);
	CU_ASSERT_TRUE(c.structured);
	CU_ASSERT_TRUE(c.expects_root);
	CU_ASSERT_EQUAL(c.max_depth, 3);
	CU_ASSERT_EQUAL(c.nentries, 4);
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(c.settings, "route"), NULL),
	                       "{parent_uri}/{slug}");
	CU_ASSERT_EQUAL(snap_collection_find(s, "nope"), SNAP_NONE);
	struct snap_collection blog = snap_collection_at(s, snap_collection_find(s, "blog"));
	CU_ASSERT_TRUE(blog.dated);
	CU_ASSERT_TRUE(blog.future_private);
	CU_ASSERT_FALSE(blog.past_private);
	CU_ASSERT_PTR_NULL(blog.mount);
	snapshot_close(s);
}

static void test_entries(void)
{
	struct snapshot *s = fixture();
	CU_ASSERT_EQUAL(snap_entry_count(s), 11);
	uint32_t i = snap_entry_find(s, "1f2e3d4c-0000-4000-8000-000000000002");
	CU_ASSERT_NOT_EQUAL_FATAL(i, SNAP_NONE);
	struct snap_entry de = snap_entry_at(s, i);
	CU_ASSERT_STRING_EQUAL(de.slug, "hallo-welt");
	CU_ASSERT_STRING_EQUAL(de.uri, "/blog/2024/hallo-welt");
	CU_ASSERT_FALSE(de.published);
	CU_ASSERT_TRUE(de.has_date);
	CU_ASSERT_EQUAL(snap_entry_at(s, de.origin).number, snap_entry_find(s, "1f2e3d4c-0000-4000-8000-000000000001"));
	/* Resolved once: own over origin over inject, plus the blueprint's
	 * fields, keys in order. */
	const char *keys[] = {"author", "blocks", "category", "content", "cta", "featured", "hero",
	                      "layout", "mood", "published_on", "rating", "related", "reviewer",
	                      "seo", "sizes", "specs", "story", "summary", "tags", "title"};
	struct value_iter it;
	value_iter_init(&it, de.data);
	size_t k = 0;
	while (value_iter_next(&it) && k < 20) {
		CU_ASSERT_EQUAL(strlen(keys[k]), it.key_len);
		CU_ASSERT_EQUAL(strncmp(it.key, keys[k], it.key_len), 0);
		k++;
	}
	CU_ASSERT_EQUAL(k, 20);
	CU_ASSERT_EQUAL(value_count(de.data), 20);
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(de.data, "title"), NULL), "Hallo Welt");
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(de.data, "author"), NULL), "Ada");
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(de.data, "layout"), NULL), "post");
	/* content is delivered as HTML (inherited from the origin's body). */
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(de.data, "content"), NULL),
	                       "<p>First post.</p>\n");

	struct snap_entry team = snap_entry_at(s, snap_entry_find(s, "team"));
	CU_ASSERT_EQUAL(team.order, 3);
	CU_ASSERT_EQUAL(team.depth, 2);
	CU_ASSERT_STRING_EQUAL(snap_entry_at(s, team.parent).id, "about");
	CU_ASSERT_EQUAL(snap_entry_at(s, snap_entry_find(s, "home")).parent, SNAP_NONE);
	CU_ASSERT_EQUAL(snap_entry_find(s, "no-such-id"), SNAP_NONE);
	/* Slugs per collection and site. */
	uint32_t pages_c = snap_collection_find(s, "pages"), blog_c = snap_collection_find(s, "blog");
	CU_ASSERT_EQUAL(snap_entry_find_slug(s, pages_c, 0, "team"), snap_entry_find(s, "team"));
	CU_ASSERT_EQUAL(snap_entry_find_slug(s, pages_c, 1, "team"), SNAP_NONE);
	CU_ASSERT_EQUAL(snap_entry_find_slug(s, blog_c, 0, "team"), SNAP_NONE);
	CU_ASSERT_EQUAL(snap_entry_find_slug(s, blog_c, 1, "hallo-welt"),
	                snap_entry_find(s, "1f2e3d4c-0000-4000-8000-000000000002"));
	/* A collection's entries are one contiguous range. */
	struct snap_collection pages = snap_collection_at(s, snap_collection_find(s, "pages"));
	for (uint32_t n = pages.first_entry; n < pages.first_entry + pages.nentries; n++)
		CU_ASSERT_EQUAL(snap_entry_at(s, n).collection, snap_collection_find(s, "pages"));
	snapshot_close(s);
}

/* Each dated collection's published entries with a date, in date order,
 * and their titles as a contains filter reads them. */
static void test_published_in_date_order(void)
{
	struct snapshot *s = fixture();
	for (uint32_t i = 0; i < snap_collection_count(s); i++) {
		struct snap_collection c = snap_collection_at(s, i);
		if (!c.dated) {
			CU_ASSERT_PTR_NULL(c.published);
			continue;
		}
		uint32_t k = 0, undated = 0;
		for (uint32_t j = 0; j < c.nentries; j++) {
			struct snap_entry e = snap_entry_at(s, c.by_date[j]);
			if (e.published && e.has_date) {
				CU_ASSERT_TRUE_FATAL(k < c.npublished);
				CU_ASSERT_EQUAL(c.published[k], c.by_date[j]);
				struct strbuf title = STRBUF_INIT;
				php_string(e.title, &title);
				for (size_t b = 0; b < title.len; b++) /* A-Z only */
					if (title.ptr[b] >= 'A' && title.ptr[b] <= 'Z')
						title.ptr[b] = (char)(title.ptr[b] - 'A' + 'a');
				uint32_t start = k ? c.title_ends[k - 1] : 0;
				CU_ASSERT_EQUAL(c.title_ends[k] - start, title.len);
				CU_ASSERT_EQUAL(memcmp(c.titles + start, strbuf_str(&title), title.len), 0);
				strbuf_release(&title);
				k++;
			} else if (e.published) {
				undated++;
			}
		}
		CU_ASSERT_EQUAL(k, c.npublished);
		CU_ASSERT_EQUAL(undated, c.published_undated);
	}
	struct snap_collection blog = snap_collection_at(s, snap_collection_find(s, "blog"));
	/* undated.md takes its updated_at as its date: the first one. */
	CU_ASSERT_EQUAL(blog.published_undated, 0);
	CU_ASSERT_STRING_EQUAL(snap_entry_at(s, blog.published[blog.npublished - 1]).slug, "far-future");
	CU_ASSERT_EQUAL(memcmp(blog.titles, "undatedhello world", 18), 0);
	snapshot_close(s);
}

static void test_problems(void)
{
	struct snapshot *s = fixture();
	CU_ASSERT_EQUAL(snap_problem_count(s), 3); /* two entries, the disk-less container */
	struct strbuf out = STRBUF_INIT;
	CU_ASSERT_EQUAL(snapshot_report(s, "/root", &out), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(strbuf_str(&out),
	                              "/root/content/collections/blog/en/2024-03-01.copy.md: warning: "));
	strbuf_release(&out);
	snapshot_close(s);
}

static void test_damage_is_refused(void)
{
	struct strbuf b = STRBUF_INIT;
	char err[SNAP_ERR_LEN];
	fixture_bytes(&b);
	/* Truncated. */
	char *copy = malloc(b.len - 1);
	memcpy(copy, b.ptr, b.len - 1);
	CU_ASSERT_PTR_NULL(snapshot_from_bytes(copy, b.len - 1, err));
	CU_ASSERT_STRING_EQUAL(err, "snapshot is truncated or damaged");
	/* Not a snapshot. */
	copy = malloc(b.len);
	memcpy(copy, b.ptr, b.len);
	copy[0] = 'X';
	CU_ASSERT_PTR_NULL(snapshot_from_bytes(copy, b.len, err));
	CU_ASSERT_STRING_EQUAL(err, "not a cms-api index snapshot");
	/* A record pointing past the blob (the first entry's id). */
	copy = malloc(b.len);
	memcpy(copy, b.ptr, b.len);
	uint64_t entries_off;
	memcpy(&entries_off, copy + 80, sizeof entries_off); /* rec_header.entries_off */
	uint32_t huge = 0x7fffffff;
	memcpy(copy + entries_off, &huge, sizeof huge);
	CU_ASSERT_PTR_NULL(snapshot_from_bytes(copy, b.len, err));
	CU_ASSERT_STRING_EQUAL(err, "snapshot records point outside it");
	strbuf_release(&b);
}

static void test_save_and_map(void)
{
	struct strbuf b = STRBUF_INIT;
	char err[SNAP_ERR_LEN];
	char *dir = unit_tempdir();
	char path[512];
	snprintf(path, sizeof path, "%s/index.snap", dir);
	fixture_bytes(&b);
	CU_ASSERT_EQUAL_FATAL(snapshot_save(&b, path, err), 0);
	struct snapshot *s = snapshot_map(path, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(snapshot_size(s), b.len);
	CU_ASSERT_STRING_EQUAL(snap_entry_at(s, snap_entry_find(s, "about")).uri, "/about");
	snapshot_close(s);
	snprintf(path, sizeof path, "%s/missing.snap", dir);
	CU_ASSERT_PTR_NULL(snapshot_map(path, err));
	snprintf(path, sizeof path, "%s/nowhere/index.snap", dir);
	CU_ASSERT_EQUAL(snapshot_save(&b, path, err), -1);
	strbuf_release(&b);
	unit_rmtree(dir);
	free(dir);
}

/* --- builds that go on from the last snapshot ----------------------------- */

/* Everything a reader sees of an entry, as text: its strings, place and
 * data (relations written through the API's writer). */
static void describe(const struct snapshot *s, uint32_t i, struct strbuf *out)
{
	struct snap_entry e = snap_entry_at(s, i);
	char *data = unit_render(s, e.data, 0, NULL);
	char *title = unit_render(s, e.title, 0, NULL);
	strbuf_addf(out, "%s %s %s %s %s %s %u %u %u %u %d %d %d %d %lld %s %s\n", e.id, e.path,
	            e.slug ? e.slug : "-", e.uri ? e.uri : "-", e.blueprint, e.blueprint_title,
	            e.collection, e.site, e.origin, e.parent, (int)e.order, e.depth, e.published,
	            e.has_date, e.date, title, data);
	free(data);
	free(title);
}

/* a and b read the same, entry for entry. */
static void same_entries(const struct snapshot *a, const struct snapshot *b)
{
	CU_ASSERT_EQUAL_FATAL(snap_entry_count(a), snap_entry_count(b));
	for (uint32_t i = 0; i < snap_entry_count(a); i++) {
		struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
		describe(a, i, &x);
		describe(b, i, &y);
		CU_ASSERT_STRING_EQUAL(x.ptr, y.ptr);
		strbuf_release(&x);
		strbuf_release(&y);
	}
}

/* A config for the site at root. */
static void config_at(struct config *cfg, const char *root)
{
	config_init_defaults(cfg);
	free(cfg->content_root);
	cfg->content_root = strdup(root);
}

/* The fixture site copied into dir/site. */
static char *copy_of_fixture(const char *dir)
{
	char cmd[1024], *root = malloc(strlen(dir) + 8);
	sprintf(root, "%s/site", dir);
	snprintf(cmd, sizeof cmd, "cp -r '%s/site' '%s'", FIXTURES_DIR, root);
	CU_ASSERT_EQUAL(system(cmd), 0);
	return root;
}

/* The snapshot of cfg's site built to files in dir (head name), going on
 * from prev. */
static struct snapshot *build_files(const struct config *cfg, const char *dir, const char *head,
                                    const struct snapshot *prev,
                                    struct snapshot_build_stats *stats)
{
	char err[SNAP_ERR_LEN];
	struct site_index *idx = site_index_load(cfg);
	struct snapshot_how how = {prev, dir, head, "segment-test-", stats};
	struct snapshot *s = snapshot_build(idx, 7, &how, err);
	site_index_free(idx);
	if (!s)
		fprintf(stderr, "snapshot_build: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	return s;
}

/* Built to files (a head and a segment file), a snapshot reads as the
 * one built in memory; mapped again from its head, too. */
static void test_files_read_as_memory(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	config_at(&cfg, FIXTURES_DIR "/site");
	struct snapshot *mem = unit_snapshot(&cfg), *files = build_files(&cfg, dir, "h1", NULL, NULL);
	CU_ASSERT_EQUAL(snapshot_segment_count(mem), 1);
	CU_ASSERT_PTR_NULL(snapshot_segment_name(mem, 0));
	CU_ASSERT_EQUAL(snapshot_segment_count(files), 1);
	const char *name = snapshot_segment_name(files, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(name);
	CU_ASSERT_EQUAL(strncmp(name, "segment-test-", 13), 0);
	same_entries(mem, files);
	char path[512], err[SNAP_ERR_LEN];
	snprintf(path, sizeof path, "%s/h1", dir);
	struct snapshot *again = snapshot_map(path, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(again);
	same_entries(mem, again);
	/* Its segment gone, the head is refused. */
	snapshot_close(again);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	CU_ASSERT_EQUAL(unlink(path), 0);
	snprintf(path, sizeof path, "%s/h1", dir);
	CU_ASSERT_PTR_NULL(snapshot_map(path, err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "segment"));
	snapshot_close(mem);
	snapshot_close(files);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* A config taken up anew with another app_name ([sites], base_url,
 * disks and icons alike) renders every entry again: no blob made with
 * the old one is reused. */
static void test_new_config_renders_all(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	config_at(&cfg, FIXTURES_DIR "/site");
	struct snapshot_build_stats st;
	struct snapshot *first = build_files(&cfg, dir, "h1", NULL, &st);
	free(cfg.app_name);
	cfg.app_name = strdup("Another name");
	struct snapshot *second = build_files(&cfg, dir, "h2", first, &st);
	CU_ASSERT_EQUAL(st.reused, 0);
	CU_ASSERT_EQUAL(st.rendered, snap_entry_count(first));
	snapshot_close(first);
	snapshot_close(second);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* A build that goes on from the last snapshot of the same site renders
 * nothing: every blob is reused, the same segment named. */
static void test_nothing_changed_nothing_rendered(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	config_at(&cfg, FIXTURES_DIR "/site");
	struct snapshot_build_stats st;
	struct snapshot *first = build_files(&cfg, dir, "h1", NULL, &st);
	CU_ASSERT_EQUAL(st.rendered, snap_entry_count(first));
	struct snapshot *second = build_files(&cfg, dir, "h2", first, &st);
	CU_ASSERT_EQUAL(st.rendered, 0);
	CU_ASSERT_EQUAL(st.reused, snap_entry_count(first));
	CU_ASSERT_EQUAL(st.moved, 0);
	CU_ASSERT_EQUAL(snapshot_segment_count(second), 1);
	CU_ASSERT_STRING_EQUAL(snapshot_segment_name(second, 0), snapshot_segment_name(first, 0));
	same_entries(first, second);
	snapshot_close(first);
	snapshot_close(second);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* Replaces the first "from" in the file at dir/rel with "to". */
static void edit(const char *root, const char *rel, const char *from, const char *to)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char text[65536];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	char *at = strstr(text, from);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	f = fopen(path, "w");
	fwrite(text, 1, (size_t)(at - text), f);
	fputs(to, f);
	fputs(at + strlen(from), f);
	fclose(f);
}

/* An edit renders only the entries whose rendering reads what changed,
 * and the result reads as a whole build of the edited site does. */
static void test_an_edit_renders_what_it_changes(void)
{
	char *dir = unit_tempdir();
	char *root = copy_of_fixture(dir);
	struct config cfg;
	config_at(&cfg, root);
	struct snapshot_build_stats st;
	struct snapshot *last = build_files(&cfg, dir, "h0", NULL, &st);
	uint32_t n = snap_entry_count(last);
	/* A body: that entry, and the localization that inherits it. */
	edit(root, "content/collections/blog/en/2024-01-10.hello-world.md", "First post.",
	     "First post, edited.");
	struct snapshot *next = build_files(&cfg, dir, "h1", last, &st);
	CU_ASSERT_EQUAL(st.rendered, 2);
	CU_ASSERT_EQUAL(st.reused, n - 2);
	struct snapshot *whole = unit_snapshot(&cfg);
	same_entries(whole, next);
	snapshot_close(whole);
	snapshot_close(last);
	last = next;
	/* A title other entries' relations show: they are rendered too, and
	 * read as a whole build does. */
	edit(root, "content/collections/pages/en/about.md", "title: About", "title: About us");
	next = build_files(&cfg, dir, "h2", last, &st);
	CU_ASSERT_TRUE(st.rendered > 1 && st.rendered < n);
	whole = unit_snapshot(&cfg);
	same_entries(whole, next);
	snapshot_close(whole);
	snapshot_close(last);
	snapshot_close(next);
	config_free(&cfg);
	free(root);
	unit_rmtree(dir);
	free(dir);
}

/* Edit after edit, the segments stay within 1.25 times what the live
 * blobs take (plus the newest segment): a segment mostly dead is given up,
 * its live blobs copied. */
static void test_dead_bytes_are_bounded(void)
{
	char *dir = unit_tempdir();
	char *root = copy_of_fixture(dir);
	struct config cfg;
	config_at(&cfg, root);
	struct snapshot_build_stats st;
	struct snapshot *last = build_files(&cfg, dir, "h", NULL, &st);
	uint32_t moved = 0;
	char from[64] = "First post.", to[64];
	for (int i = 0; i < 40; i++) {
		snprintf(to, sizeof to, "First post, version %d.", i);
		edit(root, "content/collections/blog/en/2024-01-10.hello-world.md", from, to);
		strcpy(from, to);
		struct snapshot *next = build_files(&cfg, dir, "h", last, &st);
		moved += st.moved;
		uint64_t segments, live;
		snapshot_space(next, &segments, &live);
		CU_ASSERT_TRUE(segments - live <= live / 4 + 4096);
		snapshot_close(last);
		last = next;
	}
	CU_ASSERT_TRUE(moved > 0);
	struct snapshot *whole = unit_snapshot(&cfg);
	same_entries(whole, last);
	snapshot_close(whole);
	snapshot_close(last);
	config_free(&cfg);
	free(root);
	unit_rmtree(dir);
	free(dir);
}

void suite_snapshot(void)
{
	CU_pSuite s = unit_add_suite("snapshot");
	unit_add_test(s, "counts, sites, collections", test_counts_sites_collections);
	unit_add_test(s, "entries", test_entries);
	unit_add_test(s, "published entries in date order", test_published_in_date_order);
	unit_add_test(s, "problems", test_problems);
	unit_add_test(s, "damage is refused", test_damage_is_refused);
	unit_add_test(s, "save and map", test_save_and_map);
	unit_add_test(s, "built to files, read as in memory", test_files_read_as_memory);
	unit_add_test(s, "nothing changed, nothing rendered", test_nothing_changed_nothing_rendered);
	unit_add_test(s, "a new config renders every entry", test_new_config_renders_all);
	unit_add_test(s, "an edit renders what it changes", test_an_edit_renders_what_it_changes);
	unit_add_test(s, "dead bytes are bounded", test_dead_bytes_are_bounded);
}
