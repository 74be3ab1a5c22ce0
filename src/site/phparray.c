/* phparray: a config file's literal PHP array; see phparray.h. */
#include "autoconfig.h"

#include "site/phparray.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/strbuf.h"

/* Deeper nesting is refused: no config needs it, and recursion stays
 * bounded (the value builder's own limit is higher). */
#define MAX_NESTING 32

enum token_kind { T_END, T_STRING, T_NUMBER, T_NAME, T_PUNCT, T_BAD };

struct token {
	enum token_kind kind;
	struct strbuf text; /* a string's value, a number's or name's text, a punctuation's */
	int line;
};

struct reader {
	const char *p, *end;
	int line;
	struct token tok; /* the current token */
	const struct phparray_config *config;
	int err_line;
	char *err;
};

static bool failed(const struct reader *r)
{
	return r->err_line != 0;
}

/* Records the first error only; returns -1 for the caller to pass on. */
static int fail(struct reader *r, int line, const char *what)
{
	if (!failed(r)) {
		r->err_line = line > 0 ? line : 1;
		snprintf(r->err, PHPARRAY_ERR_LEN, "%s", what);
	}
	return -1;
}

/* --- tokens --- */

static void skip_space_and_comments(struct reader *r)
{
	while (r->p < r->end) {
		char c = *r->p;
		if (c == '\n') {
			r->line++;
			r->p++;
		} else if (isspace((unsigned char)c)) {
			r->p++;
		} else if (c == '#' || (c == '/' && r->p + 1 < r->end && r->p[1] == '/')) {
			while (r->p < r->end && *r->p != '\n')
				r->p++;
		} else if (c == '/' && r->p + 1 < r->end && r->p[1] == '*') {
			r->p += 2;
			while (r->p < r->end && !(*r->p == '*' && r->p + 1 < r->end && r->p[1] == '/')) {
				r->line += *r->p == '\n';
				r->p++;
			}
			r->p = r->p < r->end ? r->p + 2 : r->end;
		} else if (c == '<' && r->end - r->p >= 5 && strncmp(r->p, "<?php", 5) == 0) {
			r->p += 5;
		} else {
			return;
		}
	}
}

/* '...': \\ and \' are escapes, anything else is itself. */
static void read_single_quoted(struct reader *r)
{
	r->p++;
	while (r->p < r->end && *r->p != '\'') {
		if (*r->p == '\\' && r->p + 1 < r->end && (r->p[1] == '\\' || r->p[1] == '\''))
			r->p++;
		r->line += *r->p == '\n';
		strbuf_addch(&r->tok.text, *r->p++);
	}
	if (r->p >= r->end)
		r->tok.kind = T_BAD;
	else
		r->p++;
}

/* "...": the common escapes; a $ would interpolate a variable: refused. */
static void read_double_quoted(struct reader *r)
{
	r->p++;
	while (r->p < r->end && *r->p != '"') {
		char c = *r->p++;
		if (c == '$') {
			r->tok.kind = T_BAD;
			return;
		}
		if (c == '\\' && r->p < r->end) {
			char e = *r->p++;
			c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
			if (!strchr("ntr\\\"$", e))
				strbuf_addch(&r->tok.text, '\\');
		}
		r->line += c == '\n';
		strbuf_addch(&r->tok.text, c);
	}
	if (r->p >= r->end)
		r->tok.kind = T_BAD;
	else
		r->p++;
}

static bool is_name_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' || c == '\\' ||
	       (!first && isdigit((unsigned char)c));
}

/* Moves to the next token. */
static void next(struct reader *r)
{
	skip_space_and_comments(r);
	strbuf_reset(&r->tok.text);
	r->tok.line = r->line;
	if (r->p >= r->end) {
		r->tok.kind = T_END;
		return;
	}
	char c = *r->p;
	if (c == '\'' || c == '"') {
		r->tok.kind = T_STRING;
		if (c == '\'')
			read_single_quoted(r);
		else
			read_double_quoted(r);
	} else if (isdigit((unsigned char)c)) {
		r->tok.kind = T_NUMBER;
		while (r->p < r->end && (isalnum((unsigned char)*r->p) || *r->p == '.' || *r->p == '_'))
			strbuf_addch(&r->tok.text, *r->p++);
	} else if (is_name_char(c, true)) {
		r->tok.kind = T_NAME;
		while (r->p < r->end && is_name_char(*r->p, false))
			strbuf_addch(&r->tok.text, *r->p++);
	} else {
		r->tok.kind = T_PUNCT;
		size_t n = c == '=' && r->p + 1 < r->end && r->p[1] == '>' ? 2 : 1;
		strbuf_add(&r->tok.text, r->p, n);
		r->p += n;
	}
}

static bool at_punct(const struct reader *r, const char *p)
{
	return r->tok.kind == T_PUNCT && strcmp(strbuf_str(&r->tok.text), p) == 0;
}

/* The current token is a name (case-insensitive, as PHP's keywords and
 * functions are). */
static bool at_name(const struct reader *r, const char *name)
{
	return r->tok.kind == T_NAME && strcasecmp(strbuf_str(&r->tok.text), name) == 0;
}

static int unreadable(struct reader *r);

static int expect_punct(struct reader *r, const char *p)
{
	if (r->tok.kind == T_END || r->tok.kind == T_BAD)
		return unreadable(r);
	if (!at_punct(r, p)) {
		char what[80];
		snprintf(what, sizeof what, "'%s' expected", p);
		return fail(r, r->tok.line, what);
	}
	next(r);
	return 0;
}

/* What the current token is, for a message. */
static int unreadable(struct reader *r)
{
	char what[PHPARRAY_ERR_LEN];
	if (r->tok.kind == T_END)
		return fail(r, r->tok.line, "the file ends inside the array");
	if (r->tok.kind == T_BAD)
		return fail(r, r->tok.line, "a string that does not end, or that holds a $variable");
	snprintf(what, sizeof what,
	         "cannot read '%.30s': only literal arrays, strings, numbers, true, false, null, "
	         "env() and config() are read",
	         strbuf_str(&r->tok.text));
	return fail(r, r->tok.line, what);
}

/* --- values --- */

static int value(struct reader *r, struct value_builder *out, int depth);

static void number_value(const char *text, struct value_builder *out)
{
	char *end;
	errno = 0;
	long long n = strtoll(text, &end, 10);
	if (!*end && errno == 0)
		vb_int(out, n);
	else
		vb_strz(out, text);
}

/* The items of an array up to close, as a map with PHP's keys, made a
 * list when none was given a key. */
static int array_items(struct reader *r, const char *close, struct value_builder *out, int depth)
{
	if (depth > MAX_NESTING)
		return fail(r, r->tok.line, "arrays nested too deep");
	size_t at = out->buf.len;
	bool keyed = false;
	long long next_index = 0;
	struct strbuf key = STRBUF_INIT;
	vb_map_begin(out);
	while (!failed(r) && !at_punct(r, close)) {
		/* A key is a string or a number followed by =>. */
		strbuf_reset(&key);
		if (r->tok.kind == T_STRING || r->tok.kind == T_NUMBER) {
			enum token_kind kind = r->tok.kind;
			const char *p = r->p;
			int line = r->line, tok_line = r->tok.line;
			strbuf_add(&key, r->tok.text.ptr, r->tok.text.len);
			next(r);
			if (at_punct(r, "=>")) {
				next(r);
				keyed = true;
				char *end;
				errno = 0;
				long long n = strtoll(key.ptr, &end, 10);
				if (kind == T_NUMBER && !*end && errno == 0 && n >= next_index)
					next_index = n == LLONG_MAX ? n : n + 1;
			} else {
				/* Not a key: read the token again as the value. */
				r->p = p;
				r->line = line;
				r->tok.kind = kind;
				r->tok.line = tok_line;
				strbuf_reset(&r->tok.text);
				strbuf_add(&r->tok.text, key.ptr, key.len);
				strbuf_reset(&key);
			}
		}
		if (!key.len) {
			if (next_index == LLONG_MAX) { /* PHP: the next element is occupied */
				fail(r, r->tok.line, "an array key too large");
				break;
			}
			strbuf_addf(&key, "%lld", next_index++);
		}
		vb_key(out, key.ptr, key.len);
		if (value(r, out, depth + 1) != 0)
			break;
		if (!at_punct(r, close) && expect_punct(r, ",") != 0)
			break;
	}
	strbuf_release(&key);
	if (failed(r))
		return -1;
	next(r);
	vb_map_end(out);
	if (!keyed)
		vb_map_to_array(out, at);
	return 0;
}

/* name(args): env('NAME'[, default]) or config('key'[, default]). */
static int call_value(struct reader *r, struct value_builder *out, int depth)
{
	bool is_env = at_name(r, "env");
	int line = r->tok.line;
	next(r);
	if (expect_punct(r, "(") != 0)
		return -1;
	if (r->tok.kind != T_STRING)
		return unreadable(r);
	char *name = strbuf_detach(&r->tok.text, NULL);
	next(r);
	const char *known = NULL;
	for (const char *const *kv = r->config ? r->config->pairs : NULL; !is_env && kv && kv[0];
	     kv += 2)
		if (strcmp(kv[0], name) == 0)
			known = kv[1];
	int rc = 0;
	if (at_punct(r, ",")) {
		next(r);
		struct value_builder fallback = VALUE_BUILDER_INIT;
		rc = value(r, &fallback, depth + 1);
		if (rc == 0 && known)
			vb_strz(out, known);
		else if (rc == 0)
			vb_value(out, vb_result(&fallback));
		vb_release(&fallback);
	} else if (known) {
		vb_strz(out, known);
	} else if (is_env) {
		vb_null(out); /* the variable is not ours to read: no value */
	} else {
		char what[PHPARRAY_ERR_LEN];
		snprintf(what, sizeof what, "config('%.60s') is not known here and has no default", name);
		rc = fail(r, line, what);
	}
	free(name);
	return rc != 0 ? -1 : expect_punct(r, ")");
}

static int value(struct reader *r, struct value_builder *out, int depth)
{
	if (r->tok.kind == T_STRING) {
		vb_str(out, r->tok.text.ptr ? r->tok.text.ptr : "", r->tok.text.len);
		next(r);
	} else if (r->tok.kind == T_NUMBER) {
		number_value(strbuf_str(&r->tok.text), out);
		next(r);
	} else if (at_punct(r, "-")) {
		next(r);
		if (r->tok.kind != T_NUMBER)
			return unreadable(r);
		struct strbuf neg = STRBUF_INIT;
		strbuf_addf(&neg, "-%s", strbuf_str(&r->tok.text));
		number_value(neg.ptr, out);
		strbuf_release(&neg);
		next(r);
	} else if (at_name(r, "true") || at_name(r, "false")) {
		vb_bool(out, at_name(r, "true"));
		next(r);
	} else if (at_name(r, "null")) {
		vb_null(out);
		next(r);
	} else if (at_punct(r, "[")) {
		next(r);
		return array_items(r, "]", out, depth);
	} else if (at_name(r, "array")) {
		next(r);
		if (expect_punct(r, "(") != 0)
			return -1;
		return array_items(r, ")", out, depth);
	} else if (at_name(r, "env") || at_name(r, "config")) {
		return call_value(r, out, depth);
	} else {
		return unreadable(r);
	}
	/* Anything joined to a value ('a' . 'b', 1 + 2) is not a literal. */
	if (r->tok.kind == T_PUNCT && !at_punct(r, ",") && !at_punct(r, "]") &&
	    !at_punct(r, ")") && !at_punct(r, ";") && !at_punct(r, "=>"))
		return unreadable(r);
	return 0;
}

int phparray_parse(const char *text, size_t len, const struct phparray_config *config,
                   struct value_builder *out, int *line, char err[PHPARRAY_ERR_LEN])
{
	struct reader r = {text, text + len, 1, {T_END, STRBUF_INIT, 1}, config, 0, err};
	struct value_builder result = VALUE_BUILDER_INIT;
	*err = '\0';
	next(&r);
	/* What comes before `return` (use, declare) is not ours to read. */
	while (r.tok.kind != T_END && r.tok.kind != T_BAD && !at_name(&r, "return"))
		next(&r);
	if (!at_name(&r, "return"))
		fail(&r, r.tok.line, "no 'return' of an array");
	else
		next(&r);
	if (!failed(&r) && !at_punct(&r, "[") && !at_name(&r, "array"))
		unreadable(&r);
	if (!failed(&r))
		value(&r, &result, 0);
	if (!failed(&r) && result.error)
		fail(&r, r.tok.line, "arrays nested too deep");
	if (!failed(&r))
		vb_value(out, vb_result(&result));
	*line = r.err_line;
	strbuf_release(&r.tok.text);
	vb_release(&result);
	return failed(&r) ? -1 : 0;
}
