/* Unit tests: the index snapshot (write, open, map, read, refuse damage). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

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

void suite_snapshot(void)
{
	CU_pSuite s = unit_add_suite("snapshot");
	unit_add_test(s, "counts, sites, collections", test_counts_sites_collections);
	unit_add_test(s, "entries", test_entries);
	unit_add_test(s, "published entries in date order", test_published_in_date_order);
	unit_add_test(s, "problems", test_problems);
	unit_add_test(s, "damage is refused", test_damage_is_refused);
	unit_add_test(s, "save and map", test_save_and_map);
}
