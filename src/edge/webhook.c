/* webhook: the change told to [webhook.*] endpoints; see webhook.h. */
#include "autoconfig.h"

#include "edge/webhook.h"

#include <string.h>

#include "lib/jsonw.h"
#include "lib/sha256.h"
#include "site/journal.h"
#include "site/tags.h"

static bool wanted(const struct webhook_def *h, const char *event)
{
	return h->events.len == 0 || strlist_contains(&h->events, event);
}

static const char *type_name(enum tag_kind kind)
{
	switch (kind) {
	case TAG_ENTRY: return "entry";
	case TAG_TERM: return "term";
	case TAG_GLOBAL: return "global";
	case TAG_NAV: return "nav";
	case TAG_ASSET: return "asset";
	case TAG_FORM: return "form";
	case TAG_USERS: return "user";
	default: return NULL;
	}
}

/* The container on disk in k's snapshot (the first), or NULL. */
static const char *container_on(const struct sync_keeper *k, const char *disk)
{
	struct value_iter it;
	value_iter_init(&it, k && k->snap ? snap_extras(k->snap, "assets") : VALUE_MISSING);
	while (value_iter_next(&it))
		if (strcmp(value_str(value_map_getz(it.value, "disk"), NULL), disk) == 0)
			return value_str(value_map_getz(it.value, "handle"), NULL);
	return NULL;
}

/* What the item is: its type, handle and id (null when not known: a new
 * entry's id is in a file the watcher does not read). */
static void write_item_names(struct jsonw *w, const struct sync_keeper *k,
                             const struct watch_file *f)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, id = STRBUF_INIT;
	enum tag_kind kind;
	bool placed = tag_item_of_change(f->event, f->disk, f->path, &kind, &a, &b);
	const char *type = placed ? type_name(kind) : NULL;
	const char *handle = type && kind != TAG_USERS ? a.ptr : NULL;
	if (type && kind == TAG_ENTRY) {
		uint32_t n = k && k->snap ? journal_entry_at(k->snap, a.ptr, b.ptr) : SNAP_NONE;
		if (n != SNAP_NONE)
			strbuf_addstr(&id, snap_entry_at(k->snap, n).id);
	} else if (type && (kind == TAG_TERM || kind == TAG_ASSET)) {
		const char *container = kind == TAG_ASSET ? container_on(k, a.ptr) : a.ptr;
		handle = container ? container : a.ptr;
		strbuf_addf(&id, "%s::%s", handle, b.ptr);
	} else if (type && kind != TAG_USERS) {
		strbuf_addstr(&id, a.ptr);
	}
	jsonw_keyz(w, "type");
	jsonw_stringz_or_null(w, type);
	jsonw_keyz(w, "handle");
	jsonw_stringz_or_null(w, handle);
	jsonw_keyz(w, "id");
	jsonw_stringz_or_null(w, id.len ? id.ptr : NULL);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&id);
}

/* The change's events that h is sent for, each once, in order. */
static void events_of(const struct webhook_def *h, const struct watch_file *files, size_t n,
                      struct strlist *out)
{
	if (n == 0 && wanted(h, "ContentSaved"))
		strlist_add(out, "ContentSaved");
	for (size_t i = 0; i < n; i++)
		if (wanted(h, files[i].event))
			strlist_add_unique(out, files[i].event);
}

bool edge_webhook_body(const struct webhook_def *h, const struct sync_keeper *k,
                       const struct watch_file *files, size_t n, uint64_t new_cache,
                       struct strbuf *out)
{
	struct strlist events = {NULL, 0};
	events_of(h, files, n, &events);
	if (events.len == 0)
		return false;
	char token[17];
	journal_token(new_cache, token);
	struct jsonw w;
	jsonw_init(&w, out);
	jsonw_object_begin(&w);
	jsonw_keyz(&w, "webhook");
	jsonw_stringz(&w, h->name);
	jsonw_keyz(&w, "generation");
	jsonw_stringz(&w, token);
	jsonw_keyz(&w, "events");
	jsonw_array_begin(&w);
	for (size_t i = 0; i < events.len; i++)
		jsonw_stringz(&w, events.items[i]);
	jsonw_array_end(&w);
	jsonw_keyz(&w, "items");
	jsonw_array_begin(&w);
	for (size_t i = 0; i < n; i++) {
		if (!wanted(h, files[i].event))
			continue;
		jsonw_object_begin(&w);
		jsonw_keyz(&w, "event");
		jsonw_stringz(&w, files[i].event);
		write_item_names(&w, k, &files[i]);
		jsonw_keyz(&w, "path");
		jsonw_stringz(&w, files[i].path);
		jsonw_object_end(&w);
	}
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	strlist_free(&events);
	return true;
}

static void send_one(struct outbox *o, const struct webhook_def *h, const struct strbuf *body,
                     uint64_t new_cache, long long now_ms)
{
	char token[17], hex[SHA256_HEX_LEN + 1];
	journal_token(new_cache, token);
	struct strbuf signature = STRBUF_INIT, delivery = STRBUF_INIT, what = STRBUF_INIT;
	hmac_sha256_hex(h->secret, strlen(h->secret), body->ptr, body->len, hex);
	strbuf_addf(&signature, "X-Cms-Api-Signature: sha256=%s", hex);
	strbuf_addf(&delivery, "X-Cms-Api-Delivery: %s-%s", token, h->name);
	strbuf_addf(&what, "webhook %s", h->name);
	const char *headers[] = {"Content-Type: application/json", delivery.ptr, signature.ptr};
	size_t nheaders = *h->secret ? 3 : 2;
	struct outbox_request r = {"POST", h->url, what.ptr, headers, nheaders, body->ptr, body->len,
	                           true};
	outbox_add(o, &r, now_ms);
	strbuf_release(&signature);
	strbuf_release(&delivery);
	strbuf_release(&what);
}

void edge_webhooks_send(struct outbox *o, const struct config *cfg, const struct sync_keeper *k,
                        const struct watch_file *files, size_t n, uint64_t new_cache,
                        long long now_ms)
{
	for (size_t i = 0; i < cfg->nwebhooks; i++) {
		struct strbuf body = STRBUF_INIT;
		if (edge_webhook_body(&cfg->webhooks[i], k, files, n, new_cache, &body))
			send_one(o, &cfg->webhooks[i], &body, new_cache, now_ms);
		strbuf_release(&body);
	}
}
