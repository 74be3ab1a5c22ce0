/* statamic_urls: statamic:// references in text; see statamic_urls.h. */
#include "autoconfig.h"

#include "site/statamic_urls.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SCHEME "statamic://"
#define SCHEME_LEN (sizeof SCHEME - 1)

/*
 * One match of /([("])statamic:\/\/([^()"?#]*)([^()"]*)([)"])/i at
 * s[at] (s[at] is the opening '(' or '"'): the reference's end, the
 * query's end (the closing character's place); false when there is none
 * here. Backtracking finds nothing greedy matching misses: the second
 * group takes over what the first leaves, up to the same stop.
 */
static bool match_at(const char *s, size_t len, size_t at, size_t *ref_end, size_t *close)
{
	size_t p = at + 1;
	if (len - p < SCHEME_LEN || strncasecmp(s + p, SCHEME, SCHEME_LEN) != 0)
		return false;
	p += SCHEME_LEN;
	while (p < len && !memchr("()\"?#", s[p], 5))
		p++;
	*ref_end = p;
	while (p < len && !memchr("()\"", s[p], 3))
		p++;
	if (p == len || (s[p] != ')' && s[p] != '"'))
		return false;
	*close = p;
	return true;
}

void statamic_urls_resolve(const char *s, size_t len, const struct statamic_links *links,
                           struct strbuf *out)
{
	size_t done = 0;
	for (size_t at = 0; links && at < len; at++) {
		size_t ref_end, close;
		if ((s[at] != '(' && s[at] != '"') || !match_at(s, len, at, &ref_end, &close))
			continue;
		size_t ref_at = at + 1 + SCHEME_LEN;
		char *ref = strndup(s + ref_at, ref_end - ref_at);
		strbuf_add(out, s + done, at + 1 - done);
		if (!ref || !links->url(ref, out, links->ctx))
			ref_end = close; /* nothing found: the query goes too */
		strbuf_add(out, s + ref_end, close + 1 - ref_end);
		free(ref);
		done = close + 1;
		at = close;
	}
	strbuf_add(out, s + done, len - done);
}
