/* regex: filter patterns with a per-request work budget; see regex.h. */
#include "autoconfig.h"

#include "query/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <limits.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/strbuf.h"

struct regex {
	pcre2_code *code;
	pcre2_match_data *match_data;    /* made once: matching runs once per item */
	pcre2_match_context *context;    /* carries the step counter */
};

void regex_budget_init(struct regex_budget *b, unsigned long long steps)
{
	b->left = steps ? steps : ULLONG_MAX;
	b->spent = false;
	b->spent_by[0] = '\0';
}

struct regex *regex_compile(const char *pattern, size_t len, char err[REGEX_ERR_LEN])
{
	int code;
	PCRE2_SIZE offset;
	pcre2_code *compiled = pcre2_compile((PCRE2_SPTR)pattern, len,
	                                     PCRE2_CASELESS | PCRE2_MULTILINE | PCRE2_UTF |
	                                             PCRE2_MATCH_INVALID_UTF | PCRE2_AUTO_CALLOUT,
	                                     &code, &offset, NULL);
	if (!compiled) {
		PCRE2_UCHAR message[120];
		pcre2_get_error_message(code, message, sizeof message);
		snprintf(err, REGEX_ERR_LEN, "%s at offset %zu", (const char *)message, (size_t)offset);
		return NULL;
	}
	/* Without the JIT (or memory for its code) the interpreter runs the
	 * same pattern: pcre2_match picks whichever the code has. */
	(void)pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE);
	struct regex *re = xcalloc(1, sizeof *re);
	re->code = compiled;
	re->match_data = pcre2_match_data_create_from_pattern(compiled, NULL);
	re->context = pcre2_match_context_create(NULL);
	if (!re->match_data || !re->context) {
		/* As xmalloc does: never fail silently. */
		fprintf(stderr, "cms-api: out of memory making a regex's match data\n");
		abort();
	}
	return re;
}

/* What one match has spent so far, and where it stood at the last step. */
struct step_counter {
	struct regex_budget *budget;
	PCRE2_SIZE attempt_start; /* the start of the attempt being counted */
	PCRE2_SIZE last_position;
	bool counting;            /* an attempt has been seen */
};

static int count_step(pcre2_callout_block *block, void *data)
{
	struct step_counter *c = data;
	unsigned long long cost = 1;
	if (!c->counting || block->start_match != c->attempt_start) {
		/* A new start position: how far the start-up optimisations
		 * skipped to reach it is their (linear) business. */
		c->counting = true;
		c->attempt_start = block->start_match;
	} else if (block->current_position > c->last_position) {
		cost = block->current_position - c->last_position;
	}
	c->last_position = block->current_position;
	if (cost > c->budget->left) {
		c->budget->left = 0;
		return PCRE2_ERROR_CALLOUT; /* any negative value stops the match */
	}
	c->budget->left -= cost;
	return 0;
}

enum regex_result regex_match(struct regex *re, const char *subject, size_t len,
                              struct regex_budget *budget)
{
	if (budget->spent)
		return REGEX_OVER_BUDGET;
	struct step_counter counter = {budget, 0, 0, false};
	pcre2_set_callout(re->context, count_step, &counter);
	int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, re->match_data, re->context);
	if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
		/* Deeper than the JIT's small stack: the interpreter keeps its
		 * frames on the heap. The steps spent so far stay spent. */
		counter.counting = false;
		rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, PCRE2_NO_JIT, re->match_data,
		                 re->context);
	}
	if (rc >= 0)
		return REGEX_MATCH;
	if (rc == PCRE2_ERROR_NOMATCH)
		return REGEX_NO_MATCH;
	/* Out of steps, or over one of PCRE2's own limits (heap, depth): too
	 * much work either way. */
	budget->spent = true;
	return REGEX_OVER_BUDGET;
}

void regex_free(struct regex *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->match_data);
	pcre2_match_context_free(re->context);
	pcre2_code_free(re->code);
	free(re);
}
