/*
 * Unit tests over the real Statamic sites in ../shared/corpora, run when
 * that folder exists (CORPORA_DIR): what the index reads from each.
 */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/config.h"
#include "lib/strbuf.h"
#include "site/entries.h"
#include "site/index.h"
#include "unit.h"

static struct config cfg;

static struct site_index *open_corpus(const char *name)
{
	config_init_defaults(&cfg);
	free(cfg.content_root);
	struct strbuf root = STRBUF_INIT;
	strbuf_addf(&root, "%s/%s", CORPORA_DIR, name);
	cfg.content_root = strbuf_detach(&root, NULL);
	return site_index_load(&cfg);
}

static void close_corpus(struct site_index *idx)
{
	site_index_free(idx);
	config_free(&cfg);
}

static size_t errors_of(const struct site_index *idx)
{
	for (size_t i = 0; i < idx->files.nproblems; i++) {
		const struct problem *p = &idx->files.problems[i];
		if (!p->warning)
			fprintf(stderr, "%s:%d: %s\n", p->path, p->line, p->message);
	}
	return files_errors(&idx->files);
}

static uint32_t count_of(const struct site_index *idx, const char *kind)
{
	return value_count(value_map_getz(vb_result(&idx->extras), kind));
}

/* The number of terms of a taxonomy, or of sites of a global set. */
static uint32_t count_in(const struct site_index *idx, const char *kind, const char *handle,
                         const char *key)
{
	struct value_iter it;
	value_iter_init(&it, value_map_getz(vb_result(&idx->extras), kind));
	while (value_iter_next(&it))
		if (strcmp(value_str(value_map_getz(it.value, "handle"), NULL), handle) == 0)
			return value_count(value_map_getz(it.value, key));
	return 0;
}

static const char *title_of(const struct site_index *idx, const struct entry *e)
{
	return value_str(entry_field(idx, e, "title"), NULL);
}

static void test_amplitude_docs(void)
{
	struct site_index *idx = open_corpus("amplitude-docs");
	CU_ASSERT_EQUAL(errors_of(idx), 0);
	CU_ASSERT_EQUAL(idx->nsites, 2);
	CU_ASSERT_TRUE(idx->multisite);
	CU_ASSERT_EQUAL(idx->ncollections, 75);
	CU_ASSERT_EQUAL(idx->nentries, 1336); /* 1337 files, one id twice */
	CU_ASSERT_EQUAL(site_index_collection(idx, "faq_and_troubleshooting")->nentries, 43);
	CU_ASSERT_EQUAL(site_index_collection(idx, "japanese_translation")->nentries, 225);

	/* A localization with only id and origin inherits its title. */
	const struct entry *jp = site_index_entry(idx, "154c8a91-7d17-4e1f-8bc0-e1ef4da17144");
	CU_ASSERT_PTR_NOT_NULL_FATAL(jp);
	CU_ASSERT_STRING_EQUAL(idx->sites[jp->site].handle, "jp");
	CU_ASSERT_STRING_EQUAL(title_of(idx, jp), "Amplitude Documentation");
	CU_ASSERT_FALSE(jp->published);

	/* The root page of the pages tree. */
	const struct entry *root = site_index_entry(idx, "34cde5a0-0c7a-46b7-ac73-a0e306bb0b95");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_EQUAL(root->order, 1);
	CU_ASSERT_STRING_EQUAL(root->uri, "/");

	/* A slug ends at its first dot, as Statamic's GetSlugFromPath reads
	 * llms.txt.md (its answer is "llms"); a ".1" suffix is no part of it. */
	const struct entry *llms = site_index_entry(idx, "a33a48e3-8998-47f2-97d0-a74438ee271f");
	CU_ASSERT_STRING_EQUAL(llms->slug, "llms");
	const struct entry *t1 = site_index_entry(idx, "fae16c5f-829d-4525-a06c-e5f9f06ebbf8");
	CU_ASSERT_STRING_EQUAL(t1->slug, "title");

	/* CRLF line endings. */
	const struct entry *crlf = site_index_entry(idx, "3cd45c2f-5f47-4c44-a2f4-df1395935d51");
	CU_ASSERT_STRING_EQUAL(title_of(idx, crlf), "Accoil (Event Stream)");

	/* A {{ field }} route. */
	const struct entry *survey = site_index_entry(idx, "62b666ba-914a-4449-8754-142521b44544");
	CU_ASSERT_STRING_EQUAL(survey->uri, "/guides-and-surveys/surveys/analyze-a-survey");

	CU_ASSERT_EQUAL(count_of(idx, "taxonomies"), 2);
	CU_ASSERT_EQUAL(count_in(idx, "taxonomies", "integration_category", "terms"), 20);
	CU_ASSERT_EQUAL(count_in(idx, "taxonomies", "integration_type", "terms"), 11);
	CU_ASSERT_EQUAL(count_of(idx, "navs"), 27); /* trees without a nav file are ignored */
	CU_ASSERT_EQUAL(count_of(idx, "globals"), 4);
	CU_ASSERT_EQUAL(count_in(idx, "globals", "site_footer", "sites"), 1); /* en only */
	CU_ASSERT_EQUAL(count_of(idx, "forms"), 0);
	close_corpus(idx);
}

static void test_bedrock(void)
{
	struct site_index *idx = open_corpus("bedrock");
	CU_ASSERT_EQUAL(errors_of(idx), 0);
	CU_ASSERT_EQUAL(idx->nsites, 1);
	CU_ASSERT_STRING_EQUAL(idx->sites[0].handle, "default");
	CU_ASSERT_EQUAL(idx->nentries, 38);
	const struct entry *results = site_index_entry(idx, "d50dbcf7-2ed9-4a10-91c5-5b5557d694ea");
	CU_ASSERT_PTR_NOT_NULL_FATAL(results);
	CU_ASSERT_STRING_EQUAL(results->uri, "/search/results");
	CU_ASSERT_EQUAL(results->depth, 2);
	CU_ASSERT_STRING_EQUAL(site_index_entry(idx, "home")->uri, "/");
	const struct entry *post = site_index_entry(idx, "0c78480a-f6ae-40f9-bcdf-a415ecf2964a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(post);
	CU_ASSERT_STRING_EQUAL(post->uri,
	                       "/posts/beyond-acquisition-strategies-to-keep-customers-coming-back");
	CU_ASSERT_EQUAL(post->date, 1659398400); /* 2022-08-02 */
	CU_ASSERT_EQUAL(count_in(idx, "taxonomies", "categories", "terms"), 5);
	CU_ASSERT_EQUAL(count_of(idx, "navs"), 3);
	CU_ASSERT_EQUAL(count_of(idx, "globals"), 8); /* v6: values in globals/default/ */
	CU_ASSERT_EQUAL(count_in(idx, "globals", "theme", "sites"), 1);
	CU_ASSERT_EQUAL(count_of(idx, "forms"), 1);
	close_corpus(idx);
}

static void test_brand0n_gg(void)
{
	struct site_index *idx = open_corpus("brand0n-gg");
	CU_ASSERT_EQUAL(errors_of(idx), 0);
	CU_ASSERT_EQUAL(idx->nentries, 5);
	/* Dated and structured at once: the root page keeps its date. */
	const struct entry *home = site_index_entry(idx, "home");
	CU_ASSERT_PTR_NOT_NULL_FATAL(home);
	CU_ASSERT_STRING_EQUAL(home->uri, "/");
	CU_ASSERT_STRING_EQUAL(home->slug, "home");
	CU_ASSERT_EQUAL(home->date, 1625875200); /* 2021-07-10 */
	CU_ASSERT_STRING_EQUAL(site_index_entry(idx, "1a228bd0-31d3-4341-9aa3-208849ad3f75")->uri,
	                       "/apex");
	CU_ASSERT_EQUAL(count_of(idx, "globals"), 7);
	CU_ASSERT_EQUAL(count_in(idx, "globals", "seo", "sites"), 1); /* v3 data: */
	CU_ASSERT_EQUAL(count_of(idx, "users"), 1);
	value_t admin = value_array_get(value_map_getz(vb_result(&idx->extras), "users"), 0);
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(admin, "email"), NULL), "admin@example.com");
	CU_ASSERT_EQUAL(value_count(admin), 4); /* no password hash, ever */
	close_corpus(idx);
}

static void test_inertia_vue_theme(void)
{
	/* A v3 site: its sites live in PHP, so the INI declares them. */
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(CORPORA_DIR "/inertia-vue-theme");
	cfg.sites = calloc(2, sizeof *cfg.sites);
	cfg.nsites = 2;
	cfg.sites[0] = (struct site_def){strdup("default"), strdup("Deutsch"), strdup("de"),
	                                  strdup("/de"), NULL};
	cfg.sites[1] = (struct site_def){strdup("en"), strdup("English"), strdup("en"),
	                                  strdup("/en"), NULL};
	struct site_index *idx = site_index_load(&cfg);
	CU_ASSERT_EQUAL(errors_of(idx), 0);
	CU_ASSERT_TRUE(idx->multisite);
	CU_ASSERT_EQUAL(idx->nentries, 62);
	size_t localized = 0;
	for (size_t i = 0; i < idx->nentries; i++)
		localized += idx->entries[i].origin != NULL;
	CU_ASSERT_EQUAL(localized, 31);
	/* Per-site values, "origin: default" inheriting everything. */
	CU_ASSERT_EQUAL(count_in(idx, "globals", "website", "sites"), 2);
	CU_ASSERT_EQUAL(count_of(idx, "navs"), 2);
	close_corpus(idx);
}

void suite_corpora(void)
{
	struct stat st;
	if (stat(CORPORA_DIR, &st) != 0) {
		printf("corpora: %s not found; their tests are not registered\n", CORPORA_DIR);
		return;
	}
	CU_pSuite s = unit_add_suite("corpora");
	unit_add_test(s, "amplitude-docs", test_amplitude_docs);
	unit_add_test(s, "bedrock", test_bedrock);
	unit_add_test(s, "brand0n-gg", test_brand0n_gg);
	unit_add_test(s, "inertia-vue-theme", test_inertia_vue_theme);
}
