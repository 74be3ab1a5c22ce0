/* Unit tests: progress_reset, the counter's way back to how a process
 * starts (test_access.c tests the counter itself). Every stream here is
 * a temporary file, so what was drawn can be read back. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>

#include "lib/progress.h"
#include "unit.h"

/* Bytes written to f so far. */
static long written(FILE *f)
{
	fflush(f);
	return ftell(f);
}

/* Reset in the middle of a count, with the line on the screen: nothing
 * more is written to the stream, not even to take the line off (the
 * stream may be gone), and counting has stopped. */
static void test_reset_mid_count(void)
{
	FILE *f = tmpfile();
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	progress_begin(f, "reading", true); /* forced: drawn at once */
	progress_tick();
	long drawn = written(f);
	CU_ASSERT(drawn > 0);
	progress_reset();
	progress_suspend(); /* what the log does before a line on stderr */
	progress_tick();
	CU_ASSERT_EQUAL(progress_end(), 0);
	CU_ASSERT_EQUAL(written(f), drawn);
	fclose(f);
}

/* A count begun after a reset starts from nothing, whatever the one
 * before had reached. */
static void test_count_after_reset(void)
{
	FILE *f = tmpfile();
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	progress_begin(f, "before", false);
	for (int i = 0; i < 3; i++)
		progress_tick();
	progress_reset();
	progress_begin(f, "after", false); /* not a terminal: nothing drawn */
	progress_tick();
	CU_ASSERT_EQUAL(progress_end(), 1);
	CU_ASSERT_EQUAL(written(f), 0);
	/* Reset when nothing counts: nothing happens. */
	progress_reset();
	CU_ASSERT_EQUAL(progress_end(), 0);
	fclose(f);
}

void suite_progress(void)
{
	CU_pSuite s = unit_add_suite("progress");
	unit_add_test(s, "reset in the middle of a count", test_reset_mid_count);
	unit_add_test(s, "a count after a reset", test_count_after_reset);
}
