/* status: an entry's status at a moment; see status.h. */
#include "autoconfig.h"

#include "site/status.h"

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
