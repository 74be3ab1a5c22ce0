/*
 * image: one image file made at another size and format with libvips, as
 * Glide's parameters ask (lib/glide.h), within bounds, so that no image a
 * client can name costs a worker more than [images] allows:
 *
 *  - the source's pixels (width x height, read from its header before a
 *    pixel is decoded) at most max_input_pixels: a decompression bomb (a
 *    small file that claims 100000 x 100000 pixels) is refused unread;
 *  - the made image's pixels at most max_output_pixels, each side at
 *    most 16383 (WebP's limit);
 *  - libvips's tracked memory at most max_memory MiB and the work at most
 *    max_time_ms: checked as the pixels are computed, and the work
 *    stopped (libvips's kill flag) when either runs over.
 *
 * libvips is started in the process on first use (a worker, after the
 * fork), with one thread (a worker is one core's worth of work), no
 * operation cache (nothing kept between requests) and its untrusted
 * loaders blocked (vips_block_untrusted_set: ImageMagick, MATLAB, ...).
 * Only the files the index calls images reach it.
 */
#ifndef CMS_API_IMAGE_H
#define CMS_API_IMAGE_H

#include "core/config.h"
#include "lib/glide.h"
#include "lib/strbuf.h"

/* The side no made image may exceed. */
#define IMAGE_MAX_SIDE 16383

/* What went wrong, for the status the caller answers. */
enum image_failure {
	IMAGE_OK,
	IMAGE_BAD_SIZE,   /* the size asked for is beyond the bounds: 400 */
	IMAGE_UNFIT,      /* the source is too large, unreadable, or the work ran over: 422 */
	IMAGE_BROKEN,     /* libvips could not start: 500 */
};

/*
 * Makes the image file (an absolute path; ext its extension, which gives
 * the format when params->fm does not) as params asks, within cfg's
 * [images] bounds. Returns IMAGE_OK with the bytes appended to out and
 * *type set to their MIME type, or the failure with a message for the
 * client in why (the details of a libvips error go to the log).
 */
enum image_failure image_make(const struct config *cfg, const char *file, const char *ext,
                              const struct glide_params *params, struct strbuf *out,
                              const char **type, struct strbuf *why);

#endif
