/*
 * jsonr: reads JSON text (RFC 8259) into a packed value (value.h), the
 * way back from what jsonw writes: objects become maps (keys in their
 * order; a repeated key is kept each time, as written), arrays arrays,
 * strings strings (\u escapes as UTF-8, a lone surrogate as U+FFFD),
 * integers that fit in 64 bits ints, other numbers doubles, true, false
 * and null themselves.
 *
 * It reads what another program wrote (a shape plug-in's answer), so it
 * trusts nothing: the whole text must be one value with nothing but
 * white space after it, nesting stops at VALUE_MAX_DEPTH, and no input
 * makes it read past len.
 */
#ifndef CMS_API_JSONR_H
#define CMS_API_JSONR_H

#include <stddef.h>

#include "lib/value.h"

#define JSONR_ERR_LEN 128

/* Appends the value text[0..len) holds to out. Returns 0, or -1 with err
 * saying what is wrong and where (out then holds a partial value: reset
 * it). */
int jsonr_parse(const char *text, size_t len, struct value_builder *out,
                char err[JSONR_ERR_LEN]);

#endif
