/*
 * php: the PHP value rules that Statamic's query behaviour rests on,
 * applied to packed values (value.h), in one place for the filters and
 * the sort: is_numeric(), truthiness and the (string) cast.
 *
 * A reference (value.h) is read as its raw value, the one Statamic's
 * queries see.
 */
#ifndef CMS_API_PHP_H
#define CMS_API_PHP_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/value.h"

/* PHP 8's is_numeric() of a string: optional whitespace, a sign, digits
 * with an optional fraction (or a fraction alone), an optional exponent,
 * optional trailing whitespace. Not "", hex, "inf" or "nan". */
bool php_is_numeric(const char *s, size_t len);

/* An int, a float or a numeric string, as a double in *out. */
bool php_numeric(value_t v, double *out);

/* PHP's truthiness: null, false, 0, 0.0, "", "0" and an empty list are
 * false; everything else true. */
bool php_truthy(value_t v);

/* Appends PHP's (string) of v: true "1", false and null "", an int in
 * decimal, a float with 14 significant digits (2.5, 1.0E+25); a list or
 * map as json_encode writes it (the like conditions match that text). */
void php_string(value_t v, struct strbuf *out);

#endif
