/*
 * api/images: GET /{route}/img/{container}/{path}, an asset's image at
 * the size the page needs, with League Glide's parameters (lib/glide.h):
 * /api/img/assets/photo.jpg?p=thumb or, signed,
 * /api/img/assets/photo.jpg?w=400&h=300&fit=crop&fm=webp&q=80&s=....
 *
 * Who may ask for what (so nobody can make a worker render sizes without
 * end, nor fill the cache with them):
 *  - a preset of [images] presets, by its name alone (?p=thumb): any
 *    other parameter beside it needs a signature;
 *  - any parameters with a signature: Glide's secure URLs, s =
 *    md5(sign_key + ":" + path + "?" + the other parameters sorted by
 *    name and written as PHP's http_build_query writes them), path being
 *    the URL's decoded path without its leading '/'
 *    ("api/img/assets/photo.jpg"); with p, the preset's parameters come
 *    first and the others override them;
 *  - no signature and no preset, a wrong signature, or one while [images]
 *    sign_key is empty: 403.
 * The route is on when [images] has presets or a sign key (else 404, as
 * is a container or file the index does not list, or a file that is not
 * a raster image: only jpg, jpeg, png, gif, webp, avif). The bounds of
 * api/image.h hold for every image.
 *
 * The answer is the image itself (Content-Type image/...), cached like
 * every 200 and published through the static fast path under a name with
 * its type's extension (fastpath.h).
 */
#include "autoconfig.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

#include "api/api.h"
#include "api/endpoints.h"
#include "api/image.h"
#include "api/tags.h"
#include "lib/consttime.h"
#include "lib/glide.h"
#include "lib/strbuf.h"
#include "lib/url.h"
#include "site/assets.h"
#include "site/media.h"

/* Appends s as PHP's urlencode does (http_build_query's default, RFC
 * 1738): A-Z a-z 0-9 - _ . kept, ' ' as '+', every other byte %XX. */
static void php_urlencode(const char *s, struct strbuf *out)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '_' || *p == '.')
			strbuf_addch(out, (char)*p);
		else if (*p == ' ')
			strbuf_addch(out, '+');
		else
			strbuf_addf(out, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct query_param *const *)a)->name,
	              (*(const struct query_param *const *)b)->name);
}

/* Glide's signature of the request: md5 as 32 hex digits, into out. */
static void glide_signature(const char *key, const struct request *req, char out[33])
{
	struct strbuf text = STRBUF_INIT;
	const struct query_param **sorted = xmalloc((req->nparams + 1) * sizeof *sorted);
	size_t n = 0;
	for (size_t i = 0; i < req->nparams; i++)
		if (strcmp(req->params[i].name, "s") != 0)
			sorted[n++] = &req->params[i];
	qsort(sorted, n, sizeof *sorted, by_name);
	char *path = url_decode(req->path, strlen(req->path), false);
	strbuf_addf(&text, "%s:%s?", key, path + (path[0] == '/'));
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&text, '&');
		php_urlencode(sorted[i]->name, &text);
		strbuf_addch(&text, '=');
		php_urlencode(sorted[i]->value, &text);
	}
	gchar *md5 = g_compute_checksum_for_string(G_CHECKSUM_MD5, text.ptr, (gssize)text.len);
	snprintf(out, 33, "%s", md5);
	g_free(md5);
	free(path);
	free(sorted);
	strbuf_release(&text);
}

/* Starts params from the preset p names; 0, or 400 for an unknown one. */
static int apply_preset(struct api_ctx *ctx, const char *name, struct glide_params *params)
{
	struct glide_presets presets;
	char err[GLIDE_ERR_LEN];
	if (glide_presets_parse(ctx->cfg->images_presets, &presets, err) != 0)
		memset(&presets, 0, sizeof presets); /* config.c checked them */
	const struct glide_preset *p = glide_presets_find(&presets, name);
	if (p)
		*params = p->params;
	glide_presets_free(&presets);
	return p ? 0 : api_fail(ctx, 400, "Unknown image preset: %s.", name);
}

/* A signed request: the signature checked, then every parameter. */
static int signed_params(struct api_ctx *ctx, const char *s, struct glide_params *params)
{
	const char *key = ctx->cfg->images_sign_key;
	char want[33];
	if (!*key)
		return api_fail(ctx, 403, "Signed image URLs are not accepted here: only presets.");
	glide_signature(key, ctx->req, want);
	if (!constant_time_equal(s, strlen(s), want, 32))
		return api_fail(ctx, 403, "Signature is not valid.");
	const char *p = request_param(ctx->req, "p");
	if (p && apply_preset(ctx, p, params) != 0)
		return 400;
	for (size_t i = 0; i < ctx->req->nparams; i++) {
		const struct query_param *q = &ctx->req->params[i];
		char err[GLIDE_ERR_LEN];
		if (strcmp(q->name, "s") != 0 && strcmp(q->name, "p") != 0 &&
		    glide_param_set(params, q->name, q->value, err) != 0)
			return api_fail(ctx, 400, "%s", err);
	}
	return 0;
}

/* What the request asks for, and whether it may (see the top). */
static int read_params(struct api_ctx *ctx, struct glide_params *params)
{
	glide_params_init(params);
	const char *s = request_param(ctx->req, "s");
	if (s)
		return signed_params(ctx, s, params);
	const char *p = request_param(ctx->req, "p");
	bool others = ctx->req->nparams > (p ? 1u : 0u);
	if (!p || others)
		return api_fail(ctx, 403, *ctx->cfg->images_sign_key
		                                  ? "Image parameters need a signature (s) unless "
		                                    "they name a preset (p) alone."
		                                  : "Only a preset (p) alone may be asked for.");
	return apply_preset(ctx, p, params);
}

/* The file's absolute path below its disk's root, into out; false when
 * the disk is unknown or the file resolves outside it (a link changed
 * since the index was made). */
static bool file_on_disk(const struct config *cfg, value_t container, const char *path,
                         struct strbuf *out)
{
	const char *disk = value_str(value_map_getz(container, "disk"), NULL);
	const char *root = NULL;
	for (size_t i = 0; disk && i < cfg->ndisks; i++)
		if (strcmp(cfg->disks[i].name, disk) == 0)
			root = cfg->disks[i].root;
	char real_root[PATH_MAX], real_file[PATH_MAX];
	if (!root || !realpath(root, real_root))
		return false;
	struct strbuf joined = STRBUF_INIT;
	strbuf_addf(&joined, "%s/%s", real_root, path);
	bool ok = realpath(joined.ptr, real_file) != NULL;
	size_t n = strlen(real_root);
	ok = ok && strncmp(real_file, real_root, n) == 0 && real_file[n] == '/';
	if (ok)
		strbuf_addstr(out, real_file);
	strbuf_release(&joined);
	return ok;
}

static int make(struct api_ctx *ctx, const char *file, const char *ext,
                const struct glide_params *params)
{
	struct strbuf bytes = STRBUF_INIT, why = STRBUF_INIT;
	const char *type = NULL;
	enum image_failure f = image_make(ctx->cfg, file, ext, params, &bytes, &type, &why);
	int status = 0;
	if (f == IMAGE_OK) {
		struct strbuf *body = response_begin(ctx->res, 200, type);
		strbuf_add(body, bytes.ptr ? bytes.ptr : "", bytes.len);
	} else if (f == IMAGE_BROKEN) {
		status = http_error_server(ctx->error);
	} else {
		status = api_fail(ctx, f == IMAGE_BAD_SIZE ? 400 : 422, "%s", why.ptr);
	}
	strbuf_release(&bytes);
	strbuf_release(&why);
	return status;
}

int api_images_show(struct api_ctx *ctx)
{
	if (!endpoints_images_on(ctx->cfg))
		return api_not_found(ctx);
	value_t container = snap_extras_find(ctx->snap, "assets", ctx->params[0]);
	value_t file = value_is_missing(container) ? VALUE_MISSING
	                                           : assets_find_file(container, ctx->params[1]);
	const char *ext = value_str(value_map_getz(file, "extension"), NULL);
	if (value_is_missing(file) || !ext || !media_is_image(ext) || media_is_svg(ext))
		return api_not_found(ctx);
	/* An edit of the source purges its every size at the edge. */
	api_tag_asset(ctx, ctx->params[0], ctx->params[1]);
	struct glide_params params;
	int status = read_params(ctx, &params);
	if (status != 0)
		return status;
	struct strbuf path = STRBUF_INIT;
	if (file_on_disk(ctx->cfg, container, ctx->params[1], &path))
		status = make(ctx, path.ptr, ext, &params);
	else
		status = api_not_found(ctx);
	strbuf_release(&path);
	return status;
}
