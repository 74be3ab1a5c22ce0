/*
 * api/assets: GET /{route}/asset-containers, /asset-containers/{c},
 * /assets/{c} and /assets/{c}/{path} (spec §4, statamic-api.md §10.6).
 *
 * A container is {handle, title, api_url}. An asset is Statamic's
 * AugmentedAsset, keys in its order: the data's keys (its .meta `data:`),
 * then id, title, path, filename, basename, extension, is_asset,
 * is_audio, is_previewable, is_image, is_svg, is_video, blueprint,
 * container, folder, url, permalink, api_url (never edit_url: there is no
 * control panel), then the keys of a file that exists (every file the
 * index lists exists): size ... playtime, then the blueprint's fields
 * without a value (null), and `alt` (null) if nothing gave it yet: every
 * asset has one. A key both in the data and computed stands once, where
 * the data put it, with the computed value, except title and focus,
 * which Statamic takes from the data when it has them.
 *
 * The list is in path order (Statamic's) unless sorted; filters (only
 * those the container allows, else 422) and sorts read the values the
 * item shows; fields= narrows an item to those keys, on one asset too. An
 * asset is found by its exact path in the index, which lists nothing
 * outside the container (no '..', no link out of it, no hidden file):
 * nothing is opened at request time, and any other path is 404.
 *
 * The values are AugmentedAsset's (Statamic 5): size is the size for
 * humans, Str::fileSizeForHumans ("14 B", "1.50 KB", "2.25 MB"), while
 * size_bytes and size_b are the bytes and size_kilobytes and size_kb (and
 * the mega- and gigabytes) floats; focus is the data's, else "50-50-1",
 * and focus_css its background position ("50% 50%"); width, height,
 * orientation and ratio are those of images, svg and videos only,
 * duration and its kin those of audio and video, rounded, and
 * duration_minutes "62:5" (seconds unpadded, as PHP concatenates them).
 * orientation and ratio compare and divide as PHP does, numeric strings
 * (a .meta's width: '237') as numbers, and a file without dimensions is
 * "square" (null === null), as in Statamic.
 *
 * Where the values part from Statamic's, on purpose:
 *   - size_kilobytes and the others are the size rounded to two places;
 *     Statamic casts number_format()'s "1,205.63" to a float, which reads
 *     1.0 once a size has thousands;
 *   - duration is null when unknown, and so is playtime (PHP's date()
 *     would print the clock's minutes and seconds);
 *   - api_url percent-encodes each segment of the path (rawurlencode),
 *     where Laravel leaves '#', '?' and '%' bare and breaks the URL;
 *   - the container's api_url is its URL here (Statamic's is a TODO null);
 *   - an image whose header cannot be read has a null width and height
 *     (getimagesize()'s failure gives Statamic 0 x 0);
 *   - the data is delivered as stored, not through the blueprint's
 *     fieldtypes.
 */
#include "autoconfig.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "api/items.h"
#include "api/tags.h"
#include "api/entries.h"
#include "api/listing.h"
#include "api/output.h"
#include "lib/glide.h"
#include "lib/php.h"
#include "lib/strbuf.h"
#include "site/assets.h"
#include "site/augment.h"
#include "site/media.h"

/* One request's view of a container and its files. */
struct asset_list {
	struct api_ctx *ctx;
	value_t container;
	const char *handle;
	value_t *files; /* owned array of views into the snapshot */
	size_t n;
	const struct item_out *out; /* borrowed: what the request asks more of each asset */
};

/* One asset as its keys are computed. */
struct asset {
	const struct asset_list *l;
	value_t file, data;
	const char *path, *ext;
};

static struct asset asset_of(const struct asset_list *l, value_t file)
{
	return (struct asset){l, file, value_map_getz(file, "data"),
	                      value_str(value_map_getz(file, "path"), NULL),
	                      value_str(value_map_getz(file, "extension"), NULL)};
}

static value_t fact_of(const struct asset *a, const char *key)
{
	return value_map_getz(a->file, key);
}

/* --- identity --- */

static void write_id(const struct asset *a, struct value_builder *b)
{
	struct strbuf s = STRBUF_INIT;
	strbuf_addf(&s, "%s::%s", a->l->handle, a->path);
	vb_str(b, s.ptr, s.len);
	strbuf_release(&s);
}

static void write_title(const struct asset *a, struct value_builder *b)
{
	value_t own = value_map_getz(a->data, "title");
	vb_value(b, value_is_null(own) ? fact_of(a, "basename") : own);
}

static void write_path(const struct asset *a, struct value_builder *b)
{
	vb_strz(b, a->path);
}

/* The basename without its extension (PHP's pathinfo filename). */
static void write_filename(const struct asset *a, struct value_builder *b)
{
	const char *base = value_str(fact_of(a, "basename"), NULL);
	const char *dot = strrchr(base, '.');
	vb_str(b, base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

static void write_basename(const struct asset *a, struct value_builder *b)
{
	vb_value(b, fact_of(a, "basename"));
}

static void write_extension(const struct asset *a, struct value_builder *b)
{
	vb_strz(b, a->ext);
}

static void write_folder(const struct asset *a, struct value_builder *b)
{
	vb_value(b, fact_of(a, "folder"));
}

/* --- kinds --- */

static void write_is_asset(const struct asset *a, struct value_builder *b)
{
	(void)a;
	vb_bool(b, true);
}

static void write_is_audio(const struct asset *a, struct value_builder *b)
{
	vb_bool(b, media_is_audio(a->ext));
}

static void write_is_previewable(const struct asset *a, struct value_builder *b)
{
	vb_bool(b, media_is_previewable(a->ext));
}

static void write_is_image(const struct asset *a, struct value_builder *b)
{
	vb_bool(b, media_is_image(a->ext));
}

static void write_is_svg(const struct asset *a, struct value_builder *b)
{
	vb_bool(b, media_is_svg(a->ext));
}

static void write_is_video(const struct asset *a, struct value_builder *b)
{
	vb_bool(b, media_is_video(a->ext));
}

/* --- container and URLs --- */

static void write_blueprint(const struct asset *a, struct value_builder *b)
{
	vb_value(b, value_map_getz(a->l->container, "blueprint"));
}

static void write_container(const struct asset *a, struct value_builder *b)
{
	value_t c = a->l->container;
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "asset-containers/%s", a->l->handle);
	vb_map_begin(b);
	vb_keyz(b, "id");
	vb_strz(b, a->l->handle);
	vb_keyz(b, "title");
	vb_value(b, value_map_getz(c, "title"));
	vb_keyz(b, "handle");
	vb_strz(b, a->l->handle);
	vb_keyz(b, "disk");
	vb_value(b, value_map_getz(c, "disk"));
	vb_keyz(b, "blueprint");
	vb_value(b, value_map_getz(c, "blueprint"));
	vb_keyz(b, "search_index");
	vb_null(b);
	vb_keyz(b, "api_url");
	vb_url(b, URL_API, path.ptr, path.len);
	vb_map_end(b);
	strbuf_release(&path);
}

static void write_url(const struct asset *a, struct value_builder *b)
{
	struct strbuf url = STRBUF_INIT;
	if (assets_url(a->l->container, a->path, &url))
		vb_str(b, url.ptr, url.len);
	else
		vb_null(b);
	strbuf_release(&url);
}

static void write_permalink(const struct asset *a, struct value_builder *b)
{
	struct strbuf url = STRBUF_INIT;
	if (assets_url(a->l->container, a->path, &url))
		augment_permalink(url.ptr, "", b); /* a disk's url may be absolute already */
	else
		vb_null(b);
	strbuf_release(&url);
}

static void write_api_url(const struct asset *a, struct value_builder *b)
{
	struct strbuf path = STRBUF_INIT;
	assets_api_path(a->l->handle, a->path, &path);
	vb_url(b, URL_API, path.ptr, path.len);
	strbuf_release(&path);
}

/* --- size --- */

static int64_t size_bytes(const struct asset *a)
{
	return value_int(fact_of(a, "size"));
}

/* PHP's number_format(v, 2): two places, half away from zero, ',' between
 * the thousands. */
static void number_format2(double v, struct strbuf *out)
{
	char digits[64];
	snprintf(digits, sizeof digits, "%.2f", round(v * 100) / 100);
	size_t whole = strcspn(digits, ".");
	for (size_t i = 0; i < whole; i++) {
		if (i > 0 && (whole - i) % 3 == 0)
			strbuf_addch(out, ',');
		strbuf_addch(out, digits[i]);
	}
	strbuf_addstr(out, digits + whole);
}

/* Statamic's Str::fileSizeForHumans: "14 B", "1.50 KB", "2.25 MB", "1,024.00 GB". */
static void write_size(const struct asset *a, struct value_builder *b)
{
	static const struct {
		double bytes;
		const char *name;
	} units[] = {{1073741824.0, "GB"}, {1048576.0, "MB"}, {1024.0, "KB"}};
	int64_t n = size_bytes(a);
	struct strbuf s = STRBUF_INIT;
	for (size_t i = 0; i < sizeof units / sizeof units[0] && !s.len; i++) {
		if ((double)n >= units[i].bytes) {
			number_format2((double)n / units[i].bytes, &s);
			strbuf_addf(&s, " %s", units[i].name);
		}
	}
	if (!s.len)
		strbuf_addf(&s, "%lld B", (long long)n);
	vb_str(b, s.ptr, s.len);
	strbuf_release(&s);
}

static void write_size_bytes(const struct asset *a, struct value_builder *b)
{
	vb_int(b, size_bytes(a));
}

static void write_size_in(const struct asset *a, double unit, struct value_builder *b)
{
	vb_double(b, round((double)size_bytes(a) / unit * 100) / 100);
}

static void write_size_kilobytes(const struct asset *a, struct value_builder *b)
{
	write_size_in(a, 1024.0, b);
}

static void write_size_megabytes(const struct asset *a, struct value_builder *b)
{
	write_size_in(a, 1048576.0, b);
}

static void write_size_gigabytes(const struct asset *a, struct value_builder *b)
{
	write_size_in(a, 1073741824.0, b);
}

/* --- time --- */

static void write_last_modified(const struct asset *a, struct value_builder *b)
{
	value_t t = fact_of(a, "last_modified");
	if (value_type(t) == VALUE_INT)
		augment_iso8601(value_int(t), b);
	else
		vb_null(b);
}

static void write_last_modified_timestamp(const struct asset *a, struct value_builder *b)
{
	vb_value(b, fact_of(a, "last_modified"));
}

/* --- focus --- */

/* The data's focus, else the centre. */
static value_t focus_of(const struct asset *a, struct value_builder *scratch)
{
	value_t own = value_map_getz(a->data, "focus");
	if (!value_is_null(own))
		return own;
	vb_strz(scratch, "50-50-1");
	return vb_result(scratch);
}

static void write_focus(const struct asset *a, struct value_builder *b)
{
	struct value_builder scratch = VALUE_BUILDER_INIT;
	vb_value(b, focus_of(a, &scratch));
	vb_release(&scratch);
}

static void write_has_focus(const struct asset *a, struct value_builder *b)
{
	vb_bool(b, !value_is_null(value_map_getz(a->data, "focus")));
}

/* The background_position modifier: "x-y-zoom" -> "x% y%" (each part read
 * as PHP's %d reads it), anything without a '-' as it is. */
static void write_focus_css(const struct asset *a, struct value_builder *b)
{
	struct value_builder scratch = VALUE_BUILDER_INIT;
	value_t focus = focus_of(a, &scratch);
	const char *s = value_str(focus, NULL);
	const char *dash = strchr(s, '-');
	if (value_type(focus) != VALUE_STRING || !dash) {
		vb_value(b, focus);
	} else {
		struct strbuf css = STRBUF_INIT;
		strbuf_addf(&css, "%ld%% %ld%%", strtol(s, NULL, 10), strtol(dash + 1, NULL, 10));
		vb_str(b, css.ptr, css.len);
		strbuf_release(&css);
	}
	vb_release(&scratch);
}

/* --- dimensions --- */

/* The width or height of a kind of file that has them, else missing. */
static value_t dimension(const struct asset *a, const char *key)
{
	return media_has_dimensions(a->ext) ? fact_of(a, key) : VALUE_MISSING;
}

static bool is_number(value_t v)
{
	return value_type(v) == VALUE_INT || value_type(v) == VALUE_DOUBLE;
}

static void write_height(const struct asset *a, struct value_builder *b)
{
	vb_value(b, dimension(a, "height"));
}

static void write_width(const struct asset *a, struct value_builder *b)
{
	vb_value(b, dimension(a, "width"));
}

/* A width or a height as PHP holds it: null, a number, or a string (the
 * .meta may quote a number: width: '237'). */
static bool is_nullish(value_t v)
{
	return value_is_missing(v) || value_is_null(v);
}

/* The sign of a - b. */
static int sign_of(double d)
{
	return (d > 0) - (d < 0);
}

/* PHP 8's a <=> b for the values a dimension can take: numbers and
 * numeric strings by value, null against a number as false against its
 * truth, null against a string as "" against it, anything else as
 * strings. */
static int php_compare(value_t a, value_t b)
{
	double x, y;
	if (is_nullish(a) && is_nullish(b))
		return 0;
	if (is_nullish(a) != is_nullish(b) && (is_number(a) || is_number(b)))
		return is_nullish(a) ? -php_truthy(b) : php_truthy(a);
	if (php_numeric(a, &x) && php_numeric(b, &y))
		return sign_of(x - y);
	struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
	php_string(a, &sa);
	php_string(b, &sb);
	int order = strcmp(strbuf_str(&sa), strbuf_str(&sb));
	strbuf_release(&sa);
	strbuf_release(&sb);
	return sign_of(order);
}

/* PHP's ===: the same type and the same value. */
static bool php_identical(value_t a, value_t b)
{
	if (is_nullish(a) || is_nullish(b))
		return is_nullish(a) && is_nullish(b);
	if (value_type(a) != value_type(b))
		return false;
	if (value_type(a) == VALUE_STRING)
		return strcmp(value_str(a, NULL), value_str(b, NULL)) == 0;
	return is_number(a) && value_double(a) == value_double(b);
}

/* Asset::orientation word for word: height > width is portrait, < is
 * landscape, === is square (so a file without dimensions, null and null,
 * is square), anything else (a number against a string) null. */
static void write_orientation(const struct asset *a, struct value_builder *b)
{
	value_t w = dimension(a, "width"), h = dimension(a, "height");
	int order = php_compare(h, w);
	if (order > 0)
		vb_strz(b, "portrait");
	else if (order < 0)
		vb_strz(b, "landscape");
	else if (php_identical(h, w))
		vb_strz(b, "square");
	else
		vb_null(b);
}

/* A number PHP's arithmetic reads as an int: an int, or a numeric string
 * written as one ("237"). */
static bool int_like(value_t v, int64_t *out)
{
	if (value_type(v) == VALUE_INT) {
		*out = value_int(v);
		return true;
	}
	size_t len;
	const char *s = value_str(v, &len);
	if (value_type(v) != VALUE_STRING || !php_is_numeric(s, len) || strpbrk(s, ".eE"))
		return false;
	*out = strtoll(s, NULL, 10);
	return true;
}

/* width / height as PHP divides (numeric strings as numbers, null as 0):
 * an int when both are ints and it comes out whole; null without
 * dimensions, for a zero height, and for a value that is no number. */
static void write_ratio(const struct asset *a, struct value_builder *b)
{
	value_t w = dimension(a, "width"), h = dimension(a, "height");
	double x = 0, y;
	int64_t iw = 0, ih;
	if (!media_has_dimensions(a->ext) || !php_numeric(h, &y) || y == 0 ||
	    (!is_nullish(w) && !php_numeric(w, &x)))
		vb_null(b);
	else if ((is_nullish(w) || int_like(w, &iw)) && int_like(h, &ih) &&
	         (ih != -1 || iw != INT64_MIN) && iw % ih == 0)
		vb_int(b, iw / ih);
	else
		vb_double(b, x / y);
}

static void write_mime_type(const struct asset *a, struct value_builder *b)
{
	vb_value(b, fact_of(a, "mime_type"));
}

/* --- duration --- */

/* Longer than any recording; a .meta that says more is not believed (and
 * the clock arithmetic below stays within a time_t). */
#define MAX_DURATION 1e12

/* Seconds, rounded, of audio or video whose duration is known and not 0;
 * false otherwise. */
static bool duration_of(const struct asset *a, double *seconds)
{
	value_t d = fact_of(a, "duration");
	if (!media_has_duration(a->ext) || !is_number(d) || value_double(d) == 0 ||
	    !(fabs(value_double(d)) < MAX_DURATION))
		return false;
	*seconds = round(value_double(d));
	return true;
}

static void write_duration(const struct asset *a, struct value_builder *b)
{
	double s;
	if (duration_of(a, &s))
		vb_double(b, s);
	else
		vb_null(b);
}

/* "minutes:seconds", the seconds not padded: "2:5" (Statamic's). */
static void write_duration_minutes(const struct asset *a, struct value_builder *b)
{
	double s;
	if (!duration_of(a, &s)) {
		vb_null(b);
		return;
	}
	struct strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "%.0f:%lld", floor(s / 60), (long long)s % 60);
	vb_str(b, text.ptr, text.len);
	strbuf_release(&text);
}

/* "mm:ss", or "HH:mm:ss" from an hour on, as PHP's date() prints them. */
static void write_playtime(const struct asset *a, struct value_builder *b)
{
	double s;
	if (!duration_of(a, &s)) {
		vb_null(b);
		return;
	}
	time_t t = (time_t)s;
	struct tm tm;
	char text[16];
	gmtime_r(&t, &tm);
	strftime(text, sizeof text, s >= 3600 ? "%H:%M:%S" : "%M:%S", &tm);
	vb_strz(b, text);
}

/* --- the keys --- */

typedef void (*fact_fn)(const struct asset *a, struct value_builder *b);

/* Statamic's computed keys in its order (AugmentedAsset::keys). */
static const struct fact {
	const char *key;
	fact_fn write;
} facts[] = {
	{"id", write_id},
	{"title", write_title},
	{"path", write_path},
	{"filename", write_filename},
	{"basename", write_basename},
	{"extension", write_extension},
	{"is_asset", write_is_asset},
	{"is_audio", write_is_audio},
	{"is_previewable", write_is_previewable},
	{"is_image", write_is_image},
	{"is_svg", write_is_svg},
	{"is_video", write_is_video},
	{"blueprint", write_blueprint},
	{"container", write_container},
	{"folder", write_folder},
	{"url", write_url},
	{"permalink", write_permalink},
	{"api_url", write_api_url},
	/* Those of a file that exists. */
	{"size", write_size},
	{"size_bytes", write_size_bytes},
	{"size_kilobytes", write_size_kilobytes},
	{"size_megabytes", write_size_megabytes},
	{"size_gigabytes", write_size_gigabytes},
	{"size_b", write_size_bytes},
	{"size_kb", write_size_kilobytes},
	{"size_mb", write_size_megabytes},
	{"size_gb", write_size_gigabytes},
	{"last_modified", write_last_modified},
	{"last_modified_timestamp", write_last_modified_timestamp},
	{"last_modified_instance", write_last_modified},
	{"focus", write_focus},
	{"has_focus", write_has_focus},
	{"focus_css", write_focus_css},
	{"height", write_height},
	{"width", write_width},
	{"orientation", write_orientation},
	{"ratio", write_ratio},
	{"mime_type", write_mime_type},
	{"duration", write_duration},
	{"duration_seconds", write_duration},
	{"duration_minutes", write_duration_minutes},
	{"duration_sec", write_duration},
	{"duration_min", write_duration_minutes},
	{"playtime", write_playtime},
};
#define NFACTS (sizeof facts / sizeof facts[0])

static const struct fact *fact_named(const char *key, size_t len)
{
	for (size_t i = 0; i < NFACTS; i++)
		if (strlen(facts[i].key) == len && memcmp(facts[i].key, key, len) == 0)
			return &facts[i];
	return NULL;
}

static bool in_data(const struct asset *a, const char *key)
{
	return !value_is_missing(value_map_getz(a->data, key));
}

static bool excluded(const struct asset *a, const char *key, size_t len)
{
	return strlist_contains_counted(&a->l->ctx->cfg->excluded_keys, key, len);
}

/* The blueprint's fields and `alt` are keys even without a value. */
static bool null_key(const struct asset *a, const char *key)
{
	return strcmp(key, "alt") == 0 ||
	       !value_is_missing(value_map_getz(value_map_getz(a->l->container, "fields"), key));
}

/* The asset's value of key, as a filter or a sort reads it: the item's. */
static value_t asset_value(const struct asset *a, const char *key, struct value_builder *scratch)
{
	const struct fact *f = fact_named(key, strlen(key));
	vb_reset(scratch);
	if (f)
		f->write(a, scratch);
	else if (in_data(a, key))
		return value_map_getz(a->data, key);
	else if (null_key(a, key))
		vb_null(scratch);
	else
		return VALUE_MISSING;
	return vb_result(scratch);
}

/* "presets": {name: URL} of an image when [images] has presets (api/images.h):
 * where the page gets each size. Not Statamic's: only with presets. */
static void write_presets(const struct asset *a, struct value_builder *out)
{
	const char *text = a->l->ctx->cfg->images_presets;
	struct glide_presets presets;
	char err[GLIDE_ERR_LEN];
	if (!text || !*text || !media_is_image(a->ext) || media_is_svg(a->ext) ||
	    in_data(a, "presets") || excluded(a, "presets", 7) ||
	    glide_presets_parse(text, &presets, err) != 0)
		return;
	struct strbuf api = STRBUF_INIT, url = STRBUF_INIT;
	assets_api_path(a->l->handle, a->path, &api); /* "assets/{c}/{path}" */
	vb_keyz(out, "presets");
	vb_map_begin(out);
	for (size_t i = 0; i < presets.n; i++) {
		strbuf_reset(&url);
		strbuf_addf(&url, "img/%s?p=%s", api.ptr + strlen("assets/"), presets.items[i].name);
		vb_keyz(out, presets.items[i].name);
		vb_url(out, URL_API, url.ptr, url.len);
	}
	vb_map_end(out);
	glide_presets_free(&presets);
	strbuf_release(&api);
	strbuf_release(&url);
}

/* The whole item (without the excluded keys) as a map. */
static void build_asset(const struct asset *a, struct value_builder *out)
{
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, a->data);
	while (value_iter_next(&it)) {
		if (excluded(a, it.key, it.key_len))
			continue;
		const struct fact *f = fact_named(it.key, it.key_len);
		vb_key(out, it.key, it.key_len);
		if (f)
			f->write(a, out);
		else
			vb_value(out, it.value);
	}
	for (size_t i = 0; i < NFACTS; i++) {
		if (in_data(a, facts[i].key) || excluded(a, facts[i].key, strlen(facts[i].key)))
			continue;
		vb_keyz(out, facts[i].key);
		facts[i].write(a, out);
	}
	value_iter_init(&it, value_map_getz(a->l->container, "fields"));
	bool has_alt = in_data(a, "alt");
	while (value_iter_next(&it)) {
		char *key = xstrndup(it.key, it.key_len);
		has_alt |= strcmp(key, "alt") == 0;
		if (!in_data(a, key) && !fact_named(key, it.key_len) && !excluded(a, key, it.key_len)) {
			vb_keyz(out, key);
			vb_null(out);
		}
		free(key);
	}
	if (!has_alt && !excluded(a, "alt", 3)) {
		vb_keyz(out, "alt");
		vb_null(out);
	}
	write_presets(a, out);
	vb_map_end(out);
}

static void write_asset(const struct asset_list *l, struct jsonw *w, value_t file,
                        const struct strlist *fields)
{
	struct asset a = asset_of(l, file);
	api_tag_asset(l->ctx, l->handle, value_str(value_map_getz(file, "path"), NULL));
	struct value_builder item = VALUE_BUILDER_INIT;
	build_asset(&a, &item);
	if (!l->out || api_output_plain(l->ctx, l->out, l->handle))
		entries_write_item(w, vb_result(&item), fields);
	else
		api_output_write(l->ctx, l->out, l->handle, w, vb_result(&item));
	vb_release(&item);
}

/* --- the list's source --- */

static value_t listed_value(void *self, uint32_t item, const char *key,
                            struct value_builder *scratch)
{
	const struct asset_list *l = self;
	struct asset a = asset_of(l, l->files[item]);
	return asset_value(&a, key, scratch);
}

static void write_listed(void *self, struct jsonw *w, uint32_t item, const struct strlist *fields)
{
	const struct asset_list *l = self;
	write_asset(l, w, l->files[item], fields);
}

/* Opens the container named by the first parameter; returns 0, or 404
 * when it does not exist. With files, also its files. */
static int open_container(struct api_ctx *ctx, struct asset_list *l, bool files)
{
	memset(l, 0, sizeof *l);
	l->ctx = ctx;
	l->handle = ctx->params[0];
	l->container = snap_extras_find(ctx->snap, "assets", l->handle);
	if (value_is_missing(l->container))
		return api_not_found(ctx);
	if (!files)
		return 0;
	value_t all = value_map_getz(l->container, "files");
	l->files = xmalloc((value_count(all) + 1) * sizeof *l->files);
	struct value_iter it;
	value_iter_init(&it, all);
	while (value_iter_next(&it))
		l->files[l->n++] = it.value;
	return 0;
}

int api_assets_index(struct api_ctx *ctx)
{
	struct asset_list l;
	int status = open_container(ctx, &l, true);
	struct item_out out;
	if (status == 0)
		status = api_output_read(ctx, SHAPE_ASSETS, &out);
	if (status != 0) {
		free(l.files);
		return status;
	}
	l.out = &out;
	struct listing_source src = {listed_value, write_listed, &l};
	api_tag(ctx, TAG_ASSETS, value_str(value_map_getz(l.container, "disk"), NULL), NULL);
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "assets/%s", l.handle);
	status = listing_answer_all(ctx, RES_ASSETS, l.handle, &src, l.n, path.ptr);
	strbuf_release(&path);
	free(l.files);
	api_output_free(&out);
	return status;
}

int api_assets_show(struct api_ctx *ctx)
{
	struct asset_list l;
	int status = open_container(ctx, &l, false);
	if (status != 0)
		return status;
	value_t file = assets_find_file(l.container, ctx->params[1]);
	if (value_is_missing(file))
		return api_not_found(ctx);
	struct item_out out;
	status = api_output_read(ctx, SHAPE_ASSETS, &out);
	if (status != 0)
		return status;
	l.out = &out;
	struct jsonw w;
	api_begin_data(ctx, &w);
	write_asset(&l, &w, file, &out.fields);
	api_end_data(&w);
	api_output_free(&out);
	return 0;
}

/* --- containers --- */

static void write_container_item(struct jsonw *w, value_t container)
{
	api_write_titled(w, container, "asset-containers");
}

int api_asset_containers_index(struct api_ctx *ctx)
{
	api_extras_index(ctx, "assets", RES_ASSETS, write_container_item);
	return 0;
}

int api_asset_containers_show(struct api_ctx *ctx)
{
	return api_extras_show(ctx, "assets", write_container_item);
}

/* --- an asset for the handlers of other kinds (items.h) --- */

value_t api_asset_find(const struct api_ctx *ctx, const char *id, value_t *container)
{
	const char *sep = strstr(id, "::");
	*container = VALUE_MISSING;
	if (!sep)
		return VALUE_MISSING;
	char *handle = xstrndup(id, (size_t)(sep - id));
	*container = snap_extras_find(ctx->snap, "assets", handle);
	free(handle);
	return value_is_missing(*container) ? VALUE_MISSING : assets_find_file(*container, sep + 2);
}

/* The one-asset view the item's keys are computed over. */
static struct asset_list asset_list_of(struct api_ctx *ctx, value_t container)
{
	struct asset_list l = {ctx, container,
	                       value_str(value_map_getz(container, "handle"), NULL), NULL, 0, NULL};
	return l;
}

value_t api_asset_value(struct api_ctx *ctx, value_t container, value_t file, const char *key,
                        struct value_builder *scratch)
{
	struct asset_list l = asset_list_of(ctx, container);
	struct asset a = asset_of(&l, file);
	return asset_value(&a, key, scratch);
}

void api_asset_build(struct api_ctx *ctx, value_t container, value_t file,
                     struct value_builder *out)
{
	struct asset_list l = asset_list_of(ctx, container);
	struct asset a = asset_of(&l, file);
	build_asset(&a, out);
}

/* --- an asset for the sync feed (items.h) --- */

void api_write_asset(struct api_ctx *ctx, struct jsonw *w, const char *container, value_t file)
{
	struct asset_list l = asset_list_of(ctx, snap_extras_find(ctx->snap, "assets", container));
	struct strlist whole = {NULL, 0};
	write_asset(&l, w, file, &whole);
}
