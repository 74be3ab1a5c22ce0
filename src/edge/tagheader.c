/* tagheader: an answer's cache tags as its header; see tagheader.h. */
#include "autoconfig.h"

#include "edge/tagheader.h"

#include <string.h>

#include "lib/strbuf.h"
#include "site/tags.h"

/*
 * What each cache reads of its header, as its documentation says:
 *  - Surrogate-Key (Fastly, "Surrogate-Key" in the HTTP headers
 *    reference): space-separated keys of 1024 bytes at most, the header
 *    16,384 bytes at most; keys past a limit are ignored;
 *  - Cache-Tag (Cloudflare, "Purge cache by cache-tags"): comma-separated,
 *    the header at most 16 KB after its name (and, its support article
 *    says, 1000 unique tags);
 *  - Edge-Cache-Tag (Akamai, Fast Purge "Assign cache tags"): one header,
 *    at most 128 comma-delimited tags of 128 characters each, without
 *    ':', '/' or ',' (the tags of site/tags.h never have them), in a reply
 *    whose headers take 8192 bytes by default;
 *  - xkey (varnish-modules' vmod_xkey): keys separated by spaces or
 *    commas, in one header line that Varnish's http_resp_hdr_len bounds
 *    (8k by default).
 * Where: https://www.fastly.com/documentation/guides/full-site-delivery/
 * purging/working-with-surrogate-keys (and .../reference/http/http-headers/
 * Surrogate-Key); https://developers.cloudflare.com/cache/how-to/
 * purge-cache/purge-by-tags/; https://techdocs.akamai.com/purge-cache/docs/
 * assign-cache-tags and .../purge-content-cache-tag; vmod_xkey(3) of
 * varnish-modules 0.20, and varnishd(1) on http_resp_hdr_len.
 * Whatever the cache, the header must also pass the web server between
 * cms-api and it: nginx reads a FastCGI answer's headers into one
 * fastcgi_buffer_size buffer, a 4 KiB page by default, and answers 502
 * "upstream sent too big header" past it. So no header is longer than
 * WEB_SERVER_BYTES, which leaves room for the answer's other headers.
 */
#define WEB_SERVER_BYTES 3072

struct header_kind {
	const char *name;
	struct tag_limits lim;
};

static const struct header_kind kinds[] = {
	{"Surrogate-Key", {0, 16384, ' '}},
	{"Cache-Tag", {1000, 16384, ','}},
	{"Edge-Cache-Tag", {128, 8192, ','}},
	{"xkey", {0, 8192, ' '}},
};

bool edge_tags_on(const struct config *cfg)
{
	return cfg->edge_tags_header && *cfg->edge_tags_header;
}

void edge_tags_begin(const struct config *cfg, struct tagset *tags)
{
	tagset_clear(tags);
	if (edge_tags_on(cfg))
		tag_add(tags, cfg->edge_tag_prefix, TAG_ALL, NULL, NULL, NULL);
}

static const struct header_kind *kind_of(const char *name)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(kinds[i].name, name) == 0)
			return &kinds[i];
	return NULL;
}

void edge_tags_answer(const struct config *cfg, const struct tagset *tags, struct response *res)
{
	const struct header_kind *k = edge_tags_on(cfg) ? kind_of(cfg->edge_tags_header) : NULL;
	if (!k || (res->status != 200 && res->status != 404))
		return;
	struct tag_limits lim = k->lim;
	if (!lim.max_bytes || lim.max_bytes > WEB_SERVER_BYTES)
		lim.max_bytes = WEB_SERVER_BYTES;
	struct strbuf any = STRBUF_INIT, value = STRBUF_INIT;
	tag_name(&any, cfg->edge_tag_prefix, TAG_ANY, NULL, NULL);
	if (res->status == 404) {
		struct tagset missing = TAGSET_INIT;
		edge_tags_begin(cfg, &missing);
		tagset_add(&missing, any.ptr, NULL);
		tagset_write(&missing, &lim, any.ptr, &value);
		tagset_free(&missing);
	} else {
		tagset_write(tags, &lim, any.ptr, &value);
	}
	response_set_header(res, k->name, value.ptr);
	strbuf_release(&any);
	strbuf_release(&value);
}
