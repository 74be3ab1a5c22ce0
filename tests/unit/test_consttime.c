/* Unit tests: lib/consttime, comparing a secret. (That it takes the same
 * time whatever matched is not measured here: that would make the test
 * depend on the machine's load.) */
#include "autoconfig.h"

#include <CUnit/CUnit.h>

#include "lib/consttime.h"
#include "unit.h"

static void test_constant_time_equal(void)
{
	CU_ASSERT_TRUE(constant_time_equal("abc", 3, "abc", 3));
	CU_ASSERT_FALSE(constant_time_equal("abd", 3, "abc", 3));
	CU_ASSERT_FALSE(constant_time_equal("ab", 2, "abc", 3));
	CU_ASSERT_FALSE(constant_time_equal("abcd", 4, "abc", 3));
	CU_ASSERT_FALSE(constant_time_equal("", 0, "abc", 3));
}

/* The lengths are the caller's: bytes are compared, NULs and all. */
static void test_counted_bytes(void)
{
	CU_ASSERT_TRUE(constant_time_equal("", 0, "", 0));
	CU_ASSERT_FALSE(constant_time_equal("a", 1, "", 0));
	CU_ASSERT_TRUE(constant_time_equal("a\0b", 3, "a\0b", 3));
	CU_ASSERT_FALSE(constant_time_equal("a\0b", 3, "a\0c", 3));
	CU_ASSERT_TRUE(constant_time_equal("abcX", 3, "abcY", 3));
	CU_ASSERT_FALSE(constant_time_equal("abc", 3, "abc\0", 4));
	/* Every bit of every byte counts, the first and the last. */
	CU_ASSERT_FALSE(constant_time_equal("\x80" "bc", 3, "\x00" "bc", 3));
	CU_ASSERT_FALSE(constant_time_equal("ab\xff", 3, "ab\x7f", 3));
	CU_ASSERT_FALSE(constant_time_equal("Abc", 3, "abc", 3));
	CU_ASSERT_TRUE(constant_time_equal("\xff\xfe", 2, "\xff\xfe", 2));
}

void suite_consttime(void)
{
	CU_pSuite s = unit_add_suite("consttime");
	unit_add_test(s, "constant-time compare", test_constant_time_equal);
	unit_add_test(s, "counted bytes", test_counted_bytes);
}
