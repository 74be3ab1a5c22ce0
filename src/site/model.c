/* model: lookups in a loaded site; see model.h. */
#include "autoconfig.h"

#include "site/model.h"

#include <string.h>

const struct collection_info *site_index_collection(const struct site_index *idx,
                                                    const char *handle)
{
	size_t lo = 0, hi = idx->ncollections;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(idx->collections[mid].handle, handle);
		if (cmp == 0)
			return &idx->collections[mid];
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct site_info *site_index_site(const struct site_index *idx, const char *handle)
{
	for (size_t i = 0; i < idx->nsites; i++)
		if (strcmp(idx->sites[i].handle, handle) == 0)
			return &idx->sites[i];
	return NULL;
}
