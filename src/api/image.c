/* image: an image made to size with libvips; see image.h. */
#include "autoconfig.h"

#include "api/image.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>

#include "core/log.h"

/* libvips, started once per process (a worker, after its fork). */
static int vips_state; /* 0: not tried; 1: ready; -1: failed */

static bool start_vips(void)
{
	if (vips_state == 0) {
		vips_state = VIPS_INIT("cms-api") == 0 ? 1 : -1;
		if (vips_state < 0) {
			log_error("libvips cannot start: %s", vips_error_buffer());
			vips_error_clear();
		} else {
			vips_concurrency_set(1);
			vips_cache_set_max(0);
			vips_cache_set_max_mem(0);
			vips_block_untrusted_set(TRUE);
		}
	}
	return vips_state > 0;
}

/* The work's bounds, checked as libvips computes pixels. */
struct watch {
	gint64 deadline_us;
	size_t max_memory;
	bool overran;
};

static void on_eval(VipsImage *image, VipsProgress *progress, void *arg)
{
	(void)progress;
	struct watch *w = arg;
	if (g_get_monotonic_time() > w->deadline_us || vips_tracked_get_mem() > w->max_memory) {
		w->overran = true;
		vips_image_set_kill(image, TRUE);
	}
}

/* The box the image is made for: w x h resolved as Glide does (a side
 * not given follows the source's ratio), times dpr. */
static void target_box(const struct glide_params *p, int src_w, int src_h, long *w, long *h)
{
	double bw = (double)p->w, bh = (double)p->h;
	if (!p->w && !p->h) {
		bw = src_w;
		bh = src_h;
	} else if (!p->w) {
		bw = round(bh * src_w / src_h);
	} else if (!p->h) {
		bh = round(bw * src_h / src_w);
	}
	*w = lround(fmax(1.0, round(bw * p->dpr)));
	*h = lround(fmax(1.0, round(bh * p->dpr)));
}

/* Resizes file into *out for the box w x h and the fit. */
static int resize(const char *file, const struct glide_params *p, int src_w, int src_h, long w,
                  long h, VipsImage **out)
{
	VipsImage *t = NULL;
	int rc;
	switch (p->fit) {
	case GLIDE_FIT_STRETCH:
		return vips_thumbnail(file, out, (int)w, "height", (int)h, "size", VIPS_SIZE_FORCE, NULL);
	case GLIDE_FIT_MAX:
	case GLIDE_FIT_FILL_MAX:
	case GLIDE_FIT_CONTAIN:
	case GLIDE_FIT_FILL:
		rc = vips_thumbnail(file, &t, (int)w, "height", (int)h, "size",
		                    p->fit == GLIDE_FIT_MAX || p->fit == GLIDE_FIT_FILL_MAX
		                            ? VIPS_SIZE_DOWN
		                            : VIPS_SIZE_BOTH,
		                    NULL);
		if (rc != 0 || p->fit == GLIDE_FIT_MAX || p->fit == GLIDE_FIT_CONTAIN) {
			*out = t;
			return rc;
		}
		/* Padded to the box, transparent where the format can be. */
		VipsImage *a = NULL;
		rc = vips_image_hasalpha(t) ? vips_copy(t, &a, NULL) : vips_addalpha(t, &a, NULL);
		g_object_unref(t);
		if (rc != 0)
			return rc;
		rc = vips_gravity(a, out, VIPS_COMPASS_DIRECTION_CENTRE, (int)w, (int)h, "extend",
		                  VIPS_EXTEND_BLACK, NULL);
		g_object_unref(a);
		return rc;
	case GLIDE_FIT_COVER:
		break;
	}
	/* Cover: scaled to cover the box, then cut at the focal point. */
	double scale = fmax((double)w / src_w, (double)h / src_h);
	int cw = (int)fmax((double)w, ceil(src_w * scale)), ch = (int)fmax((double)h, ceil(src_h * scale));
	rc = vips_thumbnail(file, &t, cw, "height", ch, "size", VIPS_SIZE_FORCE, NULL);
	if (rc != 0)
		return rc;
	int left = (int)((cw - w) * p->focus_x / 100), top = (int)((ch - h) * p->focus_y / 100);
	rc = vips_extract_area(t, out, left, top, (int)w, (int)h, NULL);
	g_object_unref(t);
	return rc;
}

/* The saver's options for fm, written into suffix. */
static void save_suffix(enum glide_format fm, int q, char *suffix, size_t n)
{
	switch (fm) {
	case GLIDE_FM_PJPG:
		snprintf(suffix, n, ".jpg[Q=%d,interlace,strip]", q);
		return;
	case GLIDE_FM_PNG:
		snprintf(suffix, n, ".png[strip]");
		return;
	case GLIDE_FM_GIF:
		snprintf(suffix, n, ".gif");
		return;
	case GLIDE_FM_WEBP:
		snprintf(suffix, n, ".webp[Q=%d,strip]", q);
		return;
	case GLIDE_FM_AVIF:
		snprintf(suffix, n, ".avif[Q=%d,strip]", q);
		return;
	case GLIDE_FM_SOURCE:
	case GLIDE_FM_JPG:
		break;
	}
	snprintf(suffix, n, ".jpg[Q=%d,strip]", q);
}

/* JPEG has no alpha: a transparent source goes on white, as Glide's. */
static int flatten_for(enum glide_format fm, VipsImage **img)
{
	if ((fm != GLIDE_FM_JPG && fm != GLIDE_FM_PJPG) || !vips_image_hasalpha(*img))
		return 0;
	VipsImage *flat = NULL;
	VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
	int rc = vips_flatten(*img, &flat, "background", white, NULL);
	vips_area_unref(VIPS_AREA(white));
	g_object_unref(*img);
	*img = flat;
	return rc;
}

/* Saves img as fm into out, watched by the bounds. */
static int save(VipsImage *img, enum glide_format fm, int q, const struct config *cfg,
                struct strbuf *out, bool *overran)
{
	char suffix[64];
	save_suffix(fm, q, suffix, sizeof suffix);
	struct watch watch = {g_get_monotonic_time() + cfg->images_max_time_ms * 1000LL,
	                      (size_t)cfg->images_max_memory * 1024 * 1024, false};
	vips_image_set_progress(img, TRUE);
	g_signal_connect(img, "eval", G_CALLBACK(on_eval), &watch);
	void *buf = NULL;
	size_t len = 0;
	int rc = vips_image_write_to_buffer(img, suffix, &buf, &len, NULL);
	*overran = watch.overran;
	if (rc == 0)
		strbuf_add(out, buf, len);
	g_free(buf);
	return rc;
}

static enum image_failure fail(struct strbuf *why, enum image_failure f, const char *msg)
{
	strbuf_addstr(why, msg);
	return f;
}

/* The libvips error, to the log with the file; the client gets msg. */
static enum image_failure vips_failed(const char *file, struct strbuf *why, const char *msg)
{
	const char *text = vips_error_buffer();
	size_t n = strlen(text);
	while (n > 0 && text[n - 1] == '\n')
		n--; /* libvips ends each message with one; a log line has none */
	log_warning("image %s: %.*s", file, (int)n, text);
	vips_error_clear();
	return fail(why, IMAGE_UNFIT, msg);
}

/* Reads the source's size from its header alone (no pixel decoded),
 * turned as the image will be (EXIF orientation). */
static enum image_failure source_size(const char *file, const struct config *cfg, int *w, int *h,
                                      struct strbuf *why)
{
	VipsImage *src = vips_image_new_from_file(file, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
	if (!src)
		return vips_failed(file, why, "The image cannot be read.");
	bool swap = vips_image_get_orientation_swap(src);
	*w = swap ? vips_image_get_height(src) : vips_image_get_width(src);
	*h = swap ? vips_image_get_width(src) : vips_image_get_height(src);
	g_object_unref(src);
	if ((double)*w * *h > (double)cfg->images_max_input_pixels) {
		strbuf_addf(why, "The image is too large to resize: %d x %d pixels, more than "
		            "[images] max_input_pixels (%ld).", *w, *h, cfg->images_max_input_pixels);
		return IMAGE_UNFIT;
	}
	return IMAGE_OK;
}

enum image_failure image_make(const struct config *cfg, const char *file, const char *ext,
                              const struct glide_params *params, struct strbuf *out,
                              const char **type, struct strbuf *why)
{
	if (!start_vips())
		return fail(why, IMAGE_BROKEN, "Server Error");
	int src_w = 0, src_h = 0;
	enum image_failure f = source_size(file, cfg, &src_w, &src_h, why);
	if (f != IMAGE_OK)
		return f;
	long w, h;
	target_box(params, src_w, src_h, &w, &h);
	if (w > IMAGE_MAX_SIDE || h > IMAGE_MAX_SIDE || (double)w * h > cfg->images_max_output_pixels) {
		strbuf_addf(why, "The image asked for is too large: %ld x %ld pixels, more than "
		            "[images] max_output_pixels (%ld) or %d on a side.", w, h,
		            cfg->images_max_output_pixels, IMAGE_MAX_SIDE);
		return IMAGE_BAD_SIZE;
	}
	enum glide_format fm = params->fm == GLIDE_FM_SOURCE ? glide_format_of_extension(ext)
	                                                     : params->fm;
	VipsImage *img = NULL;
	if (resize(file, params, src_w, src_h, w, h, &img) != 0 || flatten_for(fm, &img) != 0) {
		if (img)
			g_object_unref(img);
		return vips_failed(file, why, "The image cannot be resized.");
	}
	bool overran = false;
	int rc = save(img, fm, params->q, cfg, out, &overran);
	g_object_unref(img);
	if (rc != 0)
		return vips_failed(file, why, overran ? "The image took more than [images] "
		                                        "max_time_ms or max_memory to make."
		                                      : "The image cannot be made in that format.");
	*type = glide_format_type(fm);
	return IMAGE_OK;
}
