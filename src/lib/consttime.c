/* consttime: a comparison in constant time; see consttime.h. */
#include "autoconfig.h"

#include "lib/consttime.h"

bool constant_time_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	/* Walk the expected secret in full whatever the input, so the time
	 * taken says nothing about how much of it matched. */
	unsigned char diff = (unsigned char)(alen != blen);
	for (size_t i = 0; i < blen; i++) {
		unsigned char ca = i < alen ? (unsigned char)a[i] : 0;
		diff |= (unsigned char)(ca ^ (unsigned char)b[i]);
	}
	return diff == 0;
}
