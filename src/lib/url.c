/* url: percent-encoding; see url.h. */
#include "autoconfig.h"

#include "lib/url.h"

#include <stdlib.h>
#include <string.h>

#include "lib/ascii.h"

void url_encode(const char *s, struct strbuf *out)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    strchr("-._~", *c)) {
			strbuf_addch(out, (char)*c);
		} else {
			strbuf_addch(out, '%');
			strbuf_addch(out, hex[*c >> 4]);
			strbuf_addch(out, hex[*c & 15]);
		}
	}
}

char *url_decode(const char *s, size_t len, bool plus_as_space)
{
	char *out = xmalloc(len + 1);
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		int hi, lo;
		if (s[i] == '%' && i + 2 < len && (hi = ascii_hex_value(s[i + 1])) >= 0 &&
		    (lo = ascii_hex_value(s[i + 2])) >= 0) {
			out[n++] = (char)(hi * 16 + lo);
			i += 2;
		} else if (s[i] == '+' && plus_as_space) {
			out[n++] = ' ';
		} else {
			out[n++] = s[i];
		}
	}
	out[n] = '\0';
	return out;
}
