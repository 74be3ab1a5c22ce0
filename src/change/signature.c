/* signature: the files of a site and their hash; see signature.h. */
#include "autoconfig.h"

#include "change/signature.h"

#include <dirent.h>
#include <stdlib.h>
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

/* The slot of key in t: its own, or the free one it would take. */
static size_t term_slot(const struct signature_terms *t, uint64_t key)
{
	size_t at = (size_t)key & (t->nslots - 1);
	while (t->keys[at] && t->keys[at] != key)
		at = (at + 1) & (t->nslots - 1);
	return at;
}

static void terms_grow(struct signature_terms *t)
{
	struct signature_terms grown = {NULL, NULL, t->nslots ? t->nslots * 2 : 1024, t->n, t->sum,
	                                t->seed, t->known};
	grown.keys = xcalloc(grown.nslots, sizeof *grown.keys);
	grown.terms = xcalloc(grown.nslots, sizeof *grown.terms);
	for (size_t i = 0; i < t->nslots; i++) {
		if (!t->keys[i])
			continue;
		size_t at = term_slot(&grown, t->keys[i]);
		grown.keys[at] = t->keys[i];
		grown.terms[at] = t->terms[i];
	}
	free(t->keys);
	free(t->terms);
	*t = grown;
}

/* Records rel's term in t (term 0: rel is not signed), keeping its sum
 * the sum of the terms. */
static void terms_set(struct signature_terms *t, const char *rel, uint64_t term)
{
	if ((t->n + 1) * 2 > t->nslots)
		terms_grow(t);
	uint64_t key = hash_fnv1a(rel) | 1;
	size_t at = term_slot(t, key);
	if (t->keys[at]) {
		t->sum -= t->terms[at];
	} else if (term) {
		t->keys[at] = key;
		t->n++;
	}
	if (t->keys[at])
		t->terms[at] = term;
	t->sum += term;
	/* A term gone leaves its key with term 0: the slot stays, so that
	 * the keys after it in its run are still found. */
}

void signature_terms_free(struct signature_terms *t)
{
	free(t->keys);
	free(t->terms);
	*t = (struct signature_terms)SIGNATURE_TERMS_INIT;
}

/* What the file rel, stat()ed as st, adds to a signature. */
static uint64_t file_term(const char *rel, const struct stat *st)
{
	uint64_t h = hash_fnv1a(rel);
	h ^= mix64((uint64_t)st->st_size);
	h ^= mix64((uint64_t)st->st_mtim.tv_sec * 1000000000ULL + (uint64_t)st->st_mtim.tv_nsec + 1);
	return mix64(h);
}

/* Adds every visible file below abs (whose relative path is rel), each
 * recorded in terms when not NULL; a sum does not depend on the order
 * readdir lists files in. */
static void sign_tree(const char *abs, const char *rel, bool disk, uint64_t *sum,
                      struct signature_terms *terms, int depth)
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
				sign_tree(child.ptr, child_rel.ptr, disk, sum, terms, depth + 1);
			} else {
				uint64_t term = file_term(child_rel.ptr, &st);
				*sum += term;
				if (terms)
					terms_set(terms, child_rel.ptr, term);
			}
		}
		strbuf_release(&child);
		strbuf_release(&child_rel);
	}
	closedir(d);
}

/* The signature's start: what the index reads of the config too (a
 * snapshot is made with it, so an INI taken up anew that changes it is a
 * change to publish, and to cache anew). */
static uint64_t signature_seed(const struct config *cfg)
{
	return 0x9e3779b97f4a7c15ULL ^ site_config_print(cfg);
}

static uint64_t sign_all(const struct config *cfg, struct signature_terms *terms)
{
	uint64_t sum = signature_seed(cfg);
	for (size_t i = 0; i < SIGNATURE_NTOPS; i++) {
		struct strbuf abs = STRBUF_INIT;
		strbuf_addf(&abs, "%s/%s", cfg->content_root, signature_tops[i]);
		sign_tree(abs.ptr, signature_tops[i], false, &sum, terms, 0);
		strbuf_release(&abs);
	}
	for (size_t i = 0; i < cfg->ndisks; i++) {
		struct strbuf rel = STRBUF_INIT;
		strbuf_addf(&rel, "disk:%s", cfg->disks[i].name);
		if (cfg->disks[i].root)
			sign_tree(cfg->disks[i].root, rel.ptr, true, &sum, terms, 0);
		strbuf_release(&rel);
	}
	/* The icon folders of [icons], read when the snapshot is written:
	 * their own files alone (an icon's name holds no '/'), which a tree
	 * signed from SIGNATURE_MAX_DEPTH is. */
	for (size_t i = 0; i < cfg->nicon_sets; i++) {
		struct strbuf rel = STRBUF_INIT;
		strbuf_addf(&rel, "icons:%s", cfg->icon_sets[i].name);
		sign_tree(cfg->icon_sets[i].folder, rel.ptr, false, &sum, terms, SIGNATURE_MAX_DEPTH);
		strbuf_release(&rel);
	}
	return sum;
}

uint64_t content_signature(const struct config *cfg)
{
	return sign_all(cfg, NULL);
}

uint64_t content_signature_terms(const struct config *cfg, struct signature_terms *terms)
{
	signature_terms_free(terms);
	uint64_t sum = sign_all(cfg, terms);
	terms->seed = sum - terms->sum;
	terms->known = true;
	return sum;
}

/* Whether the path below a root (rest: its folders and file name) is one
 * the walk signs: every name visible, no deeper than it goes, and for the
 * site root, below one of its tops. */
static bool signed_below(const char *rest, bool disk, bool site)
{
	int folders = 0;
	bool top = !site;
	for (const char *p = rest; *p;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		char name[256];
		if (len == 0 || len >= sizeof name)
			return false;
		memcpy(name, p, len);
		name[len] = '\0';
		if (!signature_visible(name, disk))
			return false;
		if (!top) {
			for (size_t i = 0; i < SIGNATURE_NTOPS; i++)
				top |= strcmp(name, signature_tops[i]) == 0;
			if (!top || !slash)
				return false;
		} else if (slash) {
			folders++;
		}
		if (!slash)
			break;
		p = slash + 1;
	}
	return folders <= SIGNATURE_MAX_DEPTH;
}

/* Sets the term of the file at abs, signed as prefix + rest. */
static void resign(struct signature_terms *t, const char *abs, const char *prefix,
                   const char *rest)
{
	struct strbuf rel = STRBUF_INIT;
	strbuf_addf(&rel, "%s%s", prefix, rest);
	struct stat st;
	uint64_t term = 0;
	if (stat(abs, &st) == 0 && !S_ISDIR(st.st_mode))
		term = file_term(rel.ptr, &st);
	terms_set(t, rel.ptr, term);
	strbuf_release(&rel);
}

/* rest when abs is below root, else NULL. */
static const char *below(const char *abs, const char *root)
{
	size_t len = root ? strlen(root) : 0;
	if (!len || strncmp(abs, root, len) != 0 || abs[len] != '/')
		return NULL;
	return abs + len + 1;
}

uint64_t content_signature_update(const struct config *cfg, struct signature_terms *terms,
                                  const struct strmap *changed)
{
	if (!terms->known || terms->seed != signature_seed(cfg))
		return content_signature_terms(cfg, terms);
	for (size_t i = 0; i < changed->nslots; i++) {
		const char *abs = changed->keys[i];
		if (!abs)
			continue;
		const char *rest = below(abs, cfg->content_root);
		if (rest && signed_below(rest, false, true))
			resign(terms, abs, "", rest);
		for (size_t k = 0; k < cfg->ndisks; k++) {
			rest = below(abs, cfg->disks[k].root);
			if (!rest || !signed_below(rest, true, false))
				continue;
			struct strbuf prefix = STRBUF_INIT;
			strbuf_addf(&prefix, "disk:%s/", cfg->disks[k].name);
			resign(terms, abs, prefix.ptr, rest);
			strbuf_release(&prefix);
		}
	}
	return terms->seed + terms->sum;
}
