/*
 * dates: dates of dated entries without one in their file name; see
 * dates.h. Statamic's getter is `date ?? origin()->date() ??
 * adjustDateTimeBasedOnSettings(lastModified())`, where the adjustment
 * keeps only what the entry's blueprint shows: the day, or the day and
 * the minute (time_enabled), or the whole time (time_seconds_enabled).
 */
#include "autoconfig.h"

#include "site/dates.h"

#include <stdlib.h>

#include "lib/strbuf.h"
#include "site/blueprints.h"
#include "site/entries.h"

/* When the entry was last changed: its own `updated_at`, else its file's. */
static long long last_modified(const struct entry *e)
{
	value_t updated = value_map_getz(e->own, "updated_at");
	return value_type(updated) == VALUE_INT ? value_int(updated) : e->mtime;
}

/* t cut as the entry's blueprint shows dates. */
static long long as_shown(const struct site_index *idx, const struct entry *e, long long t)
{
	const struct blueprint *bp = entry_blueprint(idx, e);
	value_t field = bp ? value_map_getz(vb_result(&bp->fields), "date") : VALUE_MISSING;
	long long unit = 86400;
	if (value_bool(value_map_getz(field, "time_enabled")))
		unit = value_bool(value_map_getz(field, "time_seconds_enabled")) ? 1 : 60;
	long long r = t % unit;
	return t - (r < 0 ? r + unit : r);
}

/* The date the rule gives e, before any entry's date is settled. */
static long long settled(const struct site_index *idx, const struct entry *e)
{
	const struct entry *o = e;
	while (!o->has_date && o->origin)
		o = o->origin;
	return o->has_date ? o->date : as_shown(idx, o, last_modified(o));
}

void dates_settle(struct site_index *idx)
{
	/* Every date is worked out first: an origin must still read as
	 * undated while its localizations' dates are found. */
	long long *dates = xcalloc(idx->nentries ? idx->nentries : 1, sizeof *dates);
	for (size_t i = 0; i < idx->nentries; i++) {
		const struct entry *e = &idx->entries[i];
		if (idx->collections[e->collection].dated && !e->has_date)
			dates[i] = settled(idx, e);
	}
	for (size_t i = 0; i < idx->nentries; i++) {
		struct entry *e = &idx->entries[i];
		if (idx->collections[e->collection].dated && !e->has_date) {
			e->date = dates[i];
			e->has_date = true;
		}
	}
	free(dates);
}
