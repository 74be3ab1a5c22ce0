/* Unit tests: the sync journal (site/journal.h): records appended and
 * kept within a bound, read back, and the span after a token. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "site/journal.h"
#include "unit.h"

static void append(const char *path, uint64_t sig, bool reset, const char *entry_path, size_t keep)
{
	struct journal_gen g = {sig, reset, NULL, 0, 0};
	if (entry_path)
		journal_gen_add(&g, JOURNAL_ENTRY, false, "blog", "id 1", entry_path);
	CU_ASSERT_EQUAL(journal_append(path, &g, keep), 0);
	journal_gen_free(&g);
}

/* Appended records come back, odd bytes and all, the oldest dropped past
 * the bound; the span after a token stops at a reset and knows a token
 * it has not seen. */
static void test_journal(void)
{
	char *dir = unit_tempdir();
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/sync.journal", dir);
	struct journal j;
	CU_ASSERT_EQUAL(journal_read(path.ptr, &j), 0); /* none yet: empty */
	CU_ASSERT_EQUAL(j.n, 0);
	append(path.ptr, 1, true, NULL, 3);
	append(path.ptr, 2, false, "content/collections/blog/a b%.md", 3);
	append(path.ptr, 3, false, "content/collections/blog/c.md", 3);
	CU_ASSERT_EQUAL_FATAL(journal_read(path.ptr, &j), 0);
	CU_ASSERT_EQUAL_FATAL(j.n, 3);
	CU_ASSERT_TRUE(j.gens[0].reset);
	CU_ASSERT_EQUAL(j.gens[1].signature, 2);
	CU_ASSERT_EQUAL_FATAL(j.gens[1].n, 1);
	CU_ASSERT_STRING_EQUAL(j.gens[1].items[0].path, "content/collections/blog/a b%.md");
	CU_ASSERT_STRING_EQUAL(j.gens[1].items[0].id, "id 1");
	size_t first, end;
	CU_ASSERT_EQUAL(journal_since(&j, 1, 3, &first, &end), JOURNAL_FOUND);
	CU_ASSERT_EQUAL(first, 1);
	CU_ASSERT_EQUAL(end, 3);
	CU_ASSERT_EQUAL(journal_since(&j, 3, 3, &first, &end), JOURNAL_FOUND);
	CU_ASSERT_EQUAL(end - first, 0);
	CU_ASSERT_EQUAL(journal_since(&j, 9, 3, &first, &end), JOURNAL_UNKNOWN);
	journal_free(&j);
	/* A fourth: the first goes (3 kept); a reset after 2 hides 2 and 3. */
	append(path.ptr, 4, true, NULL, 3);
	CU_ASSERT_EQUAL_FATAL(journal_read(path.ptr, &j), 0);
	CU_ASSERT_EQUAL(j.n, 3);
	CU_ASSERT_EQUAL(journal_since(&j, 1, 4, &first, &end), JOURNAL_UNKNOWN);
	CU_ASSERT_EQUAL(journal_since(&j, 2, 4, &first, &end), JOURNAL_RESET);
	CU_ASSERT_EQUAL(journal_since(&j, 4, 4, &first, &end), JOURNAL_FOUND);
	journal_free(&j);
	/* What is not a journal is refused whole. */
	const char *bad[] = {"not a journal\n", "cms-api-sync 1\n+ entry =a =b =c\n",
	                     "cms-api-sync 1\ng 0000000000000001\n+ widget =a =b =c\n",
	                     "cms-api-sync 1\ng 0000000000000001\n+ entry =a =b\n"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(journal_parse(bad[i], strlen(bad[i]), &j), -1);
		CU_ASSERT_EQUAL(j.n, 0);
	}
	char token[17];
	uint64_t back;
	journal_token(0xabcULL, token);
	CU_ASSERT_STRING_EQUAL(token, "0000000000000abc");
	CU_ASSERT_TRUE(journal_token_parse(token, &back));
	CU_ASSERT_EQUAL(back, 0xabcULL);
	CU_ASSERT_FALSE(journal_token_parse("0000000000000ABC", &back));
	CU_ASSERT_FALSE(journal_token_parse("abc", &back));
	strbuf_release(&path);
	unit_rmtree(dir);
	free(dir);
}

void suite_journal(void)
{
	CU_pSuite s = unit_add_suite("journal");
	unit_add_test(s, "append, read, since", test_journal);
}
