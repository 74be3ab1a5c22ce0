/* php: PHP's value rules for packed values; see php.h. */
#include "autoconfig.h"

#include "lib/php.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t digits_at(const char *s, size_t i, size_t len)
{
	size_t start = i;
	while (i < len && is_digit(s[i]))
		i++;
	return i - start;
}

bool php_is_numeric(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && is_space(s[i]))
		i++;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	size_t whole = digits_at(s, i, len);
	i += whole;
	size_t fraction = 0;
	if (i < len && s[i] == '.') {
		fraction = digits_at(s, i + 1, len);
		i += 1 + fraction;
	}
	if (whole == 0 && fraction == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		if (j < len && (s[j] == '+' || s[j] == '-'))
			j++;
		size_t exponent = digits_at(s, j, len);
		if (exponent == 0)
			return false;
		i = j + exponent;
	}
	while (i < len && is_space(s[i]))
		i++;
	return i == len;
}

bool php_numeric(value_t v, double *out)
{
	v = value_raw(v);
	switch (value_type(v)) {
	case VALUE_INT:
	case VALUE_DOUBLE:
		*out = value_double(v);
		return true;
	case VALUE_STRING: {
		size_t len;
		const char *s = value_str(v, &len);
		if (!php_is_numeric(s, len))
			return false;
		*out = strtod(s, NULL);
		return true;
	}
	default:
		return false;
	}
}

bool php_truthy(value_t v)
{
	v = value_raw(v);
	size_t len;
	const char *s;
	switch (value_type(v)) {
	case VALUE_TRUE: return true;
	case VALUE_INT: return value_int(v) != 0;
	case VALUE_DOUBLE: return value_double(v) != 0;
	case VALUE_STRING:
	case VALUE_URL:
		s = value_str(v, &len);
		return len > 1 || (len == 1 && s[0] != '0');
	case VALUE_ARRAY:
	case VALUE_MAP: return value_count(v) > 0;
	default: return false;
	}
}

/* PHP's (string) of a float: precision 14, as zend_gcvt writes it: plain
 * digits while the decimal point sits between 3 places left of the first
 * digit and 14 right of it, else d.dddE+X (with ".0" after a lone digit). */
static void php_float_string(double d, struct strbuf *out)
{
	if (isnan(d)) {
		strbuf_addstr(out, "NAN");
		return;
	}
	if (isinf(d)) {
		strbuf_addstr(out, d < 0 ? "-INF" : "INF");
		return;
	}
	if (d == 0) {
		strbuf_addstr(out, signbit(d) ? "-0" : "0");
		return;
	}
	char sci[32];
	snprintf(sci, sizeof sci, "%.13e", d); /* [-]d.ddddddddddddde[+-]XX */
	char *e = strchr(sci, 'e');
	int exponent = atoi(e + 1);
	*e = '\0';
	char digits[16];
	size_t n = 0;
	for (const char *p = sci; *p; p++)
		if (is_digit(*p))
			digits[n++] = *p;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	if (d < 0)
		strbuf_addch(out, '-');
	int point = exponent + 1; /* digits before the decimal point */
	if (point < -3 || point > 14) {
		strbuf_addch(out, digits[0]);
		strbuf_addch(out, '.');
		if (n > 1)
			strbuf_add(out, digits + 1, n - 1);
		else
			strbuf_addch(out, '0');
		strbuf_addf(out, "E%c%d", exponent < 0 ? '-' : '+', abs(exponent));
	} else if (point <= 0) {
		strbuf_addstr(out, "0.");
		for (int i = point; i < 0; i++)
			strbuf_addch(out, '0');
		strbuf_add(out, digits, n);
	} else {
		for (int i = 0; i < point; i++)
			strbuf_addch(out, (size_t)i < n ? digits[i] : '0');
		if ((size_t)point < n) {
			strbuf_addch(out, '.');
			strbuf_add(out, digits + point, n - (size_t)point);
		}
	}
}

void php_string(value_t v, struct strbuf *out)
{
	v = value_raw(v);
	size_t len;
	const char *s;
	switch (value_type(v)) {
	case VALUE_TRUE: strbuf_addch(out, '1'); break;
	case VALUE_INT: strbuf_addf(out, "%lld", (long long)value_int(v)); break;
	case VALUE_DOUBLE: php_float_string(value_double(v), out); break;
	case VALUE_STRING:
	case VALUE_URL:
		s = value_str(v, &len);
		strbuf_add(out, s, len);
		break;
	case VALUE_ARRAY:
	case VALUE_MAP: {
		struct jsonw w;
		jsonw_init(&w, out);
		jsonw_value(&w, v);
		break;
	}
	default: break;
	}
}
