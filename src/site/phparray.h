/*
 * phparray: the literal array a Laravel config file returns (Statamic 3
 * and 4 keep their sites in config/statamic/sites.php), read without
 * running PHP. What it reads: `return` followed by [...] or array(...)
 * of keyed or listed items, whose values are strings ('...' and "..."
 * without $variables), numbers, true, false, null, nested arrays,
 * env('NAME', default) (the default; null without one) and
 * config('key'[, default]) (what the caller knows of the key, else the
 * default). Comments are skipped. Anything else (concatenation,
 * constants, other calls, variables) is an error naming its line, never a
 * guess.
 */
#ifndef CMS_API_SITE_PHPARRAY_H
#define CMS_API_SITE_PHPARRAY_H

#include <stddef.h>

#include "lib/value.h"

#define PHPARRAY_ERR_LEN 160

/* config('key') as the caller knows it: key and value pairs. */
struct phparray_config {
	const char *const *pairs; /* key, value, key, value, ...; NULL-ended */
};

/*
 * Appends the array text returns to out: a map when any item has a key
 * (listed items then take PHP's numeric keys, as text), else a list.
 * Returns 0, or -1 with *line (1-based) and err saying what could not be
 * read; out then holds nothing new.
 */
int phparray_parse(const char *text, size_t len, const struct phparray_config *config,
                   struct value_builder *out, int *line, char err[PHPARRAY_ERR_LEN]);

#endif
