/*
 * Unit tests: Glide's image parameters and presets (lib/glide.h), an image
 * made to size within its bounds (api/image.h: tests/fixtures/images), and
 * CORS (http/cors.h).
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/image.h"
#include "core/config.h"
#include "http/cors.h"
#include "lib/glide.h"
#include "unit.h"

/* --- parameters ------------------------------------------------------- */

static int set(struct glide_params *p, const char *key, const char *value, char *err)
{
	return glide_param_set(p, key, value, err);
}

static void test_params(void)
{
	struct glide_params p;
	char err[GLIDE_ERR_LEN];
	glide_params_init(&p);
	CU_ASSERT_EQUAL(p.q, 90);
	CU_ASSERT_EQUAL(p.fit, GLIDE_FIT_CONTAIN);
	CU_ASSERT_EQUAL(set(&p, "w", "400", err), 0);
	CU_ASSERT_EQUAL(set(&p, "h", "1", err), 0);
	CU_ASSERT_EQUAL(set(&p, "q", "0", err), 0);
	CU_ASSERT_EQUAL(set(&p, "dpr", "1.5", err), 0);
	CU_ASSERT_EQUAL(set(&p, "fm", "webp", err), 0);
	CU_ASSERT(p.w == 400 && p.h == 1 && p.q == 0 && p.dpr == 1.5 && p.fm == GLIDE_FM_WEBP);
	CU_ASSERT_EQUAL(set(&p, "fit", "crop-top-right", err), 0);
	CU_ASSERT(p.fit == GLIDE_FIT_COVER && p.focus_x == 100 && p.focus_y == 0);
	CU_ASSERT_EQUAL(set(&p, "fit", "crop-25-75", err), 0);
	CU_ASSERT(p.fit == GLIDE_FIT_COVER && p.focus_x == 25 && p.focus_y == 75);
	CU_ASSERT_EQUAL(set(&p, "fit", "cover", err), 0);
	CU_ASSERT(p.fit == GLIDE_FIT_COVER && p.focus_x == 50 && p.focus_y == 50);
	CU_ASSERT_EQUAL(set(&p, "fit", "fill-max", err), 0);
	CU_ASSERT_EQUAL(p.fit, GLIDE_FIT_FILL_MAX);
	/* One value, one spelling; nothing out of bounds. */
	static const char *const bad[][2] = {
		{"w", "0400"}, {"w", "0"}, {"w", "100001"}, {"w", "-1"}, {"w", "4e2"}, {"w", ""},
		{"q", "101"}, {"q", "high"}, {"dpr", "0"}, {"dpr", "9"}, {"dpr", "1.50"},
		{"dpr", ".5"}, {"dpr", "01"}, {"fit", "crop-101-0"}, {"fit", "crop-1"},
		{"fit", "cover-10-10"}, {"fit", "crop-5-5-2"}, {"fm", "bmp"}, {"fm", "JPG"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(set(&p, bad[i][0], bad[i][1], err), -1);
		char want[GLIDE_ERR_LEN];
		snprintf(want, sizeof want, "The image parameter %s is invalid: %s.", bad[i][0],
		         bad[i][1]);
		CU_ASSERT_STRING_EQUAL(err, want);
	}
	CU_ASSERT_EQUAL(set(&p, "blur", "5", err), -1);
	CU_ASSERT_STRING_EQUAL(err, "The image parameter blur is not supported.");
	CU_ASSERT_EQUAL(set(&p, "zoom", "5", err), -1);
	CU_ASSERT_STRING_EQUAL(err, "Unknown image parameter: zoom.");
}

static void test_formats(void)
{
	CU_ASSERT_EQUAL(glide_format_of_extension("JPEG"), GLIDE_FM_JPG);
	CU_ASSERT_EQUAL(glide_format_of_extension("webp"), GLIDE_FM_WEBP);
	CU_ASSERT_EQUAL(glide_format_of_extension("tiff"), GLIDE_FM_JPG);
	CU_ASSERT_STRING_EQUAL(glide_format_type(GLIDE_FM_PJPG), "image/jpeg");
	CU_ASSERT_STRING_EQUAL(glide_format_extension(GLIDE_FM_AVIF), "avif");
}

static void test_presets(void)
{
	struct glide_presets ps;
	char err[GLIDE_ERR_LEN];
	CU_ASSERT_EQUAL_FATAL(glide_presets_parse("thumb:w=300,h=300,fit=crop  hero:w=1600, fm=webp",
	                                          &ps, err), 0);
	CU_ASSERT_EQUAL_FATAL(ps.n, 2);
	CU_ASSERT_STRING_EQUAL(ps.items[0].query, "w=300&h=300&fit=crop");
	CU_ASSERT_STRING_EQUAL(ps.items[1].query, "w=1600&fm=webp");
	const struct glide_preset *hero = glide_presets_find(&ps, "hero");
	CU_ASSERT(hero && hero->params.w == 1600 && hero->params.fm == GLIDE_FM_WEBP);
	CU_ASSERT_PTR_NULL(glide_presets_find(&ps, "w"));
	glide_presets_free(&ps);
	CU_ASSERT_EQUAL(glide_presets_parse("", &ps, err), 0);
	CU_ASSERT_EQUAL(ps.n, 0);
	CU_ASSERT_EQUAL(glide_presets_parse("a:w=1 b:", &ps, err), -1);
	CU_ASSERT_STRING_EQUAL(err, "preset b has no parameters");
	CU_ASSERT_PTR_NULL(ps.items);
	CU_ASSERT_EQUAL(glide_presets_parse("a:w", &ps, err), -1);
	CU_ASSERT_STRING_EQUAL(err, "preset a: not key=value: w");
}

/* --- an image made -------------------------------------------------------- */

static struct config image_config(long max_in, long max_out)
{
	struct config cfg;
	config_init_defaults(&cfg);
	cfg.images_max_input_pixels = max_in;
	cfg.images_max_output_pixels = max_out;
	return cfg;
}

/* "png 32x24": the type and size of bytes made (PNG only). */
static void png_size(const struct strbuf *b, char *out, size_t n)
{
	const unsigned char *p = (const unsigned char *)b->ptr;
	if (b->len < 24 || memcmp(p, "\x89PNG", 4) != 0) {
		snprintf(out, n, "not png");
		return;
	}
	unsigned w = (unsigned)p[16] << 24 | p[17] << 16 | p[18] << 8 | p[19];
	unsigned h = (unsigned)p[20] << 24 | p[21] << 16 | p[22] << 8 | p[23];
	snprintf(out, n, "png %ux%u", w, h);
}

static enum image_failure make(const struct config *cfg, const char *name, const char *query,
                               struct strbuf *out, const char **type, struct strbuf *why)
{
	char path[512], err[GLIDE_ERR_LEN];
	snprintf(path, sizeof path, "%s/images/%s", FIXTURES_DIR, name);
	struct glide_params p;
	glide_params_init(&p);
	char *q = xstrdup(query), *save = NULL;
	for (char *kv = strtok_r(q, "&", &save); kv; kv = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(kv, '=');
		*eq = '\0';
		CU_ASSERT_EQUAL(glide_param_set(&p, kv, eq + 1, err), 0);
	}
	free(q);
	return image_make(cfg, path, "png", &p, out, type, why);
}

static void test_image_made(void)
{
	struct config cfg = image_config(40000000, 4194304);
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	const char *type = NULL;
	char size[64];
	static const char *const cases[][2] = {
		{"w=32", "png 32x24"},         {"h=12", "png 16x12"},
		{"w=40&h=40&fit=crop", "png 40x40"}, {"w=40&h=40&fit=fill", "png 40x40"},
		{"w=40&h=40", "png 40x30"},    {"w=100&fit=max", "png 64x48"},
		{"w=100", "png 100x75"},       {"w=10&h=30&fit=stretch", "png 10x30"},
		{"w=16&dpr=2", "png 32x24"},   {"", "png 64x48"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		strbuf_reset(&out);
		CU_ASSERT_EQUAL(make(&cfg, "small.png", cases[i][0], &out, &type, &why), IMAGE_OK);
		png_size(&out, size, sizeof size);
		CU_ASSERT_STRING_EQUAL(size, cases[i][1]);
		if (strcmp(size, cases[i][1]) != 0)
			fprintf(stderr, "\n%s: %s, not %s (%s)\n", cases[i][0], size, cases[i][1], why.ptr);
		CU_ASSERT_STRING_EQUAL(type, "image/png");
	}
	strbuf_reset(&out);
	CU_ASSERT_EQUAL(make(&cfg, "small.png", "w=20&fm=webp&q=50", &out, &type, &why), IMAGE_OK);
	CU_ASSERT_STRING_EQUAL(type, "image/webp");
	CU_ASSERT(out.len > 12 && memcmp(out.ptr + 8, "WEBP", 4) == 0);
	strbuf_release(&out);
	strbuf_release(&why);
	config_free(&cfg);
}

static void test_image_bounds(void)
{
	struct config cfg = image_config(3072, 1000);
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	const char *type = NULL;
	/* 64 x 48 is 3072 pixels: at the bound, made; a size asked beyond
	 * max_output_pixels is refused before any pixel is read. */
	CU_ASSERT_EQUAL(make(&cfg, "small.png", "w=20", &out, &type, &why), IMAGE_OK);
	CU_ASSERT_EQUAL(make(&cfg, "small.png", "w=40", &out, &type, &why), IMAGE_BAD_SIZE);
	CU_ASSERT_STRING_EQUAL(why.ptr, "The image asked for is too large: 40 x 30 pixels, more than "
	                                "[images] max_output_pixels (1000) or 16383 on a side.");
	strbuf_reset(&why);
	cfg.images_max_output_pixels = 1000000000;
	CU_ASSERT_EQUAL(make(&cfg, "small.png", "w=16384&h=1", &out, &type, &why), IMAGE_BAD_SIZE);
	strbuf_reset(&why);
	/* The bomb's header claims 10^10 pixels: refused unread. */
	CU_ASSERT_EQUAL(make(&cfg, "bomb.png", "w=20", &out, &type, &why), IMAGE_UNFIT);
	CU_ASSERT_STRING_EQUAL(why.ptr, "The image is too large to resize: 100000 x 100000 pixels, "
	                                "more than [images] max_input_pixels (3072).");
	strbuf_reset(&why);
	cfg.images_max_input_pixels = 3071;
	CU_ASSERT_EQUAL(make(&cfg, "small.png", "w=20", &out, &type, &why), IMAGE_UNFIT);
	strbuf_reset(&why);
	CU_ASSERT_EQUAL(make(&cfg, "missing.png", "w=20", &out, &type, &why), IMAGE_UNFIT);
	CU_ASSERT_STRING_EQUAL(why.ptr, "The image cannot be read.");
	strbuf_release(&out);
	strbuf_release(&why);
	config_free(&cfg);
}

/* --- CORS ------------------------------------------------------------------ */

static void cors_request(struct request *req, const char *method, const char *origin,
                         const char *cors_method)
{
	request_from_uri(req, method, "/api/ping");
	req->origin = origin ? xstrdup(origin) : NULL;
	req->cors_method = cors_method ? xstrdup(cors_method) : NULL;
}

static void test_cors(void)
{
	struct config cfg;
	config_init_defaults(&cfg);
	struct request req;
	struct response res;
	response_init(&res);
	cors_request(&req, "OPTIONS", "https://a.example", "GET");
	CU_ASSERT_FALSE(cors_is_preflight(&cfg, &req)); /* off: OPTIONS is a 405 */
	cors_add_headers(&cfg, &req, &res);
	CU_ASSERT_EQUAL(res.nheaders, 0);
	strlist_split(&cfg.cors_origins, "https://a.example");
	CU_ASSERT_TRUE(cors_is_preflight(&cfg, &req));
	cors_answer_preflight(&cfg, &req, &res);
	CU_ASSERT_EQUAL(res.status, 204);
	CU_ASSERT_STRING_EQUAL(response_header(&res, "Access-Control-Allow-Origin"),
	                       "https://a.example");
	CU_ASSERT_STRING_EQUAL(response_header(&res, "Access-Control-Max-Age"), "600");
	CU_ASSERT_PTR_NULL(response_header(&res, "Access-Control-Allow-Credentials"));
	request_free(&req);
	/* Not a preflight without Access-Control-Request-Method. */
	cors_request(&req, "OPTIONS", "https://a.example", NULL);
	CU_ASSERT_FALSE(cors_is_preflight(&cfg, &req));
	request_free(&req);
	/* Another origin: Vary, nothing else. */
	response_reset(&res);
	cors_request(&req, "GET", "https://b.example", NULL);
	response_begin(&res, 200, "application/json");
	response_set_header(&res, "Vary", "Accept-Encoding");
	cors_add_headers(&cfg, &req, &res);
	CU_ASSERT_STRING_EQUAL(response_header(&res, "Vary"), "Accept-Encoding, Origin");
	CU_ASSERT_PTR_NULL(response_header(&res, "Access-Control-Allow-Origin"));
	request_free(&req);
	/* Every origin: "*", or the origin itself with credentials. */
	strlist_free(&cfg.cors_origins);
	strlist_split(&cfg.cors_origins, "*");
	response_reset(&res);
	cors_request(&req, "GET", "https://b.example", NULL);
	response_begin(&res, 200, "application/json");
	cors_add_headers(&cfg, &req, &res);
	CU_ASSERT_STRING_EQUAL(response_header(&res, "Access-Control-Allow-Origin"), "*");
	CU_ASSERT_STRING_EQUAL(response_header(&res, "Vary"), "Origin");
	request_free(&req);
	response_free(&res);
	config_free(&cfg);
}

void suite_images(void)
{
	CU_pSuite s = unit_add_suite("images");
	unit_add_test(s, "Glide parameters", test_params);
	unit_add_test(s, "formats", test_formats);
	unit_add_test(s, "presets", test_presets);
	unit_add_test(s, "an image made to size", test_image_made);
	unit_add_test(s, "an image's bounds", test_image_bounds);
	unit_add_test(s, "CORS", test_cors);
}
