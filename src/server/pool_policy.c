/* pool_policy: the pool's decisions; see pool_policy.h. */
#include "autoconfig.h"

#include "server/pool_policy.h"

unsigned pool_next_streak(unsigned streak, bool clean, long long lived_ms)
{
	if (clean)
		return 0;
	if (lived_ms >= POOL_HEALTHY_MS)
		return 1;
	return streak < 1000 ? streak + 1 : streak;
}

long pool_restart_delay_ms(unsigned streak)
{
	if (streak <= 1)
		return 0;
	long delay = POOL_BACKOFF_FIRST_MS;
	for (unsigned i = 2; i < streak && delay < POOL_BACKOFF_MAX_MS; i++)
		delay *= 2;
	return delay < POOL_BACKOFF_MAX_MS ? delay : POOL_BACKOFF_MAX_MS;
}

bool pool_retire_due(unsigned long served, long max_requests)
{
	return max_requests > 0 && served >= (unsigned long)max_requests;
}

unsigned pool_old_to_keep(unsigned n, unsigned ready)
{
	return ready < n ? n - ready : 0;
}
