/*
 * libFuzzer target: any text as [images] presets and as Glide image
 * parameters (lib/glide.h). Parsing must never crash nor leave anything
 * behind on failure; a preset parsed must read back the same from its own
 * query ("w=300&h=300"), every value must stay within the documented
 * bounds, and a name found must be one given.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/glide.h"
#include "lib/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_bounds(const struct glide_params *p)
{
	if (p->w < 0 || p->w > GLIDE_MAX_SIDE || p->h < 0 || p->h > GLIDE_MAX_SIDE || p->q < 0 ||
	    p->q > 100 || !(p->dpr > 0.0 && p->dpr <= 8.0) || p->focus_x < 0 || p->focus_x > 100 ||
	    p->focus_y < 0 || p->focus_y > 100)
		__builtin_trap();
}

/* The preset's query, parsed again as parameters, gives its params. */
static void check_round_trip(const struct glide_preset *preset)
{
	struct glide_params again;
	glide_params_init(&again);
	char *q = xstrdup(preset->query), *save = NULL, err[GLIDE_ERR_LEN];
	for (char *kv = strtok_r(q, "&", &save); kv; kv = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(kv, '=');
		if (!eq)
			__builtin_trap();
		*eq = '\0';
		if (glide_param_set(&again, kv, eq + 1, err) != 0)
			__builtin_trap();
	}
	free(q);
	if (memcmp(&again, &preset->params, sizeof again) != 0)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size);
	struct glide_presets presets;
	char err[GLIDE_ERR_LEN];
	if (glide_presets_parse(text, &presets, err) == 0) {
		for (size_t i = 0; i < presets.n; i++) {
			check_bounds(&presets.items[i].params);
			check_round_trip(&presets.items[i]);
			if (glide_presets_find(&presets, presets.items[i].name) == NULL)
				__builtin_trap();
		}
		glide_presets_free(&presets);
	} else if (presets.items || presets.n || !memchr(err, '\0', sizeof err)) {
		__builtin_trap();
	}
	/* The same text as one parameter: "key=value". */
	char *eq = strchr(text, '=');
	if (eq) {
		*eq = '\0';
		struct glide_params p;
		glide_params_init(&p);
		glide_param_set(&p, text, eq + 1, err);
		check_bounds(&p);
	}
	free(text);
	return 0;
}
