/*
 * api/sites: GET /{route}/sites, the site list (spec §4), enabled by
 * [resources] sites = true.
 */
#include "autoconfig.h"

#include "api/api.h"

#include <string.h>

/* A site's url made absolute against the site root, unless it is absolute
 * already. */
static void write_absolute_site_url(struct api_ctx *ctx, struct jsonw *w, const char *url)
{
	if (strstr(url, "://")) {
		jsonw_stringz(w, url);
		return;
	}
	struct strbuf abs = STRBUF_INIT;
	strbuf_addstr(&abs, ctx->env.site_base);
	if (*url != '/')
		strbuf_addch(&abs, '/');
	strbuf_addstr(&abs, url);
	jsonw_string(w, abs.ptr, abs.len);
	strbuf_release(&abs);
}

static void write_site(struct api_ctx *ctx, struct jsonw *w, const struct snap_site *s)
{
	jsonw_object_begin(w);
	jsonw_keyz(w, "handle");
	jsonw_stringz(w, s->handle);
	jsonw_keyz(w, "name");
	jsonw_stringz(w, s->name);
	jsonw_keyz(w, "locale");
	jsonw_stringz(w, s->locale);
	jsonw_keyz(w, "short_locale");
	jsonw_stringz(w, s->short_locale);
	jsonw_keyz(w, "url");
	write_absolute_site_url(ctx, w, s->url);
	jsonw_object_end(w);
}

int api_sites_index(struct api_ctx *ctx)
{
	struct jsonw w;
	api_begin_data(ctx, &w);
	jsonw_array_begin(&w);
	for (uint32_t i = 0; i < snap_site_count(ctx->snap); i++) {
		struct snap_site site = snap_site_at(ctx->snap, i);
		write_site(ctx, &w, &site);
	}
	jsonw_array_end(&w);
	api_end_data(&w);
	return 0;
}
