/* withheld: keys never served; see withheld.h. */
#include "autoconfig.h"

#include "site/withheld.h"

#include <string.h>

static bool named(const char *key, size_t len, const char *name)
{
	return strlen(name) == len && memcmp(key, name, len) == 0;
}

bool withheld_key(const char *key, size_t len)
{
	static const char *const names[] = {
		"password", "password_hash", "password_confirmation", "remember_token",
		"passkeys", "preferences",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (named(key, len, names[i]))
			return true;
	/* two_factor_secret, _recovery_codes, _confirmed_at and any to come. */
	return len >= 10 && memcmp(key, "two_factor", 10) == 0;
}

void withheld_copy(value_t map, struct value_builder *out)
{
	if (value_type(map) != VALUE_MAP) {
		vb_value(out, map);
		return;
	}
	struct value_iter it;
	value_iter_init(&it, map);
	vb_map_begin(out);
	while (value_iter_next(&it)) {
		if (withheld_key(it.key, it.key_len))
			continue;
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
	vb_map_end(out);
}
