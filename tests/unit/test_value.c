/* Unit tests: packed values (builder, readers, iteration). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <string.h>

#include "lib/value.h"
#include "unit.h"

static void test_scalars(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	vb_array_begin(&b);
	vb_null(&b);
	vb_bool(&b, true);
	vb_bool(&b, false);
	vb_int(&b, -42);
	vb_double(&b, 1.5);
	vb_strz(&b, "héllo");
	vb_array_end(&b);
	value_t v = vb_result(&b);
	CU_ASSERT_EQUAL(value_type(v), VALUE_ARRAY);
	CU_ASSERT_EQUAL(value_count(v), 6);
	CU_ASSERT_TRUE(value_is_null(value_array_get(v, 0)));
	CU_ASSERT_TRUE(value_bool(value_array_get(v, 1)));
	CU_ASSERT_EQUAL(value_type(value_array_get(v, 2)), VALUE_FALSE);
	CU_ASSERT_EQUAL(value_int(value_array_get(v, 3)), -42);
	CU_ASSERT_DOUBLE_EQUAL(value_double(value_array_get(v, 4)), 1.5, 0);
	size_t len;
	CU_ASSERT_STRING_EQUAL(value_str(value_array_get(v, 5), &len), "héllo");
	CU_ASSERT_EQUAL(len, 6);
	CU_ASSERT_TRUE(value_is_missing(value_array_get(v, 6)));
	CU_ASSERT_EQUAL(value_size(v), b.buf.len);
	vb_release(&b);
}

static void test_maps_and_iteration(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	vb_map_begin(&b);
	vb_keyz(&b, "title");
	vb_strz(&b, "Hello");
	vb_keyz(&b, "tags");
	vb_array_begin(&b);
	vb_strz(&b, "a");
	vb_strz(&b, "b");
	vb_array_end(&b);
	vb_keyz(&b, "empty");
	vb_map_begin(&b);
	vb_map_end(&b);
	vb_map_end(&b);
	value_t v = vb_result(&b);
	CU_ASSERT_EQUAL(value_count(v), 3);
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(v, "title"), NULL), "Hello");
	CU_ASSERT_EQUAL(value_count(value_map_getz(v, "tags")), 2);
	CU_ASSERT_EQUAL(value_type(value_map_getz(v, "empty")), VALUE_MAP);
	CU_ASSERT_TRUE(value_is_missing(value_map_getz(v, "nope")));
	CU_ASSERT_TRUE(value_is_null(value_map_getz(v, "nope")));
	const char *order[] = {"title", "tags", "empty"};
	struct value_iter it;
	value_iter_init(&it, v);
	int i = 0;
	while (value_iter_next(&it)) {
		CU_ASSERT_EQUAL(it.key_len, strlen(order[i]));
		CU_ASSERT_EQUAL(memcmp(it.key, order[i], it.key_len), 0);
		i++;
	}
	CU_ASSERT_EQUAL(i, 3);
	vb_release(&b);
}

static void test_missing_reads_as_empty(void)
{
	value_t m = VALUE_MISSING;
	struct value_iter it;
	CU_ASSERT_EQUAL(value_type(m), VALUE_NULL);
	CU_ASSERT_EQUAL(value_count(m), 0);
	CU_ASSERT_EQUAL(value_int(m), 0);
	CU_ASSERT_STRING_EQUAL(value_str(m, NULL), "");
	value_iter_init(&it, m);
	CU_ASSERT_FALSE(value_iter_next(&it));
}

static void test_map_to_array(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	vb_map_begin(&b);
	vb_keyz(&b, "8");
	vb_map_begin(&b);
	vb_keyz(&b, "x");
	vb_int(&b, 1);
	vb_map_end(&b);
	vb_keyz(&b, "9");
	vb_strz(&b, "nine");
	vb_map_end(&b);
	vb_map_to_array(&b, 0);
	value_t v = vb_result(&b);
	CU_ASSERT_EQUAL(value_type(v), VALUE_ARRAY);
	CU_ASSERT_EQUAL(value_count(v), 2);
	CU_ASSERT_EQUAL(value_int(value_map_getz(value_array_get(v, 0), "x")), 1);
	CU_ASSERT_STRING_EQUAL(value_str(value_array_get(v, 1), NULL), "nine");
	CU_ASSERT_EQUAL(value_size(v), b.buf.len);
	vb_release(&b);
}

static void test_equal_and_copy(void)
{
	struct value_builder a = VALUE_BUILDER_INIT, c = VALUE_BUILDER_INIT;
	vb_map_begin(&a);
	vb_keyz(&a, "k");
	vb_int(&a, 7);
	vb_map_end(&a);
	vb_value(&c, vb_result(&a));
	CU_ASSERT_TRUE(value_equal(vb_result(&a), vb_result(&c)));
	vb_reset(&c);
	vb_int(&c, 7);
	CU_ASSERT_FALSE(value_equal(vb_result(&a), vb_result(&c)));
	vb_release(&a);
	vb_release(&c);
}

static void test_depth_limit(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	for (int i = 0; i <= VALUE_MAX_DEPTH; i++)
		vb_array_begin(&b);
	CU_ASSERT_TRUE(b.error);
	CU_ASSERT_TRUE(value_is_missing(vb_result(&b)));
	vb_release(&b);
}

void suite_value(void)
{
	CU_pSuite s = unit_add_suite("value");
	unit_add_test(s, "scalars", test_scalars);
	unit_add_test(s, "maps and iteration", test_maps_and_iteration);
	unit_add_test(s, "missing reads as empty", test_missing_reads_as_empty);
	unit_add_test(s, "map to array", test_map_to_array);
	unit_add_test(s, "equal and copy", test_equal_and_copy);
	unit_add_test(s, "depth limit", test_depth_limit);
}
