/* signature: the files of a site and their hash; see signature.h. */
#include "autoconfig.h"

#include "change/signature.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/hash.h"
#include "lib/strbuf.h"
#include "site/index.h"

const char *const signature_tops[SIGNATURE_NTOPS] = {"content", "resources", "users"};

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

bool signature_visible(const char *name, bool disk)
{
	return name[0] != '.' || (disk && strcmp(name, ".meta") == 0);
}

/* Adds every visible file below abs (whose relative path is rel); a sum
 * does not depend on the order readdir lists files in. */
static void sign_tree(const char *abs, const char *rel, bool disk, uint64_t *sum, int depth)
{
	DIR *d = opendir(abs);
	if (!d || depth > SIGNATURE_MAX_DEPTH) {
		if (d)
			closedir(d);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!signature_visible(e->d_name, disk))
			continue;
		struct strbuf child = STRBUF_INIT, child_rel = STRBUF_INIT;
		strbuf_addf(&child, "%s/%s", abs, e->d_name);
		strbuf_addf(&child_rel, "%s/%s", rel, e->d_name);
		struct stat st;
		/* At the folder's descriptor: the path is not walked again for each of its files. */
		if (fstatat(dirfd(d), e->d_name, &st, 0) == 0) {
			if (S_ISDIR(st.st_mode)) {
				sign_tree(child.ptr, child_rel.ptr, disk, sum, depth + 1);
			} else {
				uint64_t h = hash_fnv1a(child_rel.ptr);
				h ^= mix64((uint64_t)st.st_size);
				h ^= mix64((uint64_t)st.st_mtim.tv_sec * 1000000000ULL +
				           (uint64_t)st.st_mtim.tv_nsec + 1);
				*sum += mix64(h);
			}
		}
		strbuf_release(&child);
		strbuf_release(&child_rel);
	}
	closedir(d);
}

uint64_t content_signature(const struct config *cfg)
{
	/* What the index reads of the config too: a snapshot is made with
	 * it, so an INI taken up anew that changes it is a change to publish
	 * (and to cache anew). */
	uint64_t sum = 0x9e3779b97f4a7c15ULL ^ site_config_print(cfg);
	for (size_t i = 0; i < SIGNATURE_NTOPS; i++) {
		struct strbuf abs = STRBUF_INIT;
		strbuf_addf(&abs, "%s/%s", cfg->content_root, signature_tops[i]);
		sign_tree(abs.ptr, signature_tops[i], false, &sum, 0);
		strbuf_release(&abs);
	}
	for (size_t i = 0; i < cfg->ndisks; i++) {
		struct strbuf rel = STRBUF_INIT;
		strbuf_addf(&rel, "disk:%s", cfg->disks[i].name);
		if (cfg->disks[i].root)
			sign_tree(cfg->disks[i].root, rel.ptr, true, &sum, 0);
		strbuf_release(&rel);
	}
	/* The icon folders of [icons], read when the snapshot is written:
	 * their own files alone (an icon's name holds no '/'), which a tree
	 * signed from SIGNATURE_MAX_DEPTH is. */
	for (size_t i = 0; i < cfg->nicon_sets; i++) {
		struct strbuf rel = STRBUF_INIT;
		strbuf_addf(&rel, "icons:%s", cfg->icon_sets[i].name);
		sign_tree(cfg->icon_sets[i].folder, rel.ptr, false, &sum, SIGNATURE_MAX_DEPTH);
		strbuf_release(&rel);
	}
	return sum;
}

