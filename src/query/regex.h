/*
 * regex: the patterns of filter conditions (regex, like and is_* ones)
 * run as PHP's preg_match runs them for Statamic (case-insensitive,
 * multi-line, UTF-8, invalid UTF-8 never matching), compiled once per
 * filter, with PCRE2's JIT when the library has it, and matched against
 * a work budget that every match of one request draws from. (Debian 12's
 * libpcre2-8 has the JIT on amd64; without it the interpreter runs the
 * same matches for the same steps, about three times more slowly.)
 *
 * Work is counted in steps. PCRE2 calls back before each item of the
 * pattern it tries (automatic callouts); each call costs one step, or,
 * when the match moved further into the subject since the last call of
 * the same attempt, that many bytes (so a run like [^x]* over a long
 * value costs its length, not one step). Steps do not depend on the
 * clock, the machine or the JIT: the same request over the same values
 * always costs the same. Once a match runs out of budget, it and every
 * later match of the request stop at once with REGEX_OVER_BUDGET: the
 * request must be refused, never answered from part of its list.
 */
#ifndef CMS_API_REGEX_H
#define CMS_API_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#define REGEX_SPENT_BY_LEN 200

struct regex_budget {
	unsigned long long left; /* steps still allowed */
	bool spent;              /* a match ran out: every later one fails */
	char spent_by[REGEX_SPENT_BY_LEN]; /* who ran out, for the answer (a
	                          * filter's parameter name), or "" */
};

/* A budget of steps; 0 stands for no bound at all. */
void regex_budget_init(struct regex_budget *b, unsigned long long steps);

struct regex;

#define REGEX_ERR_LEN 160

/* Compiles pattern[0..len). Returns NULL with PCRE2's message and the
 * offset of the problem in err on a pattern that does not compile. */
struct regex *regex_compile(const char *pattern, size_t len, char err[REGEX_ERR_LEN]);

enum regex_result { REGEX_NO_MATCH, REGEX_MATCH, REGEX_OVER_BUDGET };

/* Matches re anywhere in subject[0..len), drawing on budget. */
enum regex_result regex_match(struct regex *re, const char *subject, size_t len,
                              struct regex_budget *budget);

void regex_free(struct regex *re);

#endif
