/*
 * status: an entry's status at a moment (statamic-api.md §7.2), the one
 * rule every part of cms-api applies: draft when unpublished; scheduled
 * when its dated collection keeps future entries private and its date is
 * to come; expired when the collection keeps past entries private and
 * its date has passed; published otherwise.
 *
 * The index stores the facts, never a status: a status depends on the
 * moment, and each request decides it at its own (lists, trees and
 * relations alike).
 */
#ifndef CMS_API_SITE_STATUS_H
#define CMS_API_SITE_STATUS_H

#include <stdbool.h>

enum entry_status { ENTRY_PUBLISHED, ENTRY_DRAFT, ENTRY_SCHEDULED, ENTRY_EXPIRED };

struct status_facts {
	bool published;      /* the entry's own `published` */
	bool dated;          /* its collection is dated and it has a date */
	long long date;      /* Unix seconds, when dated */
	bool future_private; /* its collection's date behaviour */
	bool past_private;
};

enum entry_status entry_status_at(const struct status_facts *f, long long now);

/* "published", "draft", "scheduled" or "expired": a static string. */
const char *entry_status_name(enum entry_status s);

#endif
