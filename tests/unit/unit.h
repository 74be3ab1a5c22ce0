/*
 * unit: the CUnit suites of cms-api, one per module. Each suite_*()
 * registers its suite and tests with CUnit; runner.c calls them all.
 */
#ifndef CMS_API_TEST_UNIT_H
#define CMS_API_TEST_UNIT_H

#include <CUnit/CUnit.h>

#include "lib/value.h"

void suite_value(void);
void suite_php(void);
void suite_log(void);
void suite_progress(void);
void suite_jsonw(void);
void suite_yaml(void);
void suite_frontmatter(void);
void suite_config(void);
void suite_request(void);
void suite_site(void);
void suite_entries(void);
void suite_corpora(void);
void suite_snapshot(void);
void suite_markdown(void);
void suite_bard(void);
void suite_watch(void);
void suite_extras(void);
void suite_augment(void);
void suite_relations(void);
void suite_filter(void);
void suite_sort(void);
void suite_paginate(void);
void suite_property(void);
void suite_app(void);
void suite_cache(void);
void suite_corpus_api(void);
void suite_sha256(void);
void suite_tags(void);
void suite_journal(void);
void suite_tokens(void);
void suite_regex(void);
void suite_hostile(void);
void suite_netaddr(void);
void suite_ratelimit(void);
void suite_pool(void);
void suite_access(void);
void suite_cache_plugin(void);
void suite_cache_redis(void);
void suite_fastpath(void);
void suite_images(void);
void suite_http_cache(void);
void suite_renders(void);
void suite_fcgi(void);
void suite_publish(void);
void suite_router(void);
void suite_response(void);
void suite_guard(void);
void suite_consttime(void);
void suite_cache_entry(void);
void suite_cache_file(void);
void suite_queries(void);
void suite_statamic(void);
void suite_phparray(void);

/* Adds a suite, aborting the run when CUnit cannot (a registry error would
 * otherwise show up as "0 tests run"). */
CU_pSuite unit_add_suite(const char *name);
void unit_add_test(CU_pSuite suite, const char *name, CU_TestFunc fn);

/* A fresh temporary directory for one test (under $TMPDIR), removed with
 * unit_rmtree. The caller frees the returned path. */
char *unit_tempdir(void);
void unit_rmtree(const char *path);
/* The whole file at path as a string the caller frees; when it cannot be
 * opened, a copy of if_missing (NULL: NULL). */
char *unit_read_file(const char *path, const char *if_missing);
/* Writes text to dir/name (creating parent folders). Returns 0 or -1. */
int unit_write_file(const char *dir, const char *name, const char *text);

/* Runs fn(dir) in a child process that file permissions hold for (as
 * root: the user nobody), with dir closed to new files but the files in it
 * left writable to the child. Returns the child's exit status (fn should
 * _exit with 0 on success), -1 when it could not run. */
int unit_run_unprivileged(const char *dir, void (*fn)(const char *dir));

struct config;
struct snapshot;
struct app;
struct request;
struct response;

/* Answers req into res through app's whole pipeline (app_handle), as a
 * request of its own, without app_finish. */
void unit_handle(struct app *app, const struct request *req, struct response *res);

/* The snapshot of the site cfg names, as workers map it (in memory). */
struct snapshot *unit_snapshot(const struct config *cfg);

/* A value as a response writes it: URLs below http://h, references through
 * the API's writer at moment now with the excluded keys of cfg (NULL:
 * none). The caller frees the text. */
char *unit_render(const struct snapshot *s, value_t v, long long now, const struct config *cfg);

#endif
