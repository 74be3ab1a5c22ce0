/* changes: one change's files, each once; see changes.h. */
#include "autoconfig.h"

#include "edge/changes.h"

#include <stdbool.h>
#include <string.h>

#include "site/assets.h"
#include "site/journal.h"
#include "site/tags.h"

static bool deleted(const struct watch_file *f)
{
	return strstr(f->event, "Deleted") != NULL;
}

static bool same_file(const struct watch_file *a, const struct watch_file *b)
{
	return strcmp(a->path, b->path) == 0 &&
	       (a->disk == b->disk || (a->disk && b->disk && strcmp(a->disk, b->disk) == 0));
}

/* Whether the item file f holds was in the site before the change. */
static bool known_before(const struct sync_keeper *k, const struct watch_file *f)
{
	if (!k || !k->snap)
		return false;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	enum tag_kind kind;
	bool known = false;
	if (tag_item_of_change(f->event, f->disk, f->path, &kind, &a, &b)) {
		if (kind == TAG_ENTRY)
			known = journal_entry_at(k->snap, a.ptr, b.ptr) != SNAP_NONE;
		else if (kind == TAG_GLOBAL || kind == TAG_NAV)
			known = !value_is_missing(
				snap_extras_find(k->snap, kind == TAG_GLOBAL ? "globals" : "navs", a.ptr));
		else
			known = true; /* terms, assets, forms: told as they come */
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return known;
}

size_t edge_changes_compact(const struct watch_file *files, size_t n, const struct sync_keeper *k,
                            struct watch_file *out)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		bool later = false, saved_before = false;
		for (size_t j = i + 1; j < n && !later; j++)
			later = same_file(&files[i], &files[j]);
		if (later)
			continue; /* its last event is told */
		for (size_t j = 0; j < i && !saved_before; j++)
			saved_before = same_file(&files[i], &files[j]) && !deleted(&files[j]);
		if (deleted(&files[i]) && saved_before && !known_before(k, &files[i]))
			continue; /* came and went */
		out[m++] = files[i];
	}
	return m;
}
