/* markdown: league/commonmark's HTML from cmark-gfm's parse; see
 * markdown.h. */
#include "autoconfig.h"

#include "site/markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <string.h>

#include "site/md_attrs.h"
#include "site/md_html.h"

void markdown_init(void)
{
	static bool done;
	if (!done) {
		cmark_gfm_core_extensions_ensure_registered();
		done = true;
	}
}

/* A parser with Statamic's extensions (league's Table, Strikethrough,
 * TaskList; Footnote is an option; Attributes is md_attrs), and with
 * autolinks when the field asks for them; or NULL. */
static cmark_parser *new_parser(int options, bool auto_links)
{
	static const char *const extensions[] = {"table", "strikethrough", "tasklist", "autolink"};
	cmark_parser *parser = cmark_parser_new(options);
	if (!parser)
		return NULL;
	for (size_t i = 0; i < sizeof extensions / sizeof extensions[0] - !auto_links; i++) {
		cmark_syntax_extension *ext = cmark_find_syntax_extension(extensions[i]);
		if (!ext || !cmark_parser_attach_syntax_extension(parser, ext)) {
			cmark_parser_free(parser);
			return NULL;
		}
	}
	return parser;
}

/* --- tables as league continues them --- */

/* Columns of leading blanks (a tab to the next multiple of four). */
static size_t indent_of(const char *s, size_t len, size_t *bytes)
{
	size_t cols = 0, i = 0;
	for (; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		cols = s[i] == '\t' ? (cols / 4 + 1) * 4 : cols + 1;
	*bytes = i;
	return cols;
}

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r", s[i]))
			return false;
	return true;
}

/* A fence line (``` or ~~~, three or more): its character and length. */
static size_t fence_of(const char *s, size_t len, char *c)
{
	size_t at;
	indent_of(s, len, &at);
	size_t n = 0;
	while (at + n < len && (s[at + n] == '`' || s[at + n] == '~') && s[at + n] == s[at])
		n++;
	*c = n ? s[at] : '\0';
	return n >= 3 ? n : 0;
}

/* A table's delimiter row: cells of '-' with optional ':' at either end,
 * between optional outer pipes. */
static bool delimiter_row(const char *s, size_t len)
{
	size_t i = 0, dashes = 0;
	for (; i < len && s[i] && strchr(" \t\r|:-", s[i]); i++)
		dashes += s[i] == '-';
	return i == len && dashes > 0;
}

/* A line that starts a block (a list item, a heading, a quote, a rule):
 * without a '|' it ends a table in both parsers. */
static bool block_start(const char *s, size_t len)
{
	size_t i = 0, digits = 0;
	if (len > 0 && strchr("*+-", s[0]) && (len == 1 || s[1] == ' ' || s[1] == '\t'))
		return true;
	if (len > 0 && (s[0] == '>' || (s[0] == '#' && (len == 1 || strchr("# \t", s[1])))))
		return true;
	while (i < len && s[i] >= '0' && s[i] <= '9' && digits < 10)
		i++, digits++;
	if (digits && i < len && (s[i] == '.' || s[i] == ')') &&
	    (i + 1 == len || s[i + 1] == ' ' || s[i + 1] == '\t'))
		return true;
	/* three or more of '*', '-' or '_', blanks between */
	size_t marks = 0;
	for (i = 0; i < len; i++) {
		if (s[i] == s[0] && strchr("*-_", s[0]))
			marks++;
		else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	}
	return marks >= 3;
}

/* A row league reads as empty and cmark-gfm as no row: one '|' alone. */
static bool lone_pipe(const char *s, size_t len)
{
	size_t pipes = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '|')
			pipes++;
		else if (!strchr(" \t\r", s[i]))
			return false;
	}
	return pipes == 1;
}

void markdown_mend_tables(const char *md, size_t len, struct strbuf *out)
{
	char fence = '\0';
	size_t fence_len = 0, table = SIZE_MAX; /* the table's indent, while in one */
	for (size_t at = 0; at < len;) {
		const char *line = md + at, *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at, skip, ind = indent_of(line, n, &skip);
		size_t next_at = at + n + (nl != NULL);
		char c;
		size_t f = fence_of(line, n, &c);
		if (fence) {
			if (f >= fence_len && c == fence && blank(line + skip + f, n - skip - f))
				fence = '\0';
		} else if (f && (c == '~' || !memchr(line + skip + f, '`', n - skip - f))) {
			fence = c, fence_len = f, table = SIZE_MAX;
		} else if (table != SIZE_MAX) {
			if (blank(line, n) ||
			    (!memchr(line, '|', n) && ind < table + 4 && block_start(line + skip, n - skip))) {
				table = SIZE_MAX;
			} else if (memchr(line, '|', n) && (lone_pipe(line, n) || ind >= table + 4)) {
				for (size_t i = 0; i < table; i++)
					strbuf_addch(out, ' ');
				if (lone_pipe(line, n))
					strbuf_addstr(out, "| |");
				else
					strbuf_add(out, line + skip, n - skip);
				if (nl)
					strbuf_addch(out, '\n');
				at = next_at;
				continue;
			}
		} else if (memchr(line, '|', n) && next_at < len) {
			const char *row = md + next_at, *end = memchr(row, '\n', len - next_at);
			if (delimiter_row(row, end ? (size_t)(end - row) : len - next_at))
				table = ind;
		}
		strbuf_add(out, line, next_at - at);
		at = next_at;
	}
}

/* --- the whole --- */

/* Parses src[0..len) and appends its HTML; -1 when cmark-gfm fails. */
static int render(const char *src, size_t len, const struct markdown_options *opt,
                  struct strbuf *out)
{
	int options = CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES | (opt->smartypants ? CMARK_OPT_SMART : 0);
	cmark_parser *parser = new_parser(options, opt->auto_links);
	if (!parser)
		return -1;
	if (len > 0)
		cmark_parser_feed(parser, src, len);
	cmark_node *doc = cmark_parser_finish(parser);
	int rc = -1;
	if (doc) {
		struct md_attrs_pass pass = {0};
		struct md_html html = {opt->line_breaks, opt->escape_markup, src, len};
		rc = md_attrs_apply(&pass, doc, src, len);
		if (rc == 0)
			rc = md_html_render(doc, &html, out);
		md_attrs_release(&pass);
		cmark_node_free(doc);
	}
	cmark_parser_free(parser);
	return rc;
}

int markdown_to_html(const char *md, size_t len, const struct markdown_options *opt,
                     struct strbuf *out)
{
	if (len > MARKDOWN_MAX_INPUT)
		return -1;
	markdown_init();
	struct strbuf resolved = STRBUF_INIT, src = STRBUF_INIT;
	statamic_urls_resolve(md ? md : "", md ? len : 0, opt->links, &resolved);
	markdown_mend_tables(strbuf_str(&resolved), resolved.len, &src);
	size_t at = out->len;
	int rc = render(strbuf_str(&src), src.len, opt, out);
	if (rc != 0)
		strbuf_truncate(out, at);
	strbuf_release(&resolved);
	strbuf_release(&src);
	return rc;
}
