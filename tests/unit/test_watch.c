/* Unit tests: watch (event names, signatures, the generation file) and the
 * shared cache files. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "change/generation.h"
#include "change/indexer.h"
#include "change/shared.h"
#include "change/signature.h"
#include "change/watch.h"
#include "core/config.h"
#include "lib/strbuf.h"
#include "site/files.h"
#include "site/snapshot.h"
#include "unit.h"

static void test_event_names(void)
{
	static const struct {
		const char *rel;
		bool deleted;
		const char *want;
	} cases[] = {
		{"content/collections/blog/2024-01-01.a.md", false, "EntrySaved"},
		{"content/collections/blog/en/a.md", true, "EntryDeleted"},
		{"content/collections/blog.yaml", false, "CollectionSaved"},
		{"content/trees/collections/en/pages.yaml", false, "CollectionTreeSaved"},
		{"content/trees/navigation/main.yaml", true, "NavTreeDeleted"},
		{"content/navigation/main.yaml", false, "NavSaved"},
		{"content/taxonomies/tags/news.yaml", false, "TermSaved"},
		{"content/taxonomies/tags.yaml", false, "TaxonomySaved"},
		{"content/globals/default/settings.yaml", false, "GlobalVariablesSaved"},
		{"content/globals/settings.yaml", false, "GlobalSetSaved"},
		{"content/assets/assets.yaml", false, "AssetContainerSaved"},
		{"resources/blueprints/collections/blog/post.yaml", false, "BlueprintSaved"},
		{"resources/fieldsets/seo.yaml", true, "FieldsetDeleted"},
		{"resources/forms/contact.yaml", false, "FormSaved"},
		{"resources/sites.yaml", false, "SiteSaved"},
		{"users/ada@example.com.yaml", false, "UserSaved"},
		{"users/ada@example.com.yaml", true, "UserDeleted"},
		{"content/other/thing.yaml", false, "ContentSaved"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = watch_event_name(cases[i].rel, cases[i].deleted);
		CU_ASSERT_PTR_NOT_NULL_FATAL(got);
		CU_ASSERT_STRING_EQUAL(got, cases[i].want);
	}
	CU_ASSERT_PTR_NULL(watch_event_name("content/collections/blog/.a.md.swp", false));
	CU_ASSERT_PTR_NULL(watch_event_name("content/.git/index", false));
	CU_ASSERT_PTR_NULL(watch_event_name("storage/forms/contact/1.yaml", false));
}

static void test_ignored_events(void)
{
	struct config cfg;
	config_init_defaults(&cfg);
	CU_ASSERT_TRUE(watch_event_ignored(&cfg, "UserSaved"));
	CU_ASSERT_TRUE(watch_event_ignored(&cfg, "UserDeleted"));
	CU_ASSERT_FALSE(watch_event_ignored(&cfg, "EntrySaved"));
	config_free(&cfg);
}

static uint64_t signature_of(const char *root)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(root);
	uint64_t sig = content_signature(&cfg);
	config_free(&cfg);
	return sig;
}

static void test_signature(void)
{
	char *dir = unit_tempdir();
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "content/collections/blog.yaml", "title: Blog\n"), 0);
	uint64_t a = signature_of(dir), b = signature_of(dir);
	CU_ASSERT_EQUAL(a, b);
	unit_write_file(dir, "content/collections/blog/a.md", "---\nid: a\n---\n");
	uint64_t c = signature_of(dir);
	CU_ASSERT_NOT_EQUAL(a, c);
	/* A dot file is invisible to Statamic, so it changes nothing. */
	unit_write_file(dir, "content/collections/blog/.a.md.swp", "x");
	CU_ASSERT_EQUAL(signature_of(dir), c);
	/* Same size, new contents and time. */
	unit_write_file(dir, "content/collections/blog.yaml", "title: Blob\n");
	char path[512];
	snprintf(path, sizeof path, "%s/content/collections/blog.yaml", dir);
	struct stat st;
	stat(path, &st);
	CU_ASSERT_NOT_EQUAL(signature_of(dir), c);
	/* What the index reads of the config is signed too: the snapshot is
	 * made with it. */
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(dir);
	uint64_t before = content_signature(&cfg);
	cfg.fingerprint ^= 1; /* the INI changed where the index reads nothing */
	CU_ASSERT_EQUAL(content_signature(&cfg), before);
	free(cfg.base_url);
	cfg.base_url = strdup("https://example.org");
	CU_ASSERT_NOT_EQUAL(content_signature(&cfg), before);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* An icon folder of [icons] counts with its own files: a changed icon is
 * read again for the next snapshot. Its subfolders and dot files do not
 * (no icon's name reaches them). */
static void test_signature_of_icon_folders(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = files_join(dir, "site");
	unit_write_file(dir, "site/content/collections/blog.yaml", "title: Blog\n");
	uint64_t without = content_signature(&cfg);
	cfg.icon_sets = calloc(1, sizeof *cfg.icon_sets);
	cfg.nicon_sets = 1;
	cfg.icon_sets[0] = (struct icon_set){strdup("heroicons"), files_join(dir, "svg")};
	unit_write_file(dir, "svg/star.svg", "<svg/>");
	uint64_t with = content_signature(&cfg);
	CU_ASSERT_NOT_EQUAL(with, without);
	unit_write_file(dir, "svg/sub/deep.svg", "<svg/>");
	unit_write_file(dir, "svg/.star.svg.swp", "x");
	CU_ASSERT_EQUAL(content_signature(&cfg), with);
	unit_write_file(dir, "svg/star.svg", "<svg>!</svg>");
	CU_ASSERT_NOT_EQUAL(content_signature(&cfg), with);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* Brought up to date from the files that changed (what a watcher's events
 * name), the signature equals a walk of the whole site: files edited,
 * made and removed, a dot file, a disk's file, a folder. Told nothing of a
 * change, it does not see it: that is the walk's. */
static void test_signature_update(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = files_join(dir, "site");
	cfg.disks = calloc(1, sizeof *cfg.disks);
	cfg.ndisks = 1;
	cfg.disks[0].name = strdup("assets");
	cfg.disks[0].root = files_join(dir, "assets");
	unit_write_file(dir, "site/content/collections/blog.yaml", "title: Blog\n");
	unit_write_file(dir, "site/content/collections/blog/a.md", "---\nid: a\n---\n");
	unit_write_file(dir, "site/users/ada.yaml", "name: Ada\n");
	unit_write_file(dir, "assets/x.jpg", "jpeg");
	struct signature_terms t = SIGNATURE_TERMS_INIT;
	struct strmap changed = STRMAP_INIT;
	/* Never filled: a walk. */
	CU_ASSERT_EQUAL(content_signature_update(&cfg, &t, &changed), content_signature(&cfg));
	const char *edits[][2] = {
		{"site/content/collections/blog/a.md", "---\nid: a\ntitle: longer\n---\n"},
		{"site/content/collections/blog/b.md", "---\nid: b\n---\n"},
		{"site/content/collections/blog/.b.md.swp", "x"},
		{"site/resources/blueprints/collections/blog/post.yaml", "title: Post\n"},
		{"assets/x.jpg", "a larger jpeg"},
		{"assets/.meta/x.jpg.yaml", "data: {}\n"},
		{"site/other/not-signed.yaml", "x: 1\n"},
	};
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		unit_write_file(dir, edits[i][0], edits[i][1]);
		char *abs = files_join(dir, edits[i][0]);
		strmap_put(&changed, abs, "");
		free(abs);
		CU_ASSERT_EQUAL(content_signature_update(&cfg, &t, &changed), content_signature(&cfg));
		strmap_free(&changed);
	}
	char *gone = files_join(dir, "site/users/ada.yaml");
	unlink(gone);
	strmap_put(&changed, gone, "");
	CU_ASSERT_EQUAL(content_signature_update(&cfg, &t, &changed), content_signature(&cfg));
	strmap_free(&changed);
	/* Back again: a term that went is found again. */
	unit_write_file(dir, "site/users/ada.yaml", "name: Ada Lovelace\n");
	strmap_put(&changed, gone, "");
	CU_ASSERT_EQUAL(content_signature_update(&cfg, &t, &changed), content_signature(&cfg));
	strmap_free(&changed);
	free(gone);
	/* Not told: the terms stay as they were. */
	uint64_t told = content_signature(&cfg);
	unit_write_file(dir, "site/content/collections/blog/c.md", "---\nid: c\n---\n");
	CU_ASSERT_EQUAL(content_signature_update(&cfg, &t, &changed), told);
	CU_ASSERT_NOT_EQUAL(content_signature_terms(&cfg, &t), told);
	CU_ASSERT_EQUAL(content_signature_update(&cfg, &t, &changed), content_signature(&cfg));
	signature_terms_free(&t);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* Two machines with the same files (paths, sizes, times) under different
 * roots agree: the signature names the cache's entries in a store they
 * share. */
static void test_signature_is_the_same_elsewhere(void)
{
	char *dir = unit_tempdir();
	const char *files[] = {"content/collections/blog.yaml", "content/collections/blog/a.md",
	                       "users/ada.yaml"};
	struct timespec when[2] = {{1700000000, 123456789}, {1700000000, 123456789}};
	for (int site = 0; site < 2; site++) {
		for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
			char name[256], path[512];
			snprintf(name, sizeof name, "%s/%s", site ? "machine-b/srv/site" : "a", files[i]);
			CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, name, "same bytes\n"), 0);
			snprintf(path, sizeof path, "%s/%s", dir, name);
			CU_ASSERT_EQUAL(utimensat(AT_FDCWD, path, when, 0), 0);
		}
	}
	char a[512], b[512];
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/machine-b/srv/site", dir);
	CU_ASSERT_EQUAL(signature_of(a), signature_of(b));
	unit_rmtree(dir);
	free(dir);
}

/* A config of a site at dir/site (one collection) cached in dir/cache. */
static void site_with_cache(const char *dir, struct config *cfg)
{
	config_init_defaults(cfg);
	free(cfg->content_root);
	free(cfg->cache_dir);
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/site", dir);
	cfg->content_root = strbuf_detach(&b, NULL);
	strbuf_addf(&b, "%s/cache", dir);
	cfg->cache_dir = strbuf_detach(&b, NULL);
	unit_write_file(dir, "site/content/collections/blog.yaml", "title: Blog\n");
}

static void test_generation_file_and_scan(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	struct strbuf b = STRBUF_INIT;

	struct shared_paths paths;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&paths, &cfg), 0); /* creates cache/ */
	struct generation g, first;
	CU_ASSERT_EQUAL(generation_read(paths.generation, &g), -1);
	CU_ASSERT_EQUAL(g.index, 0);
	CU_ASSERT_EQUAL(watch_scan_once(&cfg), 1);
	CU_ASSERT_EQUAL(watch_scan_once(&cfg), 0);
	CU_ASSERT_EQUAL(generation_read(paths.generation, &first), 0);
	CU_ASSERT(first.index > 1000000000000000ULL); /* fresh: the time in microseconds */
	CU_ASSERT_EQUAL(first.cache, first.index);
	CU_ASSERT_EQUAL(first.signature, content_signature(&cfg));
	/* An asset disk counts too, its .meta folders included. */
	cfg.disks = calloc(1, sizeof *cfg.disks);
	cfg.ndisks = 1;
	strbuf_addf(&b, "%s/disk", dir);
	cfg.disks[0] = (struct disk_def){strdup("assets"), strbuf_detach(&b, NULL), NULL};
	unit_write_file(dir, "disk/a.jpg", "jpg");
	uint64_t with_disk = content_signature(&cfg);
	CU_ASSERT_NOT_EQUAL(with_disk, g.signature);
	unit_write_file(dir, "disk/.meta/a.jpg.yaml", "data:\n  alt: A\n");
	CU_ASSERT_NOT_EQUAL(content_signature(&cfg), with_disk);
	CU_ASSERT_EQUAL(watch_scan_once(&cfg), 1);
	unit_write_file(dir, "site/content/collections/news.yaml", "title: News\n");
	CU_ASSERT_EQUAL(watch_scan_once(&cfg), 1);
	generation_read(paths.generation, &g);
	CU_ASSERT_EQUAL(g.index, first.index + 2);
	CU_ASSERT_EQUAL(g.cache, first.cache + 2);

	/* Cleared: the file is made anew with a generation never used. */
	CU_ASSERT_EQUAL(unlink(paths.generation), 0);
	unit_write_file(dir, "site/content/collections/more.yaml", "title: More\n");
	CU_ASSERT_EQUAL(watch_scan_once(&cfg), 1);
	struct generation after;
	CU_ASSERT_EQUAL(generation_read(paths.generation, &after), 0);
	CU_ASSERT(after.index > g.index);
	CU_ASSERT(after.cache > g.cache);
	CU_ASSERT_FALSE(generation_same(&after, &g));

	/* Old snapshots go; the kept one and other sites' stay. (Of
	 * generations 1 to 3 alone: the ones the scans published go first.) */
	shared_remove_old_snapshots(&paths, UINT64_MAX);
	for (uint64_t n = 1; n <= 3; n++) {
		char *p = shared_snapshot_path(&paths, n);
		FILE *f = fopen(p, "w");
		if (f)
			fclose(f);
		free(p);
	}
	shared_remove_old_snapshots(&paths, 3);
	char *p1 = shared_snapshot_path(&paths, 1), *p3 = shared_snapshot_path(&paths, 3);
	CU_ASSERT_NOT_EQUAL(access(p1, F_OK), 0);
	CU_ASSERT_EQUAL(access(p3, F_OK), 0);
	/* A worker that saves generation 2 after another saved 3 removes its
	 * own: the newer one is there. */
	char *p2 = shared_snapshot_path(&paths, 2);
	FILE *late = fopen(p2, "w");
	if (late)
		fclose(late);
	shared_remove_old_snapshots(&paths, 2);
	CU_ASSERT_NOT_EQUAL(access(p2, F_OK), 0);
	CU_ASSERT_EQUAL(access(p3, F_OK), 0);
	free(p1);
	free(p2);
	free(p3);

	/* Two sites in one directory get different files. */
	struct config other;
	config_init_defaults(&other);
	free(other.content_root);
	free(other.cache_dir);
	other.content_root = strdup("/elsewhere");
	other.cache_dir = strdup(cfg.cache_dir);
	struct shared_paths other_paths;
	CU_ASSERT_EQUAL(shared_paths_init(&other_paths, &other), 0);
	CU_ASSERT_STRING_NOT_EQUAL(other_paths.generation, paths.generation);
	shared_paths_free(&other_paths);
	config_free(&other);

	shared_paths_free(&paths);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* Several processes that find the generation file missing at once (the
 * workers a web server starts together, and their watcher): one makes it,
 * the others take it. Were each to write its own, a worker would be left
 * holding a generation replaced a moment later, and its first answers
 * would go uncached while another worker built the index again. */
enum { RACERS = 8 };

/* In a child: waits for the start (the pipe closed), scans, and exits
 * with what the scan returned (1 made, 0 found) and whether the file then
 * held the generation it read right after. */
static void race_scan(const struct config *cfg, int start_fd, int report_fd)
{
	char c;
	while (read(start_fd, &c, 1) > 0)
		;
	int rc = watch_scan_once(cfg);
	struct shared_paths paths;
	struct generation g;
	if (shared_paths_init(&paths, cfg) != 0 || generation_read(paths.generation, &g) != 0)
		_exit(9);
	if (write(report_fd, &g.index, sizeof g.index) != sizeof g.index)
		_exit(9);
	_exit(rc < 0 ? 8 : rc);
}

static void test_first_generation_made_once(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	struct shared_paths paths;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&paths, &cfg), 0);
	for (int round = 0; round < 50; round++) {
		unlink(paths.generation);
		int start[2], report[2];
		CU_ASSERT_EQUAL_FATAL(pipe(start), 0);
		CU_ASSERT_EQUAL_FATAL(pipe(report), 0);
		for (int i = 0; i < RACERS; i++) {
			pid_t pid = fork();
			CU_ASSERT_FATAL(pid >= 0);
			if (pid == 0) {
				close(start[1]);
				close(report[0]);
				race_scan(&cfg, start[0], report[1]);
			}
		}
		close(start[0]);
		close(report[1]);
		close(start[1]); /* all start */
		int made = 0, found = 0, other = 0;
		for (int i = 0; i < RACERS; i++) {
			int status;
			wait(&status);
			int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
			made += code == 1;
			found += code == 0;
			other += code != 0 && code != 1;
		}
		uint64_t seen[RACERS];
		size_t nseen = 0;
		while (nseen < RACERS && read(report[0], &seen[nseen], sizeof seen[0]) == sizeof seen[0])
			nseen++;
		close(report[0]);
		CU_ASSERT_EQUAL(made, 1);
		CU_ASSERT_EQUAL(found, RACERS - 1);
		CU_ASSERT_EQUAL(other, 0);
		struct generation last;
		CU_ASSERT_EQUAL(generation_read(paths.generation, &last), 0);
		CU_ASSERT_EQUAL(nseen, RACERS);
		for (size_t i = 0; i < nseen; i++)
			CU_ASSERT_EQUAL(seen[i], last.index);
	}
	/* One there already is left as it is. */
	struct generation mine = {5, 5, 5, 5, 0, 0}, back;
	CU_ASSERT_EQUAL(generation_create(paths.generation, &mine), -1);
	CU_ASSERT_EQUAL(errno, EEXIST);
	CU_ASSERT_EQUAL(generation_read(paths.generation, &back), 0);
	CU_ASSERT_NOT_EQUAL(back.index, 5);
	shared_paths_free(&paths);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* The record: read back as written; a record caught half written (its
 * check value wrong) or of another version is not read. */
static void test_generation_record(void)
{
	char *dir = unit_tempdir();
	char path[512];
	snprintf(path, sizeof path, "%s/generation-x", dir);
	struct generation g = {1700000000000001ULL, 1700000000000000ULL, 42, UINT64_MAX, 0, 7}, back;
	CU_ASSERT_EQUAL_FATAL(generation_write(path, &g), 0);
	CU_ASSERT_EQUAL(generation_read(path, &back), 0);
	CU_ASSERT_TRUE(generation_same(&g, &back));
	CU_ASSERT_EQUAL(back.signature, 42);
	CU_ASSERT_EQUAL(back.cache_signature, UINT64_MAX);
	CU_ASSERT_EQUAL(back.config_print, 7);
	struct stat st;
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 192); /* the same size whatever the numbers */
	/* One digit changed, as by a write caught half done. */
	FILE *f = fopen(path, "r+");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, (long)strlen("cms-api-generation 5 1"), SEEK_SET);
	fputc('9', f);
	fclose(f);
	CU_ASSERT_EQUAL(generation_read(path, &back), -1);
	CU_ASSERT_EQUAL(back.index, 0);
	unit_write_file(dir, "generation-x", "5 5 42\n"); /* the first format */
	unit_write_file(dir, "generation-x", "cms-api-generation 2 5 5 42 123\n"); /* the second */
	CU_ASSERT_EQUAL(generation_read(path, &back), -1);
	CU_ASSERT_EQUAL(generation_read(path, &back), -1);
	unit_write_file(dir, "generation-x", "cms-api-generation 3 5 5 42 42 17\n"); /* the third */
	CU_ASSERT_EQUAL(generation_read(path, &back), -1);
	unit_write_file(dir, "generation-x", "cms-api-generation 4 5 5 42 42 0 17\n"); /* the fourth */
	CU_ASSERT_EQUAL(generation_read(path, &back), -1);
	/* The flags come back as written. */
	struct generation flagged = {9, 9, 4, 4, GENERATION_NO_SNAPSHOT, 0};
	CU_ASSERT_EQUAL_FATAL(generation_write(path, &flagged), 0);
	CU_ASSERT_EQUAL(generation_read(path, &back), 0);
	CU_ASSERT_EQUAL(back.flags, GENERATION_NO_SNAPSHOT);
	/* Fresh generations come from the clock: never below an older one. */
	struct generation a, b;
	generation_fresh(&a, 1);
	usleep(2000);
	generation_fresh(&b, 1);
	CU_ASSERT(b.index > a.index);
	generation_next(&a, false, 7);
	CU_ASSERT_EQUAL(a.cache + 1, a.index);
	CU_ASSERT_EQUAL(a.signature, 7);
	/* The cache's signature is the one it last moved at: an ignored
	 * change leaves it, so every machine names the entries alike. */
	CU_ASSERT_EQUAL(a.cache_signature, 1);
	generation_next(&a, true, 8);
	CU_ASSERT_EQUAL(a.cache_signature, 8);
	unit_rmtree(dir);
	free(dir);
}

/* With no room to make a new file (here: a folder it may not write in),
 * the record is overwritten in place: content updates never wait for free
 * space. Run as a user file permissions hold for. */
static void check_write_in_place(const char *dir)
{
	char path[512];
	snprintf(path, sizeof path, "%s/generation-y", dir);
	struct generation g = {11, 10, 3, 3, 0, 0}, back;
	if (generation_write(path, &g) != 0 || generation_read(path, &back) != 0 ||
	    !generation_same(&g, &back))
		_exit(1);
	_exit(0);
}

static void test_generation_written_in_place(void)
{
	char *dir = unit_tempdir();
	char path[512];
	snprintf(path, sizeof path, "%s/generation-y", dir);
	struct generation g = {1, 1, 1, 1, 0, 0};
	CU_ASSERT_EQUAL_FATAL(generation_write(path, &g), 0);
	CU_ASSERT_EQUAL(unit_run_unprivileged(dir, check_write_in_place), 0);
	struct generation back;
	CU_ASSERT_EQUAL(generation_read(path, &back), 0);
	CU_ASSERT_EQUAL(back.index, 11);
	unit_rmtree(dir);
	free(dir);
}

static void test_unusable_cache_dir(void)
{
	struct config cfg;
	struct shared_paths paths;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	free(cfg.cache_dir);
	cfg.content_root = strdup("/srv/site");
	cfg.cache_dir = strdup("/nonexistent/parent/cache");
	CU_ASSERT_EQUAL(shared_paths_init(&paths, &cfg), -1);
	config_free(&cfg);
}

/* --- the indexer: the order of a publication ---------------------------- */

/* What the hooks saw of a publication. */
struct seen {
	const char *generation_path;
	struct shared_paths *paths;
	uint64_t named_when_publishing; /* the index generation the file named then */
	uint64_t publishing, moved;     /* the cache generation each was told */
	int order;                      /* 1: publishing came before moved */
	bool snapshot_there;            /* the new snapshot could be mapped then */
};

static struct seen seen;

static void seen_publishing(void *state, const struct config *cfg, uint64_t new_cache)
{
	(void)state;
	(void)cfg;
	struct generation g;
	seen.named_when_publishing = generation_read(seen.generation_path, &g) == 0 ? g.index : 0;
	seen.publishing = new_cache;
	seen.order = seen.moved ? 2 : 1;
	/* The snapshot of the generation to come is there already. */
	char *path = shared_snapshot_path(seen.paths, g.index + 1);
	char err[SNAP_ERR_LEN];
	struct snapshot *snap = snapshot_map(path, err);
	seen.snapshot_there = snap != NULL;
	snapshot_close(snap);
	free(path);
}

static void seen_moved(void *state, const struct config *cfg, const char *event, const char *path,
                       uint64_t old_cache, uint64_t new_cache)
{
	(void)state;
	(void)cfg;
	(void)event;
	(void)path;
	(void)old_cache;
	seen.moved = new_cache;
}

/*
 * A change is published in order: the new snapshot is written, then what
 * answers outside the workers moves (publishing), then the generation
 * file names it, then the cache driver is told (moved). Before, the
 * generation file moved first and the first worker to ask built the
 * snapshot, while the others answered from the old one.
 */
static void test_publication_order(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	struct shared_paths paths;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&paths, &cfg), 0);
	CU_ASSERT_EQUAL(watch_scan_once(&cfg), 1);
	struct generation before, after;
	CU_ASSERT_EQUAL_FATAL(generation_read(paths.generation, &before), 0);
	static const struct watch_hooks hooks = {.publishing = seen_publishing, .moved = seen_moved};
	memset(&seen, 0, sizeof seen);
	seen.generation_path = paths.generation;
	seen.paths = &paths;
	struct indexer x;
	CU_ASSERT_EQUAL_FATAL(indexer_init(&x, &cfg, &hooks, NULL), 0);
	unit_write_file(dir, "site/content/collections/news.yaml", "title: News\n");
	struct indexer_change ch = {true, "CollectionSaved", "content/collections/news.yaml", NULL, 0, NULL};
	CU_ASSERT_EQUAL(indexer_publish(&x, &ch), 1);
	CU_ASSERT_EQUAL_FATAL(generation_read(paths.generation, &after), 0);
	CU_ASSERT_EQUAL(after.index, before.index + 1);
	CU_ASSERT_EQUAL(seen.named_when_publishing, before.index);
	CU_ASSERT_TRUE(seen.snapshot_there);
	CU_ASSERT_EQUAL(seen.publishing, after.cache_signature);
	CU_ASSERT_EQUAL(seen.moved, after.cache_signature);
	CU_ASSERT_EQUAL(seen.order, 1);
	/* An ignored change moves the index generation, not the cache's: the
	 * hooks hear nothing. */
	memset(&seen, 0, sizeof seen);
	seen.generation_path = paths.generation;
	seen.paths = &paths;
	unit_write_file(dir, "site/content/collections/news.yaml", "title: Newer\n");
	struct indexer_change ignored = {false, NULL, NULL, NULL, 0, NULL};
	CU_ASSERT_EQUAL(indexer_publish(&x, &ignored), 1);
	CU_ASSERT_EQUAL(seen.publishing, 0);
	CU_ASSERT_EQUAL(seen.moved, 0);
	indexer_free(&x);
	shared_paths_free(&paths);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* In a child: publishes changes for a while. */
static void publish_changes(const struct config *cfg, const char *dir)
{
	struct indexer x;
	if (indexer_init(&x, cfg, NULL, NULL) != 0)
		_exit(1);
	for (int i = 0; i < 40; i++) {
		char text[64];
		snprintf(text, sizeof text, "title: Blog %d\n", i);
		unit_write_file(dir, "site/content/collections/blog.yaml", text);
		struct indexer_change ch = {true, "CollectionSaved", NULL, NULL, 0, NULL};
		if (indexer_publish(&x, &ch) != 1)
			_exit(2);
	}
	indexer_free(&x);
	_exit(0);
}

/* While changes are published, whatever generation the file names has its
 * snapshot there to map, and the generations only go forward. */
static void test_named_generation_has_its_snapshot(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	struct shared_paths paths;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&paths, &cfg), 0);
	CU_ASSERT_EQUAL(watch_scan_once(&cfg), 1);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0)
		publish_changes(&cfg, dir);
	int reads = 0, missing = 0, backwards = 0, status;
	uint64_t last = 0;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		struct generation g;
		if (generation_read(paths.generation, &g) != 0)
			continue;
		backwards += g.index < last;
		last = g.index;
		char *path = shared_snapshot_path(&paths, g.index), err[SNAP_ERR_LEN];
		struct snapshot *snap = snapshot_map(path, err);
		/* Removed since: a later generation is named by then. */
		struct generation now;
		if (!snap && (generation_read(paths.generation, &now) != 0 || now.index == g.index))
			missing++;
		snapshot_close(snap);
		free(path);
		reads++;
	}
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CU_ASSERT_TRUE(reads > 0);
	CU_ASSERT_EQUAL(missing, 0);
	CU_ASSERT_EQUAL(backwards, 0);
	shared_paths_free(&paths);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* A check that finds news.yaml read half the first time it is asked. */
static int half_checks;

static void news_read_half(void *arg, const struct file_read *reads, size_t nreads,
                           struct strmap *suspects)
{
	(void)arg;
	for (size_t i = 0; i < nreads; i++)
		if (half_checks == 0 && strstr(reads[i].path, "/news.yaml"))
			strmap_put(suspects, reads[i].path, "");
	half_checks++;
}

/* The title of the file rel in the sources of the snapshot the indexer
 * published last. */
static char *published_title(const struct indexer *x, const char *rel)
{
	value_t file = value_map_getz(indexer_sources(x), rel);
	size_t len;
	const char *title = value_str(value_map_getz(file, "title"), &len);
	return title ? strndup(title, len) : NULL;
}

/* Asserts the titles of news.yaml and blog.yaml in the sources of the
 * snapshot the indexer published last. */
static void assert_titles(const struct indexer *x, const char *news_title,
                          const char *blog_title)
{
	char *news = published_title(x, "content/collections/news.yaml");
	char *blog = published_title(x, "content/collections/blog.yaml");
	CU_ASSERT_STRING_EQUAL(news ? news : "", news_title);
	CU_ASSERT_STRING_EQUAL(blog ? blog : "", blog_title);
	free(news);
	free(blog);
}

/*
 * A file being written is not read: its last good version is published,
 * and so is that of a file the check finds read half (the site is read
 * again without it). The next publication takes both up.
 */
static void test_held_files_keep_their_last_version(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	unit_write_file(dir, "site/content/collections/news.yaml", "title: Old\n");
	struct indexer x;
	CU_ASSERT_EQUAL_FATAL(indexer_init(&x, &cfg, NULL, NULL), 0);
	struct indexer_change ch = {true, "CollectionSaved", NULL, NULL, 0, NULL};
	CU_ASSERT_EQUAL_FATAL(indexer_publish(&x, &ch), 1);
	unit_write_file(dir, "site/content/collections/news.yaml", "title: New\n");
	unit_write_file(dir, "site/content/collections/blog.yaml", "title: Blog 2\n");
	struct strmap held = STRMAP_INIT;
	struct strbuf blog = STRBUF_INIT;
	strbuf_addf(&blog, "%s/content/collections/blog.yaml", cfg.content_root);
	strmap_put(&held, strbuf_str(&blog), "");
	half_checks = 0;
	CU_ASSERT_EQUAL(indexer_publish_held(&x, &ch, &held, news_read_half, NULL), 1);
	CU_ASSERT_EQUAL(half_checks, 2);
	CU_ASSERT_EQUAL(held.n, 2);
	assert_titles(&x, "Old", "Blog");
	CU_ASSERT_EQUAL(indexer_publish(&x, &ch), 1);
	assert_titles(&x, "New", "Blog 2");
	strmap_free(&held);
	strbuf_release(&blog);
	indexer_free(&x);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/*
 * A file not changed since the last publication is not parsed again (its
 * last map is taken by its stamp), unless it changed within a second of
 * being read; one changed is, at the same size too.
 */
static void test_unchanged_files_not_parsed_again(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	unit_write_file(dir, "site/content/collections/news.yaml", "title: Old\n");
	struct indexer x;
	CU_ASSERT_EQUAL_FATAL(indexer_init(&x, &cfg, NULL, NULL), 0);
	struct indexer_change ch = {true, "CollectionSaved", NULL, NULL, 0, NULL};
	CU_ASSERT_EQUAL_FATAL(indexer_publish(&x, &ch), 1);
	CU_ASSERT_EQUAL(x.taken, 0);
	/* Written just now: read again, not taken. */
	CU_ASSERT_EQUAL_FATAL(indexer_publish(&x, &ch), 1);
	CU_ASSERT_EQUAL(x.taken, 0);
	size_t read = x.read;
	CU_ASSERT(read >= 2);
	struct timespec pause = {1, 100000000}; /* past the second a file must have settled */
	nanosleep(&pause, NULL);
	CU_ASSERT_EQUAL_FATAL(indexer_publish(&x, &ch), 1); /* remembers them settled */
	unit_write_file(dir, "site/content/collections/news.yaml", "title: New\n");
	CU_ASSERT_EQUAL_FATAL(indexer_publish(&x, &ch), 1);
	CU_ASSERT_EQUAL(x.read, read);
	CU_ASSERT_EQUAL(x.taken, read - 1); /* all but news.yaml */
	assert_titles(&x, "New", "Blog");
	indexer_free(&x);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/*
 * Told which files changed since its last publication (a watcher's
 * events), an indexer looks at no other file: not even a stat. The
 * content signature it publishes is the walk's all the same.
 */
static void test_told_changes_look_at_those_alone(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	unit_write_file(dir, "site/content/collections/news.yaml", "title: Old\n");
	struct indexer x;
	CU_ASSERT_EQUAL_FATAL(indexer_init(&x, &cfg, NULL, NULL), 0);
	struct indexer_change ch = {true, "CollectionSaved", NULL, NULL, 0, NULL};
	struct timespec pause = {1, 100000000}; /* past the second a file must have settled */
	nanosleep(&pause, NULL);
	CU_ASSERT_EQUAL_FATAL(indexer_publish(&x, &ch), 1); /* remembers them settled */
	size_t read = x.read;
	unit_write_file(dir, "site/content/collections/news.yaml", "title: New\n");
	struct strmap changed = STRMAP_INIT;
	ch.changed = &changed;
	CU_ASSERT_EQUAL_FATAL(indexer_publish(&x, &ch), 1);
	CU_ASSERT_EQUAL(x.taken, read); /* news.yaml's change was not told */
	assert_titles(&x, "Old", "Blog");
	char *news = files_join(cfg.content_root, "content/collections/news.yaml");
	strmap_put(&changed, news, "");
	CU_ASSERT_EQUAL_FATAL(indexer_publish(&x, &ch), 1);
	CU_ASSERT_EQUAL(x.taken, read - 1);
	assert_titles(&x, "New", "Blog");
	struct generation g;
	CU_ASSERT_EQUAL_FATAL(generation_read(x.paths.generation, &g), 0);
	CU_ASSERT_EQUAL(g.signature, content_signature(&cfg));
	free(news);
	strmap_free(&changed);
	indexer_free(&x);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* The title entry id has in the snapshot x published or took last. */
static char *entry_title(const struct indexer *x, const char *id)
{
	uint32_t i = x->snap ? snap_entry_find(x->snap, id) : SNAP_NONE;
	if (i == SNAP_NONE)
		return NULL;
	size_t len;
	const char *title = value_str(snap_entry_at(x->snap, i).title, &len);
	return title ? strndup(title, len) : NULL;
}

/*
 * A new indexer (a watcher's first look) keeps no file's last good
 * version: one being written would be left out (an entry that exists
 * answered 404). It publishes nothing until the file is whole, and what
 * is published meanwhile (of other files: edited since) stays, the
 * entry's last version in it.
 */
static void test_new_indexer_waits_for_held_files(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	unit_write_file(dir, "site/content/collections/blog/a.md", "---\nid: a\ntitle: Old\n---\n");
	struct indexer first, second;
	CU_ASSERT_EQUAL_FATAL(indexer_init(&first, &cfg, NULL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(indexer_catch_up(&first), 1);
	indexer_free(&first);
	unit_write_file(dir, "site/content/collections/blog/a.md", "---\nid: a\ntitle: New\n---\n");
	CU_ASSERT_EQUAL_FATAL(indexer_init(&second, &cfg, NULL, NULL), 0);
	struct strmap held = STRMAP_INIT;
	struct strbuf a = STRBUF_INIT;
	strbuf_addf(&a, "%s/content/collections/blog/a.md", cfg.content_root);
	strmap_put(&held, strbuf_str(&a), "");
	CU_ASSERT_EQUAL(indexer_catch_up_held(&second, &held, NULL, NULL), 0);
	char *title = entry_title(&second, "a");
	CU_ASSERT_STRING_EQUAL(title ? title : "(left out)", "Old");
	free(title);
	strmap_free(&held);
	/* Written whole: published. */
	CU_ASSERT_EQUAL(indexer_catch_up_held(&second, &held, NULL, NULL), 1);
	title = entry_title(&second, "a");
	CU_ASSERT_STRING_EQUAL(title ? title : "(left out)", "New");
	free(title);
	strbuf_release(&a);
	indexer_free(&second);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* In a child (watch_start ignores SIGCHLD in its caller): starts the
 * watcher, waits for its first look, and exits 0 when the generation it
 * published then names a snapshot of the site as it is. */
static void first_look_child(const struct config *cfg)
{
	int look = -1;
	if (!watch_start(cfg, NULL, &look) || look < 0)
		_exit(2);
	if (!watch_wait_first_look(look, 10000))
		_exit(3);
	struct indexer x;
	if (indexer_init(&x, cfg, NULL, NULL) != 0)
		_exit(4);
	/* 0: what is published is the site's; nothing to catch up. */
	_exit(indexer_catch_up(&x) == 0 ? 0 : 5);
}

/* The worker that starts the watcher waits for its first look instead of
 * publishing what it reads itself, unchecked: the pipe watch_start gives
 * it ends once that look is published. */
static void test_first_look_awaited(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	unit_write_file(dir, "site/content/collections/blog/a.md", "---\ntitle: A\n---\n");
	pid_t pid = fork();
	if (pid == 0)
		first_look_child(&cfg);
	int status = -1;
	waitpid(pid, &status, 0);
	CU_ASSERT_TRUE(WIFEXITED(status));
	CU_ASSERT_EQUAL(WEXITSTATUS(status), 0);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* An indexer that starts after a change (a restarted watcher, a worker's
 * catch-up) renders only what changed since the published snapshot. */
static void test_catch_up_renders_what_changed(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	unit_write_file(dir, "site/content/collections/blog/a.md", "---\nid: a\ntitle: A\n---\n");
	unit_write_file(dir, "site/content/collections/blog/b.md", "---\nid: b\ntitle: B\n---\n");
	struct indexer x;
	CU_ASSERT_EQUAL_FATAL(indexer_init(&x, &cfg, NULL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(indexer_catch_up(&x), 1);
	CU_ASSERT_EQUAL(x.built.rendered, 2);
	indexer_free(&x);
	unit_write_file(dir, "site/content/collections/blog/a.md", "---\nid: a\ntitle: A2\n---\n");
	CU_ASSERT_EQUAL_FATAL(indexer_init(&x, &cfg, NULL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(indexer_catch_up(&x), 1);
	CU_ASSERT_EQUAL(x.built.rendered, 1);
	CU_ASSERT_EQUAL(x.built.reused, 1);
	char *title = entry_title(&x, "a");
	CU_ASSERT_STRING_EQUAL(title ? title : "(left out)", "A2");
	free(title);
	indexer_free(&x);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* What moved_files was last told, one "event path" a line, "unknown"
 * when no file was named. */
static struct strbuf told_files = STRBUF_INIT;

static void note_told(void *state, const struct config *cfg, const struct watch_file *files,
                      size_t nfiles, uint64_t old_cache, uint64_t new_cache)
{
	(void)state;
	(void)cfg;
	(void)old_cache;
	(void)new_cache;
	strbuf_reset(&told_files);
	if (!files)
		strbuf_addstr(&told_files, "unknown\n");
	else if (nfiles == 0)
		strbuf_addstr(&told_files, "none\n");
	for (size_t i = 0; i < nfiles; i++)
		strbuf_addf(&told_files, "%s %s\n", files[i].event, files[i].path);
}

/* The hooks are told the files a publication read, in its order (the
 * sync journal records what was published): a file held back is told
 * with the later publication that reads it, not with the one that left
 * it out. */
static void test_hooks_told_what_was_published(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	static const struct watch_hooks hooks = {.moved_files = note_told};
	struct indexer x;
	CU_ASSERT_EQUAL_FATAL(indexer_init(&x, &cfg, &hooks, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(indexer_catch_up(&x), 1);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&told_files), "unknown\n");
	unit_write_file(dir, "site/content/collections/news.yaml", "title: New\n");
	unit_write_file(dir, "site/content/collections/blog.yaml", "title: Blog 2\n");
	const struct watch_file both[] = {{"CollectionSaved", NULL, "content/collections/news.yaml"},
	                                  {"CollectionSaved", NULL, "content/collections/blog.yaml"}};
	struct indexer_change ch = {true, "CollectionSaved", NULL, both, 2, NULL};
	struct strmap held = STRMAP_INIT;
	struct strbuf blog = STRBUF_INIT;
	strbuf_addf(&blog, "%s/content/collections/blog.yaml", cfg.content_root);
	strmap_put(&held, strbuf_str(&blog), "");
	CU_ASSERT_EQUAL(indexer_publish_held(&x, &ch, &held, NULL, NULL), 1);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&told_files),
	                       "CollectionSaved content/collections/news.yaml\n");
	/* Every file held: a publication that read none of them, told so. */
	struct indexer_change only_blog = {true, "CollectionSaved", NULL, both + 1, 1, NULL};
	unit_write_file(dir, "site/content/collections/blog.yaml", "title: Blog 3\n");
	CU_ASSERT_EQUAL(indexer_publish_held(&x, &only_blog, &held, NULL, NULL), 1);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&told_files), "none\n");
	struct indexer_change later = {true, "CollectionSaved", NULL, both + 1, 1, NULL};
	CU_ASSERT_EQUAL(indexer_publish(&x, &later), 1);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&told_files),
	                       "CollectionSaved content/collections/blog.yaml\n");
	strbuf_release(&told_files);
	strmap_free(&held);
	strbuf_release(&blog);
	indexer_free(&x);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* Its hook is compiled in only with --enable-test-hooks: without it the
 * test is neither registered nor built (an unused function would warn in
 * the Debian package's build, which has no hooks). */
#ifdef CMS_API_TEST_HOOKS
/* An edit made just after the watcher's first scan is seen at once, not
 * at the next full scan 30 s later: the watches are set before the scan.
 * The watcher holds after its scan (a test hook) while the test edits. */
static void test_edit_after_first_scan(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	unit_write_file(dir, "site/content/collections/blog/a.md", "---\ntitle: A\n---\n");
	struct shared_paths paths;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&paths, &cfg), 0);
	struct strbuf hold = STRBUF_INIT, reached = STRBUF_INIT;
	strbuf_addf(&hold, "%s/hold", dir);
	strbuf_addf(&reached, "%s/hold.reached", dir);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "hold", ""), 0);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("CMS_API_TEST_WATCH_HOLD", hold.ptr, 1);
		watch_run(&cfg, -1, NULL);
		_exit(0);
	}
	bool held = false;
	for (int i = 0; i < 1000 && !held; i++) {
		held = access(reached.ptr, F_OK) == 0;
		if (!held)
			usleep(10000);
	}
	CU_ASSERT_TRUE_FATAL(held);
	struct generation before, after;
	CU_ASSERT_EQUAL(generation_read(paths.generation, &before), 0);
	unit_write_file(dir, "site/content/collections/blog/a.md", "---\ntitle: Edited\n---\n");
	unlink(hold.ptr);
	/* Seen by inotify within a second or so; the next full scan would
	 * come only after 30 s. */
	bool moved = false;
	for (int i = 0; i < 1000 && !moved; i++) {
		moved = generation_read(paths.generation, &after) == 0 && after.index != before.index;
		if (!moved)
			usleep(10000);
	}
	CU_ASSERT_TRUE(moved);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	strbuf_release(&hold);
	strbuf_release(&reached);
	shared_paths_free(&paths);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}
#endif

/* cfg for the site /srv/site with its cache in dir; config_free it. */
static void config_with_cache_dir(struct config *cfg, const char *dir)
{
	config_init_defaults(cfg);
	free(cfg->content_root);
	free(cfg->cache_dir);
	cfg->content_root = strdup("/srv/site");
	cfg->cache_dir = strdup(dir);
}

/* In a child that cannot write dir: check names the directory, the user
 * and the fix. */
static void check_unwritable_dir_problem(const char *dir)
{
	struct config cfg;
	char out[1024], user[64];
	config_with_cache_dir(&cfg, dir);
	shared_dir_problem(&cfg, out, sizeof out);
	shared_user_name(user, sizeof user);
	char want[512];
	snprintf(want, sizeof want, "[cache] dir %s is not writable by the user %s (Permission denied)",
	         dir, user);
	_exit(strncmp(out, want, strlen(want)) == 0 && strstr(out, "chown -R www-data") ? 0 : 1);
}

/* What `cms-api check` says of a cache directory: nothing when a worker
 * of this user could use it, else why not and what to do, without making
 * it. */
static void test_cache_dir_problems(void)
{
	char *dir = unit_tempdir();
	char path[512], parent[512], out[1024];
	struct config cfg;

	config_with_cache_dir(&cfg, dir);
	shared_dir_problem(&cfg, out, sizeof out);
	CU_ASSERT_STRING_EQUAL(out, "");
	config_free(&cfg);

	snprintf(parent, sizeof parent, "%s/absent", dir);
	snprintf(path, sizeof path, "%s/absent/cache", dir);
	config_with_cache_dir(&cfg, path);
	shared_dir_problem(&cfg, out, sizeof out);
	char want[2048];
	snprintf(want, sizeof want, "[cache] dir %s does not exist, nor does %s: workers cannot "
	         "share an index or cache answers; make it the workers' user's, e.g. for www-data "
	         "(Apache, Debian's lighttpd): install -d -o www-data -m 0700 %s", path, parent, path);
	CU_ASSERT_STRING_EQUAL(out, want);
	CU_ASSERT_EQUAL(access(parent, F_OK), -1); /* nothing made */
	config_free(&cfg);

	/* Its parent is there and this user may write in it: a worker of
	 * this user would make it, but root's workers are rarely root. */
	snprintf(path, sizeof path, "%s/cache", dir);
	config_with_cache_dir(&cfg, path);
	shared_dir_problem(&cfg, out, sizeof out);
	if (geteuid() == 0) {
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "does not exist: the first worker makes it if its "
		                                   "user may write in"));
	} else {
		CU_ASSERT_STRING_EQUAL(out, "");
	}
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "file", "x"), 0);
	snprintf(path, sizeof path, "%s/file", dir);
	config_with_cache_dir(&cfg, path);
	shared_dir_problem(&cfg, out, sizeof out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "is not a directory"));
	config_free(&cfg);

	config_with_cache_dir(&cfg, "");
	shared_dir_problem(&cfg, out, sizeof out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[cache] dir is empty"));
	config_free(&cfg);

	CU_ASSERT_EQUAL(unit_run_unprivileged(dir, check_unwritable_dir_problem), 0);
	unit_rmtree(dir);
	free(dir);
}

/* The hooks' record of the files each move touched (moved_files), kept
 * in a file: the hooks run in the watcher, a child of the test. */
static const char *files_log;

static void record_files(void *state, const struct config *cfg, const struct watch_file *files,
                         size_t nfiles, uint64_t old_cache, uint64_t new_cache)
{
	(void)state;
	(void)cfg;
	(void)old_cache;
	(void)new_cache;
	FILE *f = fopen(files_log, "a");
	if (!f)
		return;
	if (nfiles == 0)
		fprintf(f, "unknown\n");
	for (size_t i = 0; i < nfiles; i++)
		fprintf(f, "%s %s %s\n", files[i].event, files[i].disk ? files[i].disk : "-",
		        files[i].path);
	fclose(f);
}

/* Up to 10 s for the log to hold want. */
static bool files_logged(const char *want)
{
	for (int i = 0; i < 1000; i++) {
		char *got = unit_read_file(files_log, "");
		bool ok = strstr(got, want) != NULL;
		free(got);
		if (ok)
			return true;
		usleep(10000);
	}
	return false;
}

/* The hooks learn which files a change touched: a save, a deletion, both
 * halves of a rename, a file on an asset disk; a change found by a scan
 * is one of unknown files. */
static void test_moved_files(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	site_with_cache(dir, &cfg);
	struct strbuf b = STRBUF_INIT, log = STRBUF_INIT;
	strbuf_addf(&b, "%s/disk", dir);
	cfg.disks = calloc(1, sizeof *cfg.disks);
	cfg.ndisks = 1;
	cfg.disks[0] = (struct disk_def){strdup("assets"), strbuf_detach(&b, NULL), NULL};
	unit_write_file(dir, "disk/a.jpg", "jpg");
	unit_write_file(dir, "site/content/collections/blog/b.md", "---\ntitle: B\n---\n");
	unit_write_file(dir, "site/content/collections/blog/c.md", "---\ntitle: C\n---\n");
	strbuf_addf(&log, "%s/files.log", dir);
	files_log = log.ptr;
	struct shared_paths paths;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&paths, &cfg), 0);
	static const struct watch_hooks hooks = {.moved_files = record_files};
	pid_t pid = fork();
	if (pid == 0) {
		watch_run(&cfg, -1, &hooks);
		_exit(0);
	}
	/* The first scan makes the generation file (a move of unknown files):
	 * the watches are set by then. */
	CU_ASSERT_TRUE(files_logged("unknown\n"));
	unit_write_file(dir, "site/content/collections/blog/a.md", "---\ntitle: A\n---\n");
	CU_ASSERT_TRUE(files_logged("EntrySaved - content/collections/blog/a.md\n"));
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	strbuf_addf(&from, "%s/site/content/collections/blog/c.md", dir);
	strbuf_addf(&to, "%s/site/content/collections/blog/d.md", dir);
	CU_ASSERT_EQUAL(rename(from.ptr, to.ptr), 0);
	CU_ASSERT_TRUE(files_logged("EntryDeleted - content/collections/blog/c.md\n"
	                            "EntrySaved - content/collections/blog/d.md\n"));
	strbuf_reset(&from);
	strbuf_addf(&from, "%s/site/content/collections/blog/b.md", dir);
	CU_ASSERT_EQUAL(unlink(from.ptr), 0);
	CU_ASSERT_TRUE(files_logged("EntryDeleted - content/collections/blog/b.md\n"));
	unit_write_file(dir, "disk/a.jpg", "jpeg");
	CU_ASSERT_TRUE(files_logged("AssetSaved assets a.jpg\n"));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	strbuf_release(&from);
	strbuf_release(&to);
	strbuf_release(&log);
	shared_paths_free(&paths);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

void suite_watch(void)
{
	CU_pSuite s = unit_add_suite("watch");
	unit_add_test(s, "event names", test_event_names);
	unit_add_test(s, "ignored events", test_ignored_events);
	unit_add_test(s, "content signature", test_signature);
	unit_add_test(s, "signature of icon folders", test_signature_of_icon_folders);
	unit_add_test(s, "signature is the same elsewhere", test_signature_is_the_same_elsewhere);
	unit_add_test(s, "signature brought up to date from the files that changed",
	              test_signature_update);
	unit_add_test(s, "generation file and scans", test_generation_file_and_scan);
	unit_add_test(s, "first generation made once", test_first_generation_made_once);
	unit_add_test(s, "generation record", test_generation_record);
	unit_add_test(s, "generation written in place", test_generation_written_in_place);
	unit_add_test(s, "unusable cache directory", test_unusable_cache_dir);
	unit_add_test(s, "publication order", test_publication_order);
	unit_add_test(s, "a generation named has its snapshot", test_named_generation_has_its_snapshot);
	unit_add_test(s, "held files keep their last version", test_held_files_keep_their_last_version);
	unit_add_test(s, "unchanged files not parsed again", test_unchanged_files_not_parsed_again);
	unit_add_test(s, "told which files changed, an indexer looks at those alone",
	              test_told_changes_look_at_those_alone);
	unit_add_test(s, "a new indexer waits for files being written",
	              test_new_indexer_waits_for_held_files);
	unit_add_test(s, "the first look is awaited", test_first_look_awaited);
	unit_add_test(s, "catch-up renders what changed", test_catch_up_renders_what_changed);
	unit_add_test(s, "the files a move touched", test_moved_files);
	unit_add_test(s, "the hooks are told what was published", test_hooks_told_what_was_published);
#ifdef CMS_API_TEST_HOOKS
	unit_add_test(s, "an edit just after the first scan", test_edit_after_first_scan);
#endif
	unit_add_test(s, "cache directory problems", test_cache_dir_problems);
}
