/* api/output: an item on its way to the JSON; see output.h. */
#include "autoconfig.h"

#include "api/output.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "api/listing.h"
#include "api/shape_plugin.h"
#include "core/log.h"
#include "lib/jsonr.h"
#include "lib/strbuf.h"
#include "site/withheld.h"

/* --- include= and depth= --- */

static void include_free(struct include *inc)
{
	for (size_t i = 0; i < inc->nkids; i++)
		include_free(&inc->kids[i]);
	free(inc->kids);
	free(inc->name);
}

static struct include *include_kid(struct include *inc, const char *name, size_t len)
{
	for (size_t i = 0; i < inc->nkids; i++)
		if (strlen(inc->kids[i].name) == len && memcmp(inc->kids[i].name, name, len) == 0)
			return &inc->kids[i];
	inc->kids = xrealloc(inc->kids, (inc->nkids + 1) * sizeof *inc->kids);
	struct include *kid = &inc->kids[inc->nkids++];
	memset(kid, 0, sizeof *kid);
	kid->name = xstrndup(name, len);
	return kid;
}

/* Adds the path "a.b.c" below root; returns -1 when it is too deep. */
static int include_add(struct include *root, const char *path)
{
	struct include *at = root;
	int levels = 0;
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ".");
		if (n > 0) {
			if (++levels > INCLUDE_MAX_DEPTH)
				return -1;
			at = include_kid(at, p, n);
		}
		p += n + (p[n] == '.');
	}
	return 0;
}

static int read_include(struct api_ctx *ctx, struct item_out *o)
{
	const char *names = request_param(ctx->req, "include");
	const char *depth = request_param(ctx->req, "depth");
	if (!names && !depth)
		return 0;
	o->include = xcalloc(1, sizeof *o->include);
	if (depth) {
		if (!(isdigit((unsigned char)depth[0]) && depth[1] == '\0' && depth[0] >= '1' &&
		      depth[0] <= '0' + INCLUDE_MAX_DEPTH))
			return api_fail(ctx, 400,
			                "The depth parameter must be a whole number from 1 to %d, not \"%.200s\".",
			                INCLUDE_MAX_DEPTH, depth);
		o->include->all = depth[0] - '0';
	}
	struct strlist paths = {NULL, 0};
	strlist_split(&paths, names ? names : "");
	int status = 0;
	for (size_t i = 0; i < paths.len && status == 0; i++)
		if (include_add(o->include, paths.items[i]) != 0)
			status = api_fail(ctx, 400,
			                  "The include parameter reaches more than %d relations deep: %.200s",
			                  INCLUDE_MAX_DEPTH, paths.items[i]);
	strlist_free(&paths);
	return status;
}

int api_output_read(struct api_ctx *ctx, enum shape_type type, struct item_out *o)
{
	memset(o, 0, sizeof *o);
	o->type = type;
	int status = read_include(ctx, o);
	if (status != 0) {
		api_output_free(o);
		return status;
	}
	listing_requested_fields(ctx->req, &o->fields);
	for (size_t i = 0; i < o->fields.len; i++)
		o->fields_dotted |= strchr(o->fields.items[i], '.') != NULL;
	return 0;
}

void api_output_free(struct item_out *o)
{
	strlist_free(&o->fields);
	if (o->include) {
		include_free(o->include);
		free(o->include);
	}
	memset(o, 0, sizeof *o);
}

bool api_output_plain(const struct api_ctx *ctx, const struct item_out *o, const char *handle)
{
	return !o->fields_dotted && !o->include && !ctx->shape_plugin &&
	       !config_shape(ctx->cfg, o->type, handle);
}

/* --- narrowing: shapes' keys.<field> and dotted fields --- */

/* Whether v holds a reference anywhere api_resolve_refs would change. */
static bool is_ref(value_t v)
{
	return value_ref_kind(v) != 0;
}

/* The paths of paths that go below first (first.x -> x) into below;
 * whether first itself is among them (then it is kept whole). */
static bool paths_below(const struct strlist *paths, const char *first, size_t len,
                        struct strlist *below)
{
	bool whole = false;
	memset(below, 0, sizeof *below);
	for (size_t i = 0; i < paths->len; i++) {
		const char *p = paths->items[i];
		if (strncmp(p, first, len) != 0)
			continue;
		if (p[len] == '\0')
			whole = true;
		else if (p[len] == '.')
			strlist_add(below, p + len + 1);
	}
	return whole;
}

/* A map's keys named by paths, each first part once, in order. */
static void narrow_map(const struct api_ctx *ctx, value_t map, const struct strlist *paths,
                       struct value_builder *out)
{
	struct strlist done = {NULL, 0};
	vb_map_begin(out);
	for (size_t i = 0; i < paths->len; i++) {
		const char *p = paths->items[i];
		size_t len = strcspn(p, ".");
		char *first = xstrndup(p, len);
		if (!strlist_contains(&done, first)) {
			strlist_add(&done, first);
			struct strlist below;
			bool whole = paths_below(paths, first, len, &below);
			value_t v = value_map_getz(map, first);
			vb_keyz(out, first);
			if (whole || below.len == 0)
				vb_value(out, v);
			else
				api_narrow(ctx, v, &below, out);
			strlist_free(&below);
		}
		free(first);
	}
	vb_map_end(out);
	strlist_free(&done);
}

void api_narrow(const struct api_ctx *ctx, value_t v, const struct strlist *paths,
                struct value_builder *out)
{
	if (is_ref(v)) {
		/* What the reader would see: the related items' short objects. */
		struct value_builder resolved = VALUE_BUILDER_INIT;
		api_resolve_refs(ctx, v, &resolved);
		api_narrow(ctx, vb_result(&resolved), paths, out);
		vb_release(&resolved);
		return;
	}
	if (value_type(v) == VALUE_MAP) {
		narrow_map(ctx, v, paths, out);
	} else if (value_type(v) == VALUE_ARRAY) {
		struct value_iter it;
		vb_array_begin(out);
		value_iter_init(&it, v);
		while (value_iter_next(&it))
			api_narrow(ctx, it.value, paths, out);
		vb_array_end(out);
	} else {
		vb_value(out, v);
	}
}

/* --- the shape plug-in (step 3) --- */

static const char *const type_names[SHAPE_TYPE_COUNT] = {
	"entries", "terms", "globals", "assets", "users", "pages",
};

/* The plug-in's item (a map) without the keys it may not add. */
static void keep_allowed(const struct api_ctx *ctx, value_t item, struct value_builder *out)
{
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, item);
	while (value_iter_next(&it)) {
		/* Never served, whatever a plug-in writes (spec §6). */
		if (withheld_key(it.key, it.key_len) ||
		    strlist_contains_counted(&ctx->cfg->excluded_keys, it.key, it.key_len))
			continue;
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
	vb_map_end(out);
}

/* Step 3: item as the plug-in rewrites it, into out; false (out left
 * empty) when it leaves the item as it is or gives back no object. */
static bool plugin_rewrite(struct api_ctx *ctx, enum shape_type type, const char *handle,
                           value_t item, struct value_builder *out)
{
	struct strbuf json = STRBUF_INIT, answer = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &json);
	jsonw_set_env(&w, &ctx->env);
	jsonw_value(&w, item);
	int rc = shape_plugin_call(ctx->shape_plugin, type_names[type], handle, strbuf_str(&json),
	                           json.len, &answer);
	struct value_builder parsed = VALUE_BUILDER_INIT;
	char err[JSONR_ERR_LEN] = "";
	bool done = false;
	if (rc < 0)
		log_every_minute(LOG_LEVEL_WARNING, "shape plug-in: rewriting an item of %s failed: "
		                 "it goes out unchanged", type_names[type]);
	else if (rc == 1 && jsonr_parse(answer.ptr ? answer.ptr : "", answer.len, &parsed, err) != 0)
		log_every_minute(LOG_LEVEL_WARNING, "shape plug-in: its item of %s is not JSON (%s): "
		                 "it goes out unchanged", type_names[type], err);
	else if (rc == 1 && value_type(vb_result(&parsed)) != VALUE_MAP)
		log_every_minute(LOG_LEVEL_WARNING, "shape plug-in: its item of %s is not a JSON "
		                 "object: it goes out unchanged", type_names[type]);
	else if (rc == 1)
		done = true;
	if (done)
		keep_allowed(ctx, vb_result(&parsed), out);
	vb_release(&parsed);
	strbuf_release(&json);
	strbuf_release(&answer);
	return done;
}

/* --- the way out --- */

/* The keys fields= asks for that the item has, or all when it names
 * none of them: users never gain a key by asking (api/users.c). */
static void known_fields(const struct strlist *fields, value_t item, struct strlist *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < fields->len; i++) {
		char *first = xstrndup(fields->items[i], strcspn(fields->items[i], "."));
		if (!value_is_missing(value_map_getz(item, first)))
			strlist_add(out, fields->items[i]);
		free(first);
	}
}

void api_output_write(struct api_ctx *ctx, const struct item_out *o, const char *handle,
                      struct jsonw *w, value_t item)
{
	struct value_builder stage[3] = {VALUE_BUILDER_INIT, VALUE_BUILDER_INIT, VALUE_BUILDER_INIT};
	value_t v = item;
	if (o->include) {
		api_expand(ctx, o->include, o->type, v, &stage[0]);
		v = vb_result(&stage[0]);
	}
	const struct shape_def *shape = config_shape(ctx->cfg, o->type, handle);
	if (shape) {
		api_shape_apply(ctx, shape, v, &stage[1]);
		v = vb_result(&stage[1]);
	}
	if (ctx->shape_plugin && plugin_rewrite(ctx, o->type, handle, v, &stage[2]))
		v = vb_result(&stage[2]);
	struct strlist fields = {NULL, 0};
	if (o->type == SHAPE_USERS)
		known_fields(&o->fields, v, &fields);
	const struct strlist *asked = o->type == SHAPE_USERS ? &fields : &o->fields;
	if (asked->len == 0) {
		jsonw_value(w, v);
	} else {
		struct value_builder chosen = VALUE_BUILDER_INIT;
		api_narrow(ctx, v, asked, &chosen);
		jsonw_value(w, vb_result(&chosen));
		vb_release(&chosen);
	}
	strlist_free(&fields);
	for (int i = 0; i < 3; i++)
		vb_release(&stage[i]);
}
