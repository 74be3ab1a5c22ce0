/*
 * url: percent-encoding as PHP does it, for paths and query strings. Used
 * by the request parser, the router's segments, the cache key, pagination
 * links and asset URLs alike, so that each spells a URL the same way.
 */
#ifndef CMS_API_URL_H
#define CMS_API_URL_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

/* Percent-decodes s[0..len) into a new string; with plus_as_space '+'
 * becomes ' ' (query strings). Invalid escapes are kept literally. */
char *url_decode(const char *s, size_t len, bool plus_as_space);

/* Appends s percent-encoded as PHP's rawurlencode does (RFC 3986:
 * letters, digits and -._~ stay; everything else is %XX). */
void url_encode(const char *s, struct strbuf *out);

#endif
