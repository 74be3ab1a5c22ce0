/* api/search: q= on the entries and terms lists; see api.h api_search. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "core/log.h"
#include "http/error.h"
#include "http/request.h"
#include "lib/strbuf.h"
#include "query/search.h"
#include "site/snapshot.h"

/* The worker's index, opened at its first search; or one of this request
 * alone (in *own) where the worker keeps none. NULL when it cannot open. */
static struct search_index *the_index(struct api_ctx *ctx, struct search_index **own)
{
	*own = NULL;
	struct search_index **ix = ctx->search ? ctx->search : own;
	if (!*ix) {
		char err[256];
		if (search_index_open(ix, err, sizeof err) != 0)
			log_error("%s", err);
	}
	return *ix;
}

/* found (numbers of src's items, best first) made item numbers (base +
 * number), only those among the n candidates items (every item when
 * items is NULL), into *out; returns how many. */
static size_t keep_candidates(const uint32_t *found, size_t nfound, uint32_t base, size_t total,
                              const uint32_t *items, size_t n, uint32_t **out)
{
	char *candidate = NULL;
	if (items) {
		candidate = xcalloc(total + 1, 1);
		for (size_t i = 0; i < n; i++)
			if (items[i] >= base && items[i] - base < total)
				candidate[items[i] - base] = 1;
	}
	*out = xmalloc((nfound + 1) * sizeof **out);
	size_t kept = 0;
	for (size_t i = 0; i < nfound; i++)
		if (found[i] < total && (!candidate || candidate[found[i]]))
			(*out)[kept++] = base + found[i];
	free(candidate);
	return kept;
}

int api_search(struct api_ctx *ctx, enum resource_type type, const char *handle, const char *list,
               const struct search_source *src, uint32_t base, const uint32_t *items, size_t *n,
               uint32_t **ranked)
{
	*ranked = NULL;
	const char *words = request_param(ctx->req, "q");
	if (!words || !search_has_words(words))
		return 0;
	/* A list the config names no field to search in ignores q=, as
	 * Statamic ignores a parameter it does not know. */
	const struct strlist *fields = search_fields(ctx->cfg, type, handle);
	if (!fields)
		return 0;
	struct search_index *own;
	struct search_index *ix = the_index(ctx, &own);
	if (!ix)
		return http_error_server(ctx->error);
	char err[512];
	struct search_stats stats;
	uint32_t *found = NULL;
	size_t nfound = 0;
	int rc = search_sync(ix, list, snapshot_signature_of(ctx->snap), fields, src, &stats, err,
	                     sizeof err);
	if (rc == 0 && stats.synced)
		log_info("search: %s brought current in %.3f s: %zu items, %zu written, %zu removed, "
		         "the index %zu bytes", list, stats.seconds, stats.docs, stats.written,
		         stats.removed, search_index_bytes(ix));
	if (rc == 0)
		rc = search_find(ix, list, words, &found, &nfound, err, sizeof err);
	if (rc == 0)
		*n = keep_candidates(found, nfound, base, src->n, items, *n, ranked);
	free(found);
	search_index_close(own);
	if (rc != 0) {
		log_error("search: %s: %s", list, err);
		return http_error_server(ctx->error);
	}
	return 0;
}
