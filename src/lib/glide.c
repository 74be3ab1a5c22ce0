/* glide: Glide's image parameters and presets; see glide.h. */
#include "autoconfig.h"

#include "lib/glide.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/strbuf.h"

void glide_params_init(struct glide_params *p)
{
	memset(p, 0, sizeof *p);
	p->fit = GLIDE_FIT_CONTAIN;
	p->focus_x = 50;
	p->focus_y = 50;
	p->dpr = 1.0;
	p->fm = GLIDE_FM_SOURCE;
	p->q = GLIDE_DEFAULT_QUALITY;
}

/* A whole number from min to max written plainly: digits, no sign, no
 * leading zero (so that one value has one spelling). */
static bool plain_number(const char *s, long min, long max, long *out)
{
	if (!*s || strlen(s) > 9 || (s[0] == '0' && s[1]))
		return false;
	for (const char *c = s; *c; c++)
		if (!isdigit((unsigned char)*c))
			return false;
	long v = strtol(s, NULL, 10);
	if (v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* dpr: digits, one '.' and digits after it (no trailing zero), above 0
 * and at most 8. */
static bool plain_ratio(const char *s, double *out)
{
	size_t n = strlen(s), dot = strcspn(s, ".");
	if (n == 0 || n > 6 || dot == 0 || (s[0] == '0' && dot > 1))
		return false;
	for (size_t i = 0; i < n; i++)
		if (i != dot && !isdigit((unsigned char)s[i]))
			return false;
	if (dot < n && (dot + 1 == n || s[n - 1] == '0'))
		return false;
	double v = strtod(s, NULL);
	if (!(v > 0.0 && v <= 8.0))
		return false;
	*out = v;
	return true;
}

static const struct {
	const char *name;
	int x, y;
} positions[] = {
	{"", 50, 50},         {"-center", 50, 50}, {"-top-left", 0, 0},  {"-top", 50, 0},
	{"-top-right", 100, 0}, {"-left", 0, 50},  {"-right", 100, 50}, {"-bottom-left", 0, 100},
	{"-bottom", 50, 100}, {"-bottom-right", 100, 100},
};

/* "-X-Y", each 0 to 100: a focal point. */
static bool focal_point(const char *s, int *x, int *y)
{
	char a[8], b[8];
	long lx, ly;
	if (*s != '-')
		return false;
	size_t n = strcspn(s + 1, "-");
	if (n == 0 || n >= sizeof a || s[1 + n] != '-' || strlen(s + 2 + n) >= sizeof b)
		return false;
	memcpy(a, s + 1, n);
	a[n] = '\0';
	strcpy(b, s + 2 + n);
	if (!plain_number(a, 0, 100, &lx) || !plain_number(b, 0, 100, &ly))
		return false;
	*x = (int)lx;
	*y = (int)ly;
	return true;
}

static bool set_cover(struct glide_params *p, const char *rest)
{
	for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
		if (strcmp(rest, positions[i].name) == 0) {
			p->fit = GLIDE_FIT_COVER;
			p->focus_x = positions[i].x;
			p->focus_y = positions[i].y;
			return true;
		}
	}
	if (!focal_point(rest, &p->focus_x, &p->focus_y))
		return false;
	p->fit = GLIDE_FIT_COVER;
	return true;
}

static bool set_fit(struct glide_params *p, const char *v)
{
	static const struct {
		const char *name;
		enum glide_fit fit;
	} plain[] = {
		{"contain", GLIDE_FIT_CONTAIN}, {"max", GLIDE_FIT_MAX},         {"fill", GLIDE_FIT_FILL},
		{"fill-max", GLIDE_FIT_FILL_MAX}, {"stretch", GLIDE_FIT_STRETCH},
	};
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
		if (strcmp(v, plain[i].name) == 0) {
			p->fit = plain[i].fit;
			return true;
		}
	}
	if (strncmp(v, "crop", 4) == 0)
		return set_cover(p, v + 4);
	/* "cover-X-Y" is not Glide's: only the named positions. */
	if (strncmp(v, "cover", 5) == 0 && (v[5] == '\0' || !isdigit((unsigned char)v[6])))
		return set_cover(p, v + 5);
	return false;
}

static const struct {
	const char *name, *type, *ext;
	enum glide_format fm;
} formats[] = {
	{"jpg", "image/jpeg", "jpg", GLIDE_FM_JPG},   {"pjpg", "image/jpeg", "jpg", GLIDE_FM_PJPG},
	{"png", "image/png", "png", GLIDE_FM_PNG},    {"gif", "image/gif", "gif", GLIDE_FM_GIF},
	{"webp", "image/webp", "webp", GLIDE_FM_WEBP}, {"avif", "image/avif", "avif", GLIDE_FM_AVIF},
};
#define NFORMATS (sizeof formats / sizeof formats[0])

static bool set_format(struct glide_params *p, const char *v)
{
	for (size_t i = 0; i < NFORMATS; i++) {
		if (strcmp(v, formats[i].name) == 0) {
			p->fm = formats[i].fm;
			return true;
		}
	}
	return false;
}

/* Glide's parameters that cms-api does not apply. */
static bool other_glide_param(const char *key)
{
	static const char *const names[] = {"or",   "crop", "bg",    "blur", "bri",    "con",
	                                    "gam",  "sharp", "pixel", "filt", "flip",  "border",
	                                    "mark", "markw", "markh", "markx", "marky", "markpad",
	                                    "markpos", "markalpha", "markfit"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(key, names[i]) == 0)
			return true;
	return false;
}

int glide_param_set(struct glide_params *p, const char *key, const char *value,
                    char err[GLIDE_ERR_LEN])
{
	long n;
	bool ok;
	if (strcmp(key, "w") == 0 || strcmp(key, "h") == 0) {
		ok = plain_number(value, 1, GLIDE_MAX_SIDE, &n);
		if (ok)
			*(key[0] == 'w' ? &p->w : &p->h) = n;
	} else if (strcmp(key, "q") == 0) {
		ok = plain_number(value, 0, 100, &n);
		if (ok)
			p->q = (int)n;
	} else if (strcmp(key, "dpr") == 0) {
		ok = plain_ratio(value, &p->dpr);
	} else if (strcmp(key, "fit") == 0) {
		ok = set_fit(p, value);
	} else if (strcmp(key, "fm") == 0) {
		ok = set_format(p, value);
	} else {
		snprintf(err, GLIDE_ERR_LEN, other_glide_param(key)
		                 ? "The image parameter %.60s is not supported."
		                 : "Unknown image parameter: %.60s.", key);
		return -1;
	}
	if (!ok) {
		snprintf(err, GLIDE_ERR_LEN, "The image parameter %.20s is invalid: %.60s.", key, value);
		return -1;
	}
	return 0;
}

enum glide_format glide_format_of_extension(const char *ext)
{
	if (strcasecmp(ext, "jpeg") == 0)
		return GLIDE_FM_JPG;
	for (size_t i = 0; i < NFORMATS; i++)
		if (formats[i].fm != GLIDE_FM_PJPG && strcasecmp(ext, formats[i].name) == 0)
			return formats[i].fm;
	return GLIDE_FM_JPG;
}

static size_t format_index(enum glide_format fm)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (formats[i].fm == fm)
			return i;
	return 0; /* GLIDE_FM_SOURCE is resolved before it is asked for */
}

const char *glide_format_type(enum glide_format fm)
{
	return formats[format_index(fm)].type;
}

const char *glide_format_extension(enum glide_format fm)
{
	return formats[format_index(fm)].ext;
}

/* --- presets ------------------------------------------------------------ */

static bool preset_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

void glide_presets_free(struct glide_presets *presets)
{
	for (size_t i = 0; i < presets->n; i++) {
		free(presets->items[i].name);
		free(presets->items[i].query);
	}
	free(presets->items);
	presets->items = NULL;
	presets->n = 0;
}

const struct glide_preset *glide_presets_find(const struct glide_presets *presets,
                                              const char *name)
{
	for (size_t i = 0; i < presets->n; i++)
		if (strcmp(presets->items[i].name, name) == 0)
			return &presets->items[i];
	return NULL;
}

static struct glide_preset *add_preset(struct glide_presets *out, const char *name, size_t len)
{
	out->items = xrealloc(out->items, (out->n + 1) * sizeof *out->items);
	struct glide_preset *p = &out->items[out->n++];
	p->name = xstrndup(name, len);
	p->query = xstrdup("");
	glide_params_init(&p->params);
	return p;
}

/* One "key=value" of the preset being read. */
static int preset_param(struct glide_preset *p, const char *word, size_t len,
                        char err[GLIDE_ERR_LEN])
{
	char *text = xstrndup(word, len);
	char *eq = strchr(text, '=');
	char why[GLIDE_ERR_LEN];
	int rc = -1;
	if (!eq || eq == text)
		snprintf(err, GLIDE_ERR_LEN, "preset %.40s: not key=value: %.100s", p->name, text);
	else if ((*eq = '\0', glide_param_set(&p->params, text, eq + 1, why)) != 0)
		snprintf(err, GLIDE_ERR_LEN, "preset %.40s: %.200s", p->name, why);
	else
		rc = 0;
	if (rc == 0) {
		struct strbuf q = STRBUF_INIT;
		strbuf_addf(&q, "%s%s%s=%s", p->query, *p->query ? "&" : "", text, eq + 1);
		free(p->query);
		p->query = strbuf_detach(&q, NULL);
	}
	free(text);
	return rc;
}

/* The word at s starts a preset ("name:..."): its name's length, else 0. */
static size_t preset_start(const char *s, size_t len)
{
	size_t n = 0;
	while (n < len && preset_name_char(s[n]))
		n++;
	return n > 0 && n < len && s[n] == ':' ? n : 0;
}

static int read_word(struct glide_presets *out, const char *w, size_t len, char err[GLIDE_ERR_LEN])
{
	size_t name = preset_start(w, len);
	if (name) {
		char *n = xstrndup(w, name);
		bool twice = glide_presets_find(out, n) != NULL;
		if (twice)
			snprintf(err, GLIDE_ERR_LEN, "preset %.40s is given twice", n);
		free(n);
		if (twice)
			return -1;
		add_preset(out, w, name);
		w += name + 1;
		len -= name + 1;
		if (len == 0)
			return 0;
	} else if (out->n == 0) {
		snprintf(err, GLIDE_ERR_LEN, "a preset starts with its name and ':' (thumb:w=300), "
		         "not %.*s", (int)(len > 60 ? 60 : len), w);
		return -1;
	}
	return preset_param(&out->items[out->n - 1], w, len, err);
}

int glide_presets_parse(const char *text, struct glide_presets *out, char err[GLIDE_ERR_LEN])
{
	memset(out, 0, sizeof *out);
	const char *p = text;
	while (*p) {
		p += strspn(p, ", \t");
		size_t len = strcspn(p, ", \t");
		if (len && read_word(out, p, len, err) != 0) {
			glide_presets_free(out);
			return -1;
		}
		p += len;
	}
	for (size_t i = 0; i < out->n; i++) {
		if (!*out->items[i].query) {
			snprintf(err, GLIDE_ERR_LEN, "preset %.40s has no parameters", out->items[i].name);
			glide_presets_free(out);
			return -1;
		}
	}
	return 0;
}
