/*
 * reading-time: an example shape plug-in for cms-api ([shape] plugin =
 * /path/to/reading-time.so), built with nothing but <cms-api/shape.h>:
 *
 *   cc -std=c11 -O2 -Wall -shared -fPIC -o reading-time.so reading-time.c
 *
 * It adds to each item of the kinds it is given a "reading_time" key: the
 * minutes a reader needs for the words of one of its fields (the text of
 * an HTML field, tags left out), at words_per_minute, at least one:
 *
 *   [shape]
 *   plugin = /usr/local/lib/cms-api/reading-time.so
 *   field = content             ; the field read (default content)
 *   words_per_minute = 200      ; (default 200)
 *   types = entries             ; the kinds of item it rewrites (default entries)
 *
 * What it shows about plug-ins: an item comes as one JSON object, and the
 * simplest rewrite adds a key before its closing brace, with no JSON
 * library; an item it has nothing to say about goes back unchanged
 * (rewrite returns 0), which costs nothing.
 */
#define _POSIX_C_SOURCE 200809L

#include <cms-api/shape.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reading_time {
	char field[128];  /* "\"content\":" as it stands in the item */
	long per_minute;
	char types[256];  /* ",entries,terms," */
};

static void *rt_init(const struct cms_api_shape_option *options, size_t noptions, char *error,
                     size_t error_size)
{
	struct reading_time *rt = calloc(1, sizeof *rt);
	if (!rt) {
		snprintf(error, error_size, "out of memory");
		return NULL;
	}
	const char *field = "content", *types = "entries";
	rt->per_minute = 200;
	for (size_t i = 0; i < noptions; i++) {
		if (strcmp(options[i].name, "field") == 0) {
			field = options[i].value;
		} else if (strcmp(options[i].name, "words_per_minute") == 0) {
			rt->per_minute = strtol(options[i].value, NULL, 10);
		} else if (strcmp(options[i].name, "types") == 0) {
			types = options[i].value;
		} else {
			snprintf(error, error_size, "unknown key %s (field, words_per_minute, types)",
			         options[i].name);
			free(rt);
			return NULL;
		}
	}
	if (rt->per_minute < 1) {
		snprintf(error, error_size, "words_per_minute must be a whole number from 1");
		free(rt);
		return NULL;
	}
	snprintf(rt->field, sizeof rt->field, "\"%s\":\"", field);
	/* ",entries,terms,": a kind is looked for with its commas. */
	size_t n = 0;
	rt->types[n++] = ',';
	for (const char *p = types; *p && n + 2 < sizeof rt->types; p++)
		if (!isspace((unsigned char)*p))
			rt->types[n++] = *p;
	rt->types[n++] = ',';
	rt->types[n] = '\0';
	return rt;
}

/* Words of the JSON string that starts at s (after its quote), outside
 * HTML tags; a JSON escape ("\n", "\u00e9") counts as what it stands for,
 * a letter or a space alike. */
static long count_words(const char *s, const char *end)
{
	long words = 0;
	int in_tag = 0, in_word = 0;
	for (; s < end && *s != '"'; s++) {
		char c = *s;
		if (c == '\\' && s + 1 < end) {
			s++;
			c = *s == 'n' || *s == 't' || *s == 'r' ? ' ' : 'x';
			if (*s == 'u')
				s += s + 4 < end ? 4 : 0;
		}
		if (c == '<')
			in_tag = 1;
		int letter = !in_tag && !isspace((unsigned char)c) && c != '>';
		if (letter && !in_word)
			words++;
		in_word = letter;
		if (c == '>')
			in_tag = 0;
	}
	return words;
}

static int rt_rewrite(void *state, const struct cms_api_shape_item *item,
                      cms_api_shape_append_fn append, void *sink)
{
	const struct reading_time *rt = state;
	char type[64];
	snprintf(type, sizeof type, ",%s,", item->type);
	const char *end = item->json + item->json_len;
	const char *at = strstr(item->json, rt->field);
	if (!strstr(rt->types, type) || !at || item->json_len < 2 || end[-1] != '}')
		return 0;
	long words = count_words(at + strlen(rt->field), end);
	long minutes = (words + rt->per_minute - 1) / rt->per_minute;
	char key[64];
	int n = snprintf(key, sizeof key, ",\"reading_time\":%ld}", minutes < 1 ? 1 : minutes);
	append(sink, item->json, item->json_len - 1);
	append(sink, key, (size_t)n);
	return 1;
}

static void rt_free(void *state)
{
	free(state);
}

static const struct cms_api_shape table = {
	.abi_version = CMS_API_SHAPE_ABI_VERSION,
	.name = "reading-time",
	.init = rt_init,
	.rewrite = rt_rewrite,
	.free = rt_free,
};

const struct cms_api_shape *cms_api_shape(void)
{
	return &table;
}
