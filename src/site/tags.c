/* tags: cache tags of what a site holds; see tags.h. */
#include "autoconfig.h"

#include "site/tags.h"

#include <inttypes.h>
#include <string.h>

#include "lib/hash.h"

/* A handle written as itself when it is at most this long. */
#define PLAIN_MAX 40

static bool plain_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

static bool plain(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > PLAIN_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!plain_char(s[i]))
			return false;
	return true;
}

static void add_hash(struct strbuf *out, const char *a, const char *b)
{
	struct strbuf key = STRBUF_INIT;
	strbuf_addstr(&key, a ? a : "");
	if (b) {
		strbuf_addch(&key, '\n'); /* in no handle: "a" "b/c" is not "a/b" "c" */
		strbuf_addstr(&key, b);
	}
	strbuf_addf(out, "%016" PRIx64, hash_fnv1a_bytes(key.ptr, key.len));
	strbuf_release(&key);
}

/* A handle as itself when plain, else '~' and its hash. */
static void add_handle(struct strbuf *out, const char *h)
{
	if (plain(h)) {
		strbuf_addstr(out, h);
		return;
	}
	strbuf_addch(out, '~');
	add_hash(out, h, NULL);
}

void tag_name(struct strbuf *out, const char *prefix, enum tag_kind kind, const char *a,
              const char *b)
{
	strbuf_addstr(out, prefix ? prefix : "");
	switch (kind) {
	case TAG_ALL: strbuf_addstr(out, "all"); return;
	case TAG_ANY: strbuf_addstr(out, "any"); return;
	case TAG_GLOBALS: strbuf_addstr(out, "globals"); return;
	case TAG_NAVS: strbuf_addstr(out, "navs"); return;
	case TAG_FORMS: strbuf_addstr(out, "forms"); return;
	case TAG_USERS: strbuf_addstr(out, "users"); return;
	case TAG_ENTRY: strbuf_addstr(out, "e."); add_hash(out, a, NULL); return;
	case TAG_ASSET: strbuf_addstr(out, "a."); add_hash(out, a, b); return;
	case TAG_ENTRIES: strbuf_addstr(out, "el."); break;
	case TAG_TERMS: strbuf_addstr(out, "tl."); break;
	case TAG_ASSETS: strbuf_addstr(out, "al."); break;
	case TAG_GLOBAL: strbuf_addstr(out, "g."); break;
	case TAG_NAV: strbuf_addstr(out, "n."); break;
	case TAG_FORM: strbuf_addstr(out, "f."); break;
	case TAG_TERM:
		strbuf_addstr(out, "t.");
		if (plain(a) && plain(b)) {
			strbuf_addf(out, "%s.%s", a, b);
		} else {
			strbuf_addch(out, '~');
			add_hash(out, a, b);
		}
		return;
	}
	add_handle(out, a ? a : "");
}

/* The coarser tag that covers a tag of kind, and its first name. */
static enum tag_kind coarser(enum tag_kind kind, bool *has)
{
	*has = true;
	switch (kind) {
	case TAG_ENTRY: return TAG_ENTRIES;
	case TAG_TERM: return TAG_TERMS;
	case TAG_ASSET: return TAG_ASSETS;
	case TAG_GLOBAL: return TAG_GLOBALS;
	case TAG_NAV: return TAG_NAVS;
	case TAG_FORM: return TAG_FORMS;
	default: *has = false; return kind;
	}
}

void tag_add(struct tagset *set, const char *prefix, enum tag_kind kind, const char *a,
             const char *b, const char *coarse_a)
{
	struct strbuf tag = STRBUF_INIT, coarse = STRBUF_INIT;
	tag_name(&tag, prefix, kind, a, b);
	bool has;
	enum tag_kind c = coarser(kind, &has);
	if (has)
		tag_name(&coarse, prefix, c, kind == TAG_ENTRY ? coarse_a : a, NULL);
	tagset_add(set, tag.ptr, has ? coarse.ptr : NULL);
	strbuf_release(&tag);
	strbuf_release(&coarse);
}

/* --- what a change touched --- */

/* The n-th '/'-separated part of path (0-based), copied into out; false
 * when there is none. */
static bool part(const char *path, int n, struct strbuf *out)
{
	const char *p = path;
	for (int i = 0; i < n; i++) {
		p = strchr(p, '/');
		if (!p)
			return false;
		p++;
	}
	size_t len = strcspn(p, "/");
	strbuf_reset(out);
	strbuf_add(out, p, len);
	return len > 0;
}

/* The file name of path without its extension. */
static void stem(const char *path, struct strbuf *out)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	strbuf_reset(out);
	strbuf_add(out, base, dot && dot > base ? (size_t)(dot - base) : strlen(base));
}

static bool is(const char *event, const char *a, const char *b)
{
	return strcmp(event, a) == 0 || strcmp(event, b) == 0;
}

/* An asset's path below its disk from the file that changed: the asset
 * itself, or its data in a .meta folder ("img/.meta/a.png.yaml" is
 * "img/a.png"). */
static void asset_path(const char *path, struct strbuf *out)
{
	const char *meta = strstr(path, ".meta/");
	strbuf_reset(out);
	if (!meta || (meta != path && meta[-1] != '/')) {
		strbuf_addstr(out, path);
		return;
	}
	strbuf_add(out, path, (size_t)(meta - path));
	const char *name = meta + 6;
	size_t len = strlen(name);
	if (len > 5 && strcmp(name + len - 5, ".yaml") == 0)
		len -= 5;
	strbuf_add(out, name, len);
}

bool tag_item_of_change(const char *event, const char *disk, const char *path,
                        enum tag_kind *kind, struct strbuf *a, struct strbuf *b)
{
	strbuf_reset(a);
	strbuf_reset(b);
	if (disk && is(event, "AssetSaved", "AssetDeleted")) {
		*kind = TAG_ASSET;
		strbuf_addstr(a, disk);
		asset_path(path, b);
	} else if (is(event, "EntrySaved", "EntryDeleted") && part(path, 2, a)) {
		*kind = TAG_ENTRY;
		strbuf_addstr(b, path);
	} else if (is(event, "TermSaved", "TermDeleted") && part(path, 2, a)) {
		*kind = TAG_TERM;
		stem(path, b);
	} else if (is(event, "GlobalSetSaved", "GlobalSetDeleted") ||
	           is(event, "GlobalVariablesSaved", "GlobalVariablesDeleted")) {
		*kind = TAG_GLOBAL;
		stem(path, a);
	} else if (is(event, "NavSaved", "NavDeleted") || is(event, "NavTreeSaved", "NavTreeDeleted")) {
		*kind = TAG_NAV;
		stem(path, a);
	} else if (is(event, "FormSaved", "FormDeleted")) {
		*kind = TAG_FORM;
		stem(path, a);
	} else if (is(event, "UserSaved", "UserDeleted") || is(event, "RoleSaved", "RoleDeleted") ||
	           is(event, "UserGroupSaved", "UserGroupDeleted")) {
		*kind = TAG_USERS;
	} else {
		return false;
	}
	return true;
}

bool tags_of_change(const char *prefix, const char *event, const char *disk, const char *path,
                    struct tagset *set)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	enum tag_kind kind;
	bool placed = tag_item_of_change(event, disk, path, &kind, &a, &b);
	if (placed) {
		/* The item's own tag and its list's (tag_add's coarser one). */
		bool named_twice = kind == TAG_TERM || kind == TAG_ASSET;
		if (kind == TAG_ENTRY)
			tag_add(set, prefix, kind, b.ptr, NULL, a.ptr);
		else
			tag_add(set, prefix, kind, strbuf_str(&a), named_twice ? b.ptr : NULL, NULL);
		bool has;
		enum tag_kind list = coarser(kind, &has);
		bool one_list = kind == TAG_GLOBAL || kind == TAG_NAV || kind == TAG_FORM;
		if (has)
			tag_add(set, prefix, list, one_list ? NULL : a.ptr, NULL, NULL);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return placed;
}
