/* Unit tests: entries and trees of the site index (tests/fixtures/site). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "site/entries.h"
#include "site/index.h"
#include "site/status.h"
#include "unit.h"

static struct config cfg;
static struct site_index *idx;

static const struct entry *entry(const char *id)
{
	const struct entry *e = site_index_entry(idx, id);
	CU_ASSERT_PTR_NOT_NULL(e);
	return e;
}

static const char *field(const struct entry *e, const char *key)
{
	return value_str(entry_field(idx, e, key), NULL);
}

static void test_load(void)
{
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/site");
	idx = site_index_load(&cfg);
	CU_ASSERT_EQUAL(idx->nentries, 11);
	CU_ASSERT_EQUAL(site_index_collection(idx, "blog")->nentries, 6);
	CU_ASSERT_EQUAL(site_index_collection(idx, "pages")->nentries, 4);
}

static void test_file_name_grammar(void)
{
	const struct entry *e = entry("1f2e3d4c-0000-4000-8000-000000000001");
	CU_ASSERT_STRING_EQUAL(e->slug, "hello-world");
	CU_ASSERT_TRUE(e->has_date);
	CU_ASSERT_EQUAL(e->date, 1704844800); /* 2024-01-10 00:00 UTC */
	e = entry("1f2e3d4c-0000-4000-8000-000000000003");
	CU_ASSERT_STRING_EQUAL(e->slug, "launch");
	CU_ASSERT_EQUAL(e->date, 1706797800); /* 2024-02-01 14:30 UTC */
	/* ".1" tells duplicate slugs apart and is not part of the slug. */
	e = entry("cms-api-09f8fdf6d07dd302");
	CU_ASSERT_STRING_EQUAL(e->slug, "no-id");
	/* Undated collections drop nothing they do not have. */
	CU_ASSERT_STRING_EQUAL(entry("about")->slug, "about");
	CU_ASSERT_FALSE(entry("about")->has_date);
}

static void test_sites_from_folders(void)
{
	const struct entry *de = entry("1f2e3d4c-0000-4000-8000-000000000002");
	CU_ASSERT_STRING_EQUAL(idx->sites[de->site].handle, "de");
	CU_ASSERT_STRING_EQUAL(de->slug, "hallo-welt");
	CU_ASSERT_STRING_EQUAL(idx->sites[entry("about")->site].handle, "en");
}

static void test_ids_made_up_and_duplicates(void)
{
	bool made_up = false, duplicate = false;
	for (size_t i = 0; i < idx->files.nproblems; i++) {
		const struct problem *p = &idx->files.problems[i];
		CU_ASSERT_TRUE(p->warning);
		if (strstr(p->message, "no id; using cms-api-09f8fdf6d07dd302"))
			made_up = strcmp(p->path, "content/collections/blog/en/2024-04-01.no-id.1.md") == 0;
		if (strstr(p->message, "duplicate id"))
			duplicate = strcmp(p->path, "content/collections/blog/en/2024-03-01.copy.md") == 0;
	}
	CU_ASSERT_TRUE(made_up);
	CU_ASSERT_TRUE(duplicate);
	/* The first file in path order keeps the id. */
	CU_ASSERT_STRING_EQUAL(field(entry("1f2e3d4c-0000-4000-8000-000000000001"), "title"),
	                       "Hello World");
}

static void test_localization_values(void)
{
	const struct entry *de = entry("1f2e3d4c-0000-4000-8000-000000000002");
	CU_ASSERT_PTR_EQUAL(de->origin, entry("1f2e3d4c-0000-4000-8000-000000000001"));
	CU_ASSERT_STRING_EQUAL(field(de, "title"), "Hallo Welt");
	CU_ASSERT_STRING_EQUAL(field(de, "author"), "Ada");         /* from the origin */
	CU_ASSERT_STRING_EQUAL(field(de, "content"), "First post.\n"); /* empty body inherits */
	CU_ASSERT_STRING_EQUAL(field(de, "layout"), "post");        /* from inject */
	CU_ASSERT_TRUE(value_is_missing(entry_field(idx, de, "nothing")));
	/* id, origin and published are lifted out of the data. */
	CU_ASSERT_TRUE(value_is_missing(value_map_getz(de->own, "origin")));
	CU_ASSERT_TRUE(value_is_missing(value_map_getz(de->own, "published")));
	/* A localization's own author hides inject; published is not inherited. */
	CU_ASSERT_STRING_EQUAL(field(entry("1f2e3d4c-0000-4000-8000-000000000003"), "author"),
	                       "The Team");
	CU_ASSERT_FALSE(de->published);
	CU_ASSERT_TRUE(de->origin->published);
}

/* The one status rule (status.h) over an index entry's facts. */
static enum entry_status entry_status(const struct site_index *index, const struct entry *e,
                                      long long now)
{
	const struct collection_info *c = &index->collections[e->collection];
	struct status_facts f = {e->published, c->dated && e->has_date, e->date, c->future_private,
	                         c->past_private};
	return entry_status_at(&f, now);
}

static void test_dates_and_status(void)
{
	long long now = 1735689600; /* 2025-01-01 */
	const struct entry *de = entry("1f2e3d4c-0000-4000-8000-000000000002");
	CU_ASSERT_EQUAL(entry_status(idx, de, now), ENTRY_DRAFT);
	CU_ASSERT_EQUAL(entry_status(idx, entry("1f2e3d4c-0000-4000-8000-000000000004"), now),
	                ENTRY_SCHEDULED);
	CU_ASSERT_EQUAL(entry_status(idx, entry("1f2e3d4c-0000-4000-8000-000000000003"), now),
	                ENTRY_PUBLISHED);
	CU_ASSERT_STRING_EQUAL(entry_status_name(ENTRY_EXPIRED), "expired");
	struct status_facts past = {true, true, now - 1, false, true};
	CU_ASSERT_EQUAL(entry_status_at(&past, now), ENTRY_EXPIRED);
	past.past_private = false;
	CU_ASSERT_EQUAL(entry_status_at(&past, now), ENTRY_PUBLISHED);
	struct status_facts undated_collection = {true, false, now + 1000, true, true};
	CU_ASSERT_EQUAL(entry_status_at(&undated_collection, now), ENTRY_PUBLISHED);
	/* No date in the name: updated_at (2023-11-14 22:13:20), at the start
	 * of its day, since the blueprint's date field shows no time. */
	const struct entry *undated = entry("1f2e3d4c-0000-4000-8000-000000000005");
	CU_ASSERT_TRUE(undated->has_date);
	CU_ASSERT_EQUAL(undated->date, 1699920000);
	CU_ASSERT_EQUAL(entry_status(idx, entry("about"), now), ENTRY_PUBLISHED);
}

static void test_tree_order_and_parents(void)
{
	const struct entry *home = entry("home"), *about = entry("about"), *team = entry("team"),
	                   *contact = entry("contact");
	CU_ASSERT_EQUAL(home->order, 1);
	CU_ASSERT_EQUAL(about->order, 2);
	CU_ASSERT_EQUAL(team->order, 3);
	CU_ASSERT_PTR_EQUAL(team->parent, about);
	CU_ASSERT_EQUAL(team->depth, 2);
	/* Missing from the tree: appended at the top level. Foreign, repeated
	 * and unknown ids are dropped. */
	CU_ASSERT_EQUAL(contact->order, 4);
	CU_ASSERT_EQUAL(contact->depth, 1);
	CU_ASSERT_PTR_NULL(contact->parent);
	CU_ASSERT_EQUAL(entry("1f2e3d4c-0000-4000-8000-000000000001")->order, -1);
}

static void test_uris(void)
{
	CU_ASSERT_STRING_EQUAL(entry("home")->uri, "/");
	CU_ASSERT_STRING_EQUAL(entry("about")->uri, "/about");
	CU_ASSERT_STRING_EQUAL(entry("team")->uri, "/about/team");
	CU_ASSERT_STRING_EQUAL(entry("1f2e3d4c-0000-4000-8000-000000000001")->uri,
	                       "/blog/2024/hello-world");
	CU_ASSERT_STRING_EQUAL(entry("docs-intro")->uri, "/intro"); /* {mount} of home is / */
}

static void test_cleanup(void)
{
	site_index_free(idx);
	config_free(&cfg);
}

/* --- temporary sites --- */

/* Writes files (name, text pairs, NULL-ended) into a new folder and
 * loads it; *dir is the folder, for unit_rmtree. */
static struct site_index *load_written(struct config *c, char **dir, const char *const *files)
{
	*dir = unit_tempdir();
	for (size_t i = 0; files[i]; i += 2)
		CU_ASSERT_EQUAL(unit_write_file(*dir, files[i], files[i + 1]), 0);
	config_init_defaults(c);
	free(c->content_root);
	c->content_root = strdup(*dir);
	return site_index_load(c);
}

static void drop_written(struct config *c, char *dir, struct site_index *i)
{
	site_index_free(i);
	config_free(c);
	unit_rmtree(dir);
	free(dir);
}

static void test_slug_ends_at_first_dot(void)
{
	static const char *const files[] = {
		"content/collections/news.yaml", "date: true\n",
		"content/collections/news/2024-01-10.llms.txt.md", "---\nid: a\n---\n",
		"content/collections/news/notes.v2.md", "---\nid: b\n---\n",
		NULL};
	struct config c;
	char *dir;
	struct site_index *i = load_written(&c, &dir, files);
	const struct entry *a = site_index_entry(i, "a"), *b = site_index_entry(i, "b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	/* Statamic's GetSlugFromPath: the first part, or the second after a date. */
	CU_ASSERT_STRING_EQUAL(a->slug, "llms");
	CU_ASSERT_EQUAL(a->date, 1704844800);
	CU_ASSERT_STRING_EQUAL(b->slug, "notes");
	drop_written(&c, dir, i);
}

/* 2023-11-14 22:13:20 UTC, and its minute and its day. */
#define CHANGED 1700000000LL
#define CHANGED_MINUTE 1699999980LL
#define CHANGED_DAY 1699920000LL

static void test_undated_entry_dates(void)
{
	static const char *const files[] = {
		"resources/sites.yaml", "en: {url: /}\nde: {url: /de}\n",
		"config/statamic/system.php", "<?php return ['multisite' => true];\n",
		"content/collections/news.yaml", "date: true\nsites: [en, de]\n",
		"content/collections/clock.yaml", "date: true\n",
		"content/collections/watch.yaml", "date: true\n",
		"resources/blueprints/collections/clock/clock.yaml",
		"fields:\n  - {handle: date, field: {type: date, time_enabled: true}}\n",
		"resources/blueprints/collections/watch/watch.yaml",
		"fields:\n  - {handle: date, field: {type: date, time_enabled: true,"
		" time_seconds_enabled: true}}\n",
		"content/collections/news/en/day.md", "---\nid: day\nupdated_at: 1700000000\n---\n",
		"content/collections/news/en/2024-01-10.dated.md", "---\nid: dated\n---\n",
		"content/collections/news/de/tag.md", "---\nid: tag\norigin: day\n---\n",
		"content/collections/news/de/datiert.md", "---\nid: datiert\norigin: dated\n---\n",
		"content/collections/clock/en/minute.md", "---\nid: minute\nupdated_at: 1700000000\n---\n",
		"content/collections/watch/en/second.md", "---\nid: second\nupdated_at: 1700000000\n---\n",
		NULL};
	struct config c;
	char *dir;
	struct site_index *i = load_written(&c, &dir, files);
	const char *ids[] = {"day", "tag", "datiert", "minute", "second"};
	const long long want[] = {CHANGED_DAY, CHANGED_DAY, 1704844800, CHANGED_MINUTE, CHANGED};
	for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
		const struct entry *e = site_index_entry(i, ids[k]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_TRUE(e->has_date);
		if (e->date != want[k])
			fprintf(stderr, "%s: %lld, not %lld\n", ids[k], e->date, want[k]);
		CU_ASSERT_EQUAL(e->date, want[k]);
	}
	drop_written(&c, dir, i);
}

static void test_entries_of_other_sites_left_out(void)
{
	static const char *const files[] = {
		"resources/sites.yaml", "en: {url: /}\nde: {url: /de}\n",
		"config/statamic/system.php", "<?php return ['multisite' => true];\n",
		"content/collections/pages.yaml", "title: Pages\n",
		"content/collections/pages/en/a.md", "---\nid: a\n---\n",
		"content/collections/pages/de/b.md", "---\nid: b\n---\n",
		NULL};
	struct config c;
	char *dir;
	struct site_index *i = load_written(&c, &dir, files);
	/* Without `sites` a collection is in the default site alone. */
	CU_ASSERT_PTR_NOT_NULL(site_index_entry(i, "a"));
	CU_ASSERT_PTR_NULL(site_index_entry(i, "b"));
	CU_ASSERT_EQUAL_FATAL(i->files.nproblems, 1);
	CU_ASSERT_TRUE(i->files.problems[0].warning);
	CU_ASSERT_STRING_EQUAL(i->files.problems[0].path, "content/collections/pages/de");
	CU_ASSERT_PTR_NOT_NULL(strstr(i->files.problems[0].message, "not one of the collection's sites"));
	drop_written(&c, dir, i);
}

void suite_entries(void)
{
	CU_pSuite s = unit_add_suite("entries and trees");
	unit_add_test(s, "load", test_load);
	unit_add_test(s, "file-name grammar", test_file_name_grammar);
	unit_add_test(s, "sites from folders", test_sites_from_folders);
	unit_add_test(s, "made-up ids and duplicates", test_ids_made_up_and_duplicates);
	unit_add_test(s, "localization values", test_localization_values);
	unit_add_test(s, "dates and status", test_dates_and_status);
	unit_add_test(s, "tree order and parents", test_tree_order_and_parents);
	unit_add_test(s, "URIs", test_uris);
	unit_add_test(s, "cleanup", test_cleanup);
	unit_add_test(s, "a slug ends at its first dot", test_slug_ends_at_first_dot);
	unit_add_test(s, "dates of undated entries", test_undated_entry_dates);
	unit_add_test(s, "entries of another site left out", test_entries_of_other_sites_left_out);
}
