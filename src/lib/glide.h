/*
 * glide: the image parameters of League Glide's URL API, as far as
 * cms-api makes them (api/images.h), read strictly, and presets written
 * the INI's way. It knows nothing of images or of cms-api: it turns text
 * into a struct glide_params, or says which parameter is wrong.
 *
 * Parameters (Glide's names and values):
 *   w, h   width and height in pixels, a whole number from 1 to 100000
 *          written without a leading zero;
 *   fit    contain (the default: within w x h, keeping the ratio), max
 *          (the same, never larger than the source), fill and fill-max
 *          (contain and max, then padded to w x h), stretch (exactly w x
 *          h, ratio ignored), crop or cover (covering w x h, cut at the
 *          centre), crop-top-left, crop-top, crop-top-right, crop-left,
 *          crop-center, crop-right, crop-bottom-left, crop-bottom,
 *          crop-bottom-right (cut there; "cover-" the same), crop-X-Y
 *          (cut around the focal point X% across, Y% down);
 *   dpr    device pixel ratio, multiplies w and h: a number above 0, at
 *          most 8;
 *   fm     jpg, pjpg (progressive JPEG), png, gif, webp, avif; absent:
 *          the source's own format when it is one of those, else jpg;
 *   q      quality, 0 to 100 (default 90, Glide's);
 *   p      a preset's name (read by the caller: glide_presets_find);
 *   s      the signature (read by the caller).
 * Glide's other parameters (or, crop=, bg, blur, bri, con, gam, sharp,
 * pixel, filt, flip, mark*, border) are refused by name rather than
 * ignored, so that nobody takes an image for one they asked for; and a
 * value Glide would quietly read as another (w=0400, q=high) is refused,
 * so one image has one URL.
 *
 * Presets: "name:key=value,key=value name2:key=value,...": a name (A-Z
 * a-z 0-9 - _) and ':' start a preset, its parameters follow, separated
 * by ',' or blanks, until the next "name:". [images] presets holds them.
 */
#ifndef CMS_API_GLIDE_H
#define CMS_API_GLIDE_H

#include <stdbool.h>
#include <stddef.h>

#define GLIDE_ERR_LEN 256
#define GLIDE_MAX_SIDE 100000
#define GLIDE_DEFAULT_QUALITY 90

enum glide_fit {
	GLIDE_FIT_CONTAIN,
	GLIDE_FIT_MAX,
	GLIDE_FIT_FILL,
	GLIDE_FIT_FILL_MAX,
	GLIDE_FIT_STRETCH,
	GLIDE_FIT_COVER, /* cut at focus_x, focus_y */
};

enum glide_format {
	GLIDE_FM_SOURCE, /* not given: the source's (glide_format_of_extension) */
	GLIDE_FM_JPG,
	GLIDE_FM_PJPG,
	GLIDE_FM_PNG,
	GLIDE_FM_GIF,
	GLIDE_FM_WEBP,
	GLIDE_FM_AVIF,
};

struct glide_params {
	long w, h;            /* 0: not given */
	enum glide_fit fit;
	int focus_x, focus_y; /* GLIDE_FIT_COVER: per cent across and down (50, 50) */
	double dpr;           /* 1 when not given */
	enum glide_format fm;
	int q;                /* GLIDE_DEFAULT_QUALITY when not given */
};

void glide_params_init(struct glide_params *p);

/* Sets the parameter key (one of w, h, fit, dpr, fm, q) from its text.
 * Returns 0, or -1 with err naming the parameter and what is wrong with
 * it (another of Glide's parameters: not supported; any other: unknown). */
int glide_param_set(struct glide_params *p, const char *key, const char *value,
                    char err[GLIDE_ERR_LEN]);

/* The format an image file of this extension (any case, no dot) is
 * delivered in when fm is not given: jpg, png, gif, webp, avif as such
 * (jpeg as jpg), anything else as jpg. */
enum glide_format glide_format_of_extension(const char *ext);

/* The MIME type and the file extension (no dot) of a format other than
 * GLIDE_FM_SOURCE. */
const char *glide_format_type(enum glide_format fm);
const char *glide_format_extension(enum glide_format fm);

struct glide_preset {
	char *name;                /* owned */
	char *query;               /* owned: its parameters as a query, "w=300&h=300" */
	struct glide_params params;
};

struct glide_presets {
	struct glide_preset *items; /* owned, in the order written */
	size_t n;
};

/* Parses presets written as above (text may be empty: none). Returns 0,
 * or -1 with err naming the preset and its fault (a name given twice, a
 * preset without parameters, a bad parameter); out then holds nothing. */
int glide_presets_parse(const char *text, struct glide_presets *out, char err[GLIDE_ERR_LEN]);
const struct glide_preset *glide_presets_find(const struct glide_presets *presets,
                                              const char *name);
void glide_presets_free(struct glide_presets *presets);

#endif
