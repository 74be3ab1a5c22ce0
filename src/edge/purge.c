/* purge: the tags a change touched, sent to the caches in front; see
 * purge.h. */
#include "autoconfig.h"

#include "edge/purge.h"

#include <string.h>

#include "core/log.h"
#include "lib/jsonw.h"
#include "lib/strbuf.h"
#include "site/tags.h"

/* An xkey-purge header at most this long: Varnish reads a request header
 * line of up to http_req_hdr_len (8k by default). */
#define XKEY_PURGE_BYTES 4096

bool edge_purges_on(const struct config *cfg)
{
	return *cfg->edge_varnish || *cfg->edge_purge_url;
}

void edge_purge_tags(const struct config *cfg, const struct watch_file *files, size_t n,
                     struct tagset *tags)
{
	const char *prefix = cfg->edge_tag_prefix;
	tagset_clear(tags);
	bool placed = n > 0;
	for (size_t i = 0; i < n && placed; i++)
		placed = tags_of_change(prefix, files[i].event, files[i].disk, files[i].path, tags);
	if (!placed) {
		tagset_clear(tags);
		tag_add(tags, prefix, TAG_ALL, NULL, NULL, NULL);
	}
	tag_add(tags, prefix, TAG_ANY, NULL, NULL, NULL);
}

/* One PURGE to Varnish for the tags in value. */
static void varnish_purge(struct outbox *o, const struct config *cfg, const struct strbuf *value,
                          long long now_ms)
{
	struct strbuf url = STRBUF_INIT, header = STRBUF_INIT;
	strbuf_addf(&url, "%s/", cfg->edge_varnish);
	strbuf_addf(&header, "xkey-purge: %s", value->ptr);
	const char *headers[] = {header.ptr};
	struct outbox_request r = {"PURGE", url.ptr, "purge", headers, 1, NULL, 0, false};
	outbox_add(o, &r, now_ms);
	strbuf_release(&url);
	strbuf_release(&header);
}

/* Varnish: as many PURGE requests as the tags need, each header within
 * XKEY_PURGE_BYTES. */
static void send_varnish(struct outbox *o, const struct config *cfg, const struct tagset *tags,
                         long long now_ms)
{
	struct strbuf value = STRBUF_INIT;
	for (size_t i = 0; i < tags->n; i++) {
		if (value.len && value.len + 1 + strlen(tags->tags[i]) > XKEY_PURGE_BYTES) {
			varnish_purge(o, cfg, &value, now_ms);
			strbuf_reset(&value);
		}
		if (value.len)
			strbuf_addch(&value, ' ');
		strbuf_addstr(&value, tags->tags[i]);
	}
	if (value.len)
		varnish_purge(o, cfg, &value, now_ms);
	strbuf_release(&value);
}

/* A CDN's endpoint: {"tags": [...]} in one POST. */
static void send_endpoint(struct outbox *o, const struct config *cfg, const struct tagset *tags,
                          long long now_ms)
{
	struct strbuf body = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &body);
	jsonw_object_begin(&w);
	jsonw_keyz(&w, "tags");
	jsonw_array_begin(&w);
	for (size_t i = 0; i < tags->n; i++)
		jsonw_stringz(&w, tags->tags[i]);
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	const char *headers[] = {"Content-Type: application/json", cfg->edge_purge_header};
	size_t nheaders = *cfg->edge_purge_header ? 2 : 1;
	struct outbox_request r = {"POST", cfg->edge_purge_url, "purge", headers, nheaders,
	                           body.ptr, body.len, false};
	outbox_add(o, &r, now_ms);
	strbuf_release(&body);
}

void edge_purge_send(struct outbox *o, const struct config *cfg, const struct tagset *tags,
                     long long now_ms)
{
	if (tags->n == 0)
		return;
	struct strbuf said = STRBUF_INIT;
	for (size_t i = 0; i < tags->n && said.len < 200; i++)
		strbuf_addf(&said, "%s%s", i ? " " : "", tags->tags[i]);
	log_info("purging %zu tag(s): %s%s", tags->n, said.ptr, said.len >= 200 ? " ..." : "");
	strbuf_release(&said);
	if (*cfg->edge_varnish)
		send_varnish(o, cfg, tags, now_ms);
	if (*cfg->edge_purge_url)
		send_endpoint(o, cfg, tags, now_ms);
}
