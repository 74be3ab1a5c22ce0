/* status: an entry's status at a moment; see status.h. */
#include "autoconfig.h"

#include "site/status.h"

#include <limits.h>

enum entry_status entry_status_at(const struct status_facts *f, long long now)
{
	if (!f->published)
		return ENTRY_DRAFT;
	if (!f->dated)
		return ENTRY_PUBLISHED;
	if (f->date > now && f->future_private)
		return ENTRY_SCHEDULED;
	if (f->date < now && f->past_private)
		return ENTRY_EXPIRED;
	return ENTRY_PUBLISHED;
}

const char *entry_status_name(enum entry_status s)
{
	static const char *const names[] = {"published", "draft", "scheduled", "expired"};
	return names[s];
}

struct status_span status_span_all(void)
{
	return (struct status_span){LLONG_MIN, LLONG_MAX};
}

void status_span_narrow(struct status_span *span, const struct status_facts *f, long long now)
{
	if (!f->published || !f->dated || !(f->future_private || f->past_private))
		return; /* the same status at every moment */
	long long from, until;
	if (now < f->date)
		from = LLONG_MIN, until = f->date;
	else if (now == f->date)
		from = f->date, until = f->date < LLONG_MAX ? f->date + 1 : LLONG_MAX;
	else
		from = f->date + 1, until = LLONG_MAX;
	if (from > span->from)
		span->from = from;
	if (until < span->until)
		span->until = until;
}

bool status_span_holds(const struct status_span *span, long long now)
{
	return now >= span->from && now < span->until;
}
