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

/*
 * The moments over which a status holds: [from, until). A rendering that
 * read statuses at one moment stays right at another moment inside the
 * span of every status it read (see status_span_narrow).
 */
struct status_span {
	long long from, until;
};

/* The span of all moments. */
struct status_span status_span_all(void);

/* Narrows span to the moments around now at which f's status is the one
 * it has at now. A status can change only as now passes the date: before
 * it, at it, after it. */
void status_span_narrow(struct status_span *span, const struct status_facts *f, long long now);

/* Whether now lies in span. */
bool status_span_holds(const struct status_span *span, long long now);

/* "published", "draft", "scheduled" or "expired": a static string. */
const char *entry_status_name(enum entry_status s);

#endif
