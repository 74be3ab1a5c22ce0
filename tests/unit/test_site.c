/* Unit tests: site index (sites and collections from the fixture sites). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "lib/strbuf.h"
#include "site/index.h"
#include "unit.h"

static struct site_index *load(const char *root, struct config *cfg)
{
	config_init_defaults(cfg);
	free(cfg->content_root);
	cfg->content_root = strdup(root);
	return site_index_load(cfg);
}

static void test_sites_from_sites_yaml(void)
{
	struct config cfg;
	struct site_index *idx = load(FIXTURES_DIR "/site", &cfg);
	CU_ASSERT_EQUAL_FATAL(idx->nsites, 2);
	CU_ASSERT_STRING_EQUAL(idx->sites[0].handle, "en");
	CU_ASSERT_STRING_EQUAL(idx->sites[0].name, "Example");
	CU_ASSERT_STRING_EQUAL(idx->sites[0].locale, "en_US");
	CU_ASSERT_STRING_EQUAL(idx->sites[0].short_locale, "en");
	CU_ASSERT_STRING_EQUAL(idx->sites[0].url, "/");
	CU_ASSERT_STRING_EQUAL(idx->sites[1].handle, "de");
	/* Antlers in the site config is replaced by cms-api's own setting. */
	CU_ASSERT_STRING_EQUAL(idx->sites[1].name, "Statamic Deutsch");
	CU_ASSERT_STRING_EQUAL(idx->sites[1].url, "/de");
	CU_ASSERT_TRUE(idx->multisite);
	CU_ASSERT_PTR_NOT_NULL(site_index_site(idx, "de"));
	CU_ASSERT_PTR_NULL(site_index_site(idx, "fr"));
	site_index_free(idx);
	config_free(&cfg);
}

static void test_sites_from_ini_without_sites_yaml(void)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/v3-site");
	cfg.sites = calloc(1, sizeof *cfg.sites);
	cfg.nsites = 1;
	cfg.sites[0].handle = strdup("default");
	cfg.sites[0].name = strdup("My Site");
	cfg.sites[0].locale = strdup("fr-CA");
	cfg.sites[0].url = strdup("https://example.fr/");
	struct site_index *idx = site_index_load(&cfg);
	CU_ASSERT_EQUAL_FATAL(idx->nsites, 1);
	CU_ASSERT_STRING_EQUAL(idx->sites[0].name, "My Site");
	CU_ASSERT_STRING_EQUAL(idx->sites[0].short_locale, "fr");
	CU_ASSERT_STRING_EQUAL(idx->sites[0].url, "https://example.fr");
	CU_ASSERT_FALSE(idx->multisite);
	site_index_free(idx);
	config_free(&cfg);
}

static void test_fallback_site(void)
{
	struct config cfg;
	struct site_index *idx = load(FIXTURES_DIR "/v3-site", &cfg);
	CU_ASSERT_EQUAL_FATAL(idx->nsites, 1);
	CU_ASSERT_STRING_EQUAL(idx->sites[0].handle, "default");
	CU_ASSERT_STRING_EQUAL(idx->sites[0].name, "Statamic");
	CU_ASSERT_STRING_EQUAL(idx->sites[0].locale, "en_US");
	CU_ASSERT_STRING_EQUAL(idx->sites[0].url, "/");
	site_index_free(idx);
	config_free(&cfg);
}

static void test_collections(void)
{
	struct config cfg;
	struct site_index *idx = load(FIXTURES_DIR "/site", &cfg);
	CU_ASSERT_EQUAL_FATAL(idx->ncollections, 4);
	CU_ASSERT_STRING_EQUAL(idx->collections[0].handle, "blog");
	CU_ASSERT_STRING_EQUAL(idx->collections[3].handle, "team");
	const struct collection_info *pages = site_index_collection(idx, "pages");
	CU_ASSERT_PTR_NOT_NULL_FATAL(pages);
	CU_ASSERT_TRUE(pages->structured);
	CU_ASSERT_EQUAL(pages->max_depth, 3);
	CU_ASSERT_TRUE(pages->expects_root);
	const struct collection_info *team = site_index_collection(idx, "team");
	CU_ASSERT_STRING_EQUAL(team->title, "Team");
	CU_ASSERT_FALSE(team->expects_root);
	const struct collection_info *blog = site_index_collection(idx, "blog");
	CU_ASSERT_FALSE(blog->structured);
	CU_ASSERT_EQUAL(blog->max_depth, -1);
	CU_ASSERT_TRUE(blog->dated);
	CU_ASSERT_PTR_NULL(blog->mount);
	CU_ASSERT_STRING_EQUAL(site_index_collection(idx, "docs")->mount, "home");
	CU_ASSERT_PTR_NULL(site_index_collection(idx, "nope"));
	CU_ASSERT_EQUAL(files_errors(&idx->files), 0); /* warnings only */
	site_index_free(idx);
	config_free(&cfg);
}

static void test_broken_file_is_a_problem_not_a_failure(void)
{
	struct config cfg;
	struct site_index *idx = load(FIXTURES_DIR "/broken-site", &cfg);
	CU_ASSERT_EQUAL(idx->ncollections, 1);
	CU_ASSERT_STRING_EQUAL(idx->collections[0].handle, "good");
	CU_ASSERT_EQUAL_FATAL(idx->files.nproblems, 1);
	CU_ASSERT_STRING_EQUAL(idx->files.problems[0].path, "content/collections/broken.yaml");
	CU_ASSERT_TRUE(idx->files.problems[0].line >= 2);
	CU_ASSERT_EQUAL(files_errors(&idx->files), 1);
	CU_ASSERT_FALSE(idx->files.problems[0].warning);
	site_index_free(idx);
	config_free(&cfg);
}

static void test_missing_folders_give_an_empty_site(void)
{
	struct config cfg;
	char *dir = unit_tempdir();
	/* A folder without content/ is not a site: never an empty one. */
	struct site_index *idx = load(dir, &cfg);
	CU_ASSERT_PTR_NOT_NULL(idx->files.unreadable);
	CU_ASSERT_EQUAL(files_errors(&idx->files), 1);
	site_index_free(idx);
	config_free(&cfg);
	/* An empty content/ is an empty site. */
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "content/.keep", ""), 0);
	idx = load(dir, &cfg);
	CU_ASSERT_PTR_NULL(idx->files.unreadable);
	CU_ASSERT_EQUAL(idx->ncollections, 0);
	CU_ASSERT_EQUAL(idx->nsites, 1);
	CU_ASSERT_EQUAL(idx->files.nproblems, 0);
	site_index_free(idx);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

void suite_site(void)
{
	CU_pSuite s = unit_add_suite("site index");
	unit_add_test(s, "sites from sites.yaml", test_sites_from_sites_yaml);
	unit_add_test(s, "sites from the INI", test_sites_from_ini_without_sites_yaml);
	unit_add_test(s, "fallback site", test_fallback_site);
	unit_add_test(s, "collections", test_collections);
	unit_add_test(s, "a broken file is a problem", test_broken_file_is_a_problem_not_a_failure);
	unit_add_test(s, "missing folders", test_missing_folders_give_an_empty_site);
}
