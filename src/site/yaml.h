/*
 * yaml: YAML text to packed values (value.h), typed the way Symfony YAML
 * types them for Statamic (content-format.md §1):
 *   - only plain (unquoted) scalars are typed; quoted and block scalars
 *     are always strings;
 *   - null, ~ and the empty value are null; true/false (any case) are
 *     booleans; yes/no/on/off stay strings;
 *   - integers that round-trip, 0x hex and 0o octal are integers; a
 *     leading zero ("0123") keeps a string; other numerics are doubles;
 *     .inf/-.inf/.nan are doubles;
 *   - unquoted timestamps (2020-01-01, 2020-01-01 10:00:00, ISO 8601 with
 *     zone) become Unix timestamps (UTC) as integers;
 *   - a mapping whose keys are all integers becomes a list of its values
 *     in file order; an empty flow map `{  }` is an empty map;
 *   - aliases are expanded, bounded in total size; duplicate keys are an
 *     error.
 */
#ifndef CMS_API_YAML_H
#define CMS_API_YAML_H

#include <stddef.h>

#include "lib/value.h"

struct yaml_error {
	int line;          /* 1-based line of the problem, 0 if unknown */
	char message[256]; /* what went wrong, for "path:line: message" */
};

/*
 * Parses the first YAML document of text[0..len) and appends its value to
 * out (an empty document appends an empty map). Returns 0, or -1 with err
 * filled and out restored to its length before the call.
 * line_offset is added to every reported line (front matter starts on
 * line 1 of its file; pass 0 for a whole YAML file).
 */
int yaml_parse(const char *text, size_t len, int line_offset, struct value_builder *out,
               struct yaml_error *err);

/* Types one plain scalar as described above and appends it to out. */
void yaml_type_plain_scalar(const char *s, size_t len, struct value_builder *out);

/* Parses a YAML timestamp (the forms above) into Unix seconds (UTC).
 * Returns 0 and sets *out, or -1 when s is not a timestamp. */
int yaml_parse_timestamp(const char *s, size_t len, long long *out);

#endif
