/* shared: names and atomic writes of the shared cache files; see shared.h. */
#include "autoconfig.h"

#include "site/shared.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"

static char *joinf(const char *dir, const char *name, const char *site, const char *suffix)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/%s-%s%s", dir, name, site, suffix);
	return strbuf_detach(&b, NULL);
}

int shared_paths_init(struct shared_paths *p, const struct config *cfg)
{
	memset(p, 0, sizeof *p);
	if (!cfg->cache_dir || !*cfg->cache_dir || !cfg->content_root)
		return -1;
	if (mkdir(cfg->cache_dir, 0755) != 0 && errno != EEXIST)
		return -1;
	if (access(cfg->cache_dir, W_OK | X_OK) != 0)
		return -1;
	char site[17];
	snprintf(site, sizeof site, "%016" PRIx64, hash_fnv1a(cfg->content_root));
	p->dir = xstrdup(cfg->cache_dir);
	p->site = xstrdup(site);
	p->generation = joinf(p->dir, "generation", site, "");
	p->watch_lock = joinf(p->dir, "watch", site, ".lock");
	p->index_lock = joinf(p->dir, "index", site, ".lock");
	return 0;
}

void shared_paths_free(struct shared_paths *p)
{
	free(p->dir);
	free(p->site);
	free(p->generation);
	free(p->watch_lock);
	free(p->index_lock);
	memset(p, 0, sizeof *p);
}

char *shared_snapshot_path(const struct shared_paths *p, uint64_t n)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/index-%s-%" PRIu64 ".snap", p->dir, p->site, n);
	return strbuf_detach(&b, NULL);
}

void shared_remove_old_snapshots(const struct shared_paths *p, uint64_t keep)
{
	DIR *d = opendir(p->dir);
	if (!d)
		return;
	struct strbuf prefix = STRBUF_INIT;
	strbuf_addf(&prefix, "index-%s-", p->site);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		uint64_t n;
		char tail[8];
		if (strncmp(e->d_name, prefix.ptr, prefix.len) != 0 ||
		    sscanf(e->d_name + prefix.len, "%" SCNu64 "%7s", &n, tail) != 2 ||
		    strcmp(tail, ".snap") != 0 || n >= keep)
			continue;
		/* Workers that still map it keep their mapping; the name goes. */
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", p->dir, e->d_name);
		unlink(path.ptr);
		strbuf_release(&path);
	}
	closedir(d);
	strbuf_release(&prefix);
}

int shared_write_file(const char *path, const struct strbuf *content)
{
	struct strbuf tmp = STRBUF_INIT;
	strbuf_addf(&tmp, "%s.tmp-XXXXXX", path);
	int fd = mkostemp(tmp.ptr, O_CLOEXEC);
	if (fd < 0) {
		strbuf_release(&tmp);
		return -1;
	}
	size_t done = 0;
	while (done < content->len) {
		ssize_t n = write(fd, content->ptr + done, content->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	int rc = done == content->len && fchmod(fd, 0644) == 0 ? 0 : -1;
	if (close(fd) != 0)
		rc = -1;
	if (rc == 0 && rename(tmp.ptr, path) != 0)
		rc = -1;
	if (rc != 0)
		unlink(tmp.ptr);
	strbuf_release(&tmp);
	return rc;
}
