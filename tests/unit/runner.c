/*
 * The unit-test runner: registers every suite, runs them, and exits
 * non-zero when any test or any suite set-up failed. CUnit's own return
 * value says nothing about failed tests, and its counters reset on
 * cleanup, so they are read first.
 */
#include "autoconfig.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/api.h"
#include "app/app.h"
#include "core/config.h"
#include "lib/jsonw.h"
#include "lib/strbuf.h"
#include "site/index.h"
#include "site/snapshot.h"
#include "unit.h"

CU_pSuite unit_add_suite(const char *name)
{
	CU_pSuite s = CU_add_suite(name, NULL, NULL);
	if (!s) {
		fprintf(stderr, "cannot add suite %s: %s\n", name, CU_get_error_msg());
		exit(EXIT_FAILURE);
	}
	return s;
}

void unit_add_test(CU_pSuite suite, const char *name, CU_TestFunc fn)
{
	if (!CU_add_test(suite, name, fn)) {
		fprintf(stderr, "cannot add test %s: %s\n", name, CU_get_error_msg());
		exit(EXIT_FAILURE);
	}
}

char *unit_tempdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/cms-api-unit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(path)) {
		perror("mkdtemp");
		exit(EXIT_FAILURE);
	}
	return strdup(path);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

char *unit_read_file(const char *path, const char *if_missing)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return if_missing ? xstrdup(if_missing) : NULL;
	struct strbuf text = STRBUF_INIT;
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		strbuf_add(&text, chunk, n);
	fclose(f);
	return strbuf_detach(&text, NULL);
}

void unit_rmtree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_parents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0755);
		*p = '/';
		if (rc != 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

int unit_write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (make_parents(path) != 0)
		return -1;
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	size_t n = strlen(text);
	int rc = fwrite(text, 1, n, f) == n ? 0 : -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

#define NOBODY 65534

int unit_run_unprivileged(const char *dir, void (*fn)(const char *dir))
{
	bool root = geteuid() == 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (root && d && (e = readdir(d)) != NULL) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && chown(path, NOBODY, NOBODY) != 0)
			return -1;
	}
	if (d)
		closedir(d);
	if (chmod(dir, 0555) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		if (root && (setgid(NOBODY) != 0 || setuid(NOBODY) != 0))
			_exit(2);
		fn(dir);
		_exit(0);
	}
	int status = -1;
	if (pid > 0)
		waitpid(pid, &status, 0);
	chmod(dir, 0700);
	return pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void unit_handle(struct app *app, const struct request *req, struct response *res)
{
	struct exchange x;
	exchange_init(&x);
	exchange_begin(&x, req, res);
	app_handle(app, &x);
	exchange_free(&x);
}

struct snapshot *unit_snapshot(const struct config *cfg)
{
	struct site_index *idx = site_index_load(cfg);
	struct strbuf bytes = STRBUF_INIT;
	snapshot_write(idx, 1, &bytes);
	site_index_free(idx);
	size_t len;
	char *data = strbuf_detach(&bytes, &len);
	char err[SNAP_ERR_LEN];
	struct snapshot *s = snapshot_from_bytes(data, len, err);
	if (!s) {
		fprintf(stderr, "unit_snapshot: %s\n", err);
		exit(EXIT_FAILURE);
	}
	return s;
}

char *unit_render(const struct snapshot *s, value_t v, long long now, const struct config *cfg)
{
	struct config defaults;
	config_init_defaults(&defaults);
	struct api_ctx ctx = {.cfg = cfg ? cfg : &defaults, .snap = s, .now = now};
	ctx.env = (struct jsonw_env){"http://h", "http://h/api", api_write_ref, &ctx};
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	jsonw_set_env(&w, &ctx.env);
	jsonw_value(&w, v);
	config_free(&defaults);
	return strbuf_detach(&out, NULL);
}

/* run-unit [SUITE]: every suite, or the one named. */
int main(int argc, char **argv)
{
	if (CU_initialize_registry() != CUE_SUCCESS) {
		fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
		return EXIT_FAILURE;
	}
	suite_value();
	suite_php();
	suite_log();
	suite_progress();
	suite_jsonw();
	suite_yaml();
	suite_frontmatter();
	suite_config();
	suite_request();
	suite_site();
	suite_entries();
	suite_corpora();
	suite_snapshot();
	suite_markdown();
	suite_bard();
	suite_watch();
	suite_extras();
	suite_augment();
	suite_relations();
	suite_filter();
	suite_sort();
	suite_paginate();
	suite_property();
	suite_app();
	suite_cache();
	suite_corpus_api();
	suite_sha256();
	suite_tags();
	suite_journal();
	suite_tokens();
	suite_regex();
	suite_hostile();
	suite_netaddr();
	suite_ratelimit();
	suite_pool();
	suite_access();
	suite_cache_plugin();
	suite_cache_redis();
	suite_fastpath();
	suite_images();
	suite_http_cache();
	suite_renders();
	suite_fcgi();
	suite_publish();
	suite_router();
	suite_response();
	suite_guard();
	suite_consttime();
	suite_cache_entry();
	suite_cache_file();
	suite_queries();
	suite_statamic();
	suite_phparray();

	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_pSuite only = argc > 1 ? CU_get_suite(argv[1]) : NULL;
	if (argc > 1 && !only) {
		fprintf(stderr, "no suite named %s\n", argv[1]);
		CU_cleanup_registry();
		return EXIT_FAILURE;
	}
	if (only)
		CU_basic_run_suite(only);
	else
		CU_basic_run_tests();
	unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
	unsigned ran = CU_get_number_of_tests_run();
	CU_cleanup_registry();
	if (ran == 0) {
		fprintf(stderr, "no unit test ran\n");
		return EXIT_FAILURE;
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
