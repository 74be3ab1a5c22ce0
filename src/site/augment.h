/*
 * augment: turns a stored field value into what Statamic's API delivers
 * (content-format.md §14), once, when the index is built.
 *
 * Without blueprints read yet, the rule is Statamic's fallback blueprint:
 * `content` is a markdown field (automatic line breaks on), and every
 * other value is delivered as stored.
 */
#ifndef CMS_API_AUGMENT_H
#define CMS_API_AUGMENT_H

#include <stddef.h>

#include "value.h"

/* Appends the delivered form of the field key = v to out. */
void augment_field(const char *key, value_t v, struct value_builder *out);

#endif
