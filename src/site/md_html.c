/* md_html: cmark-gfm's tree written as league/commonmark writes HTML; see
 * md_html.h. */
#include "autoconfig.h"

#include "site/md_html.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <cmark-gfm-core-extensions.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "lib/htmlesc.h"
#include "site/md_attrs.h"

/* Deeper nesting is not written (cmark-gfm nests no deeper than this in
 * practice; a hostile input must not exhaust the stack). */
#define MAX_DEPTH 200

/* league's RegexHelper::PARTIAL_HTMLTAG, matched case-sensitively as its
 * HtmlInlineParser matches it. */
#define ATTRIBUTE_VALUE "(?:[^\"'=<>`\\x00-\\x20]+|'[^']*'|\"[^\"]*\")"
#define ATTRIBUTE "(?:\\s+[a-z_:][a-z0-9:._-]*(?:\\s*=\\s*" ATTRIBUTE_VALUE ")?)"
static const char html_tag_pattern[] =
	"(?:<[a-z][a-z0-9-]*" ATTRIBUTE "*+\\s*+\\/?+>"
	"|<\\/[a-z][a-z0-9-]*\\s*+[>]"
	"|(?:<!-->|<!--->|<!--[\\s\\S]*?-->)"
	"|[<][?][\\s\\S]*?[?][>]"
	"|<![A-Za-z]+[^>]*>"
	"|<!\\[CDATA\\[[\\s\\S]*?]\\]>)";

/* One footnote: its label (lower case) and how many references name it. */
struct footnote {
	char *label;
	unsigned refs;
};

/* A reference to a footnote, and which of the footnote's it is (from 1)
 * in the order of the source, where league counts them (cmark-gfm has
 * moved the footnotes' own text to the end). */
struct reference {
	cmark_node *node;
	int line, column;
	unsigned which;
};

struct render {
	const struct md_html *opt;
	struct strbuf *out;
	const pcre2_code *html_tag;
	pcre2_match_data *md;
	struct footnote *notes; /* by number - 1 */
	size_t nnotes;
	struct reference *refs;
	size_t nrefs;
};

static bool is_block(cmark_node *node)
{
	return (cmark_node_get_type(node) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK;
}

static bool type_is(cmark_node *node, const char *name)
{
	return strcmp(cmark_node_get_type_string(node), name) == 0;
}

/* & < > as htmlspecialchars(ENT_NOQUOTES) escapes raw HTML. */
static void escape_noquotes(const char *s, size_t len, struct strbuf *out)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		default: strbuf_addch(out, s[i]);
		}
	}
}

static void xml(const char *s, struct strbuf *out)
{
	htmlesc_xml(s, strlen(s), out);
}

/* "<tag", the attributes, then what ends the start tag (">", ">\n",
 * " />"). */
static void start_tag(struct render *r, const char *tag, const struct md_attrs *a,
                      const char *end)
{
	strbuf_addf(r->out, "<%s", tag);
	md_attrs_write(a, r->out);
	strbuf_addstr(r->out, end);
}

/* --- URLs --- */

void md_html_encode_url(const char *url, struct strbuf *out)
{
	static const char keep[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	                           "~!@#$&*()-_=+;:,./?";
	/* league's ENCODE_CACHE keeps these of ASCII, and encodes the rest */
	static const char ascii_kept[] = "!#$&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_"
	                                 "abcdefghijklmnopqrstuvwxyz~";
	size_t len = strlen(url);
	if (len > 0 && strspn(url, keep) == len) {
		strbuf_addstr(out, url);
		return;
	}
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)url[i];
		unsigned cp;
		if (c == '%' && i + 2 < len + 0 && strchr("0123456789abcdefABCDEF", url[i + 1]) &&
		    url[i + 1] && strchr("0123456789abcdefABCDEF", url[i + 2]) && url[i + 2]) {
			strbuf_add(out, url + i, 3);
			i += 3;
		} else if (c < 0x80) {
			if (c && strchr(ascii_kept, c))
				strbuf_addch(out, (char)c);
			else
				strbuf_addf(out, "%%%02X", c);
			i++;
		} else {
			size_t n = htmlesc_utf8((const unsigned char *)url + i, len - i, &cp);
			for (size_t k = 0; k < (n ? n : 1); k++)
				strbuf_addf(out, "%%%02X", (unsigned char)url[i + k]);
			i += n ? n : 1;
		}
	}
}

/* The n-th line (1-based) of the source, and what follows it. */
static const char *source_line(const struct render *r, int n)
{
	const char *p = r->opt->src, *end = r->opt->src + r->opt->len;
	for (int i = 1; i < n && p < end; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	return n >= 1 && p < end ? p : NULL;
}

/* --- footnotes --- */

/* The label of the footnote reference node, as written in the source
 * ("[^label]" at the node's place); NULL when it is not found there. */
static char *reference_label(const struct render *r, cmark_node *node)
{
	int col = cmark_node_get_start_column(node);
	const char *p = source_line(r, cmark_node_get_start_line(node)), *end = r->opt->src + r->opt->len;
	if (!p || col < 1 || p + col + 1 >= end || p[col - 1] != '[' || p[col] != '^')
		return NULL;
	const char *label = p + col + 1, *close = memchr(label, ']', (size_t)(end - label));
	if (!close || memchr(label, '\n', (size_t)(close - label)))
		return NULL;
	char *s = xstrndup(label, (size_t)(close - label));
	for (char *c = s; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	return s;
}

static int by_place(const void *a, const void *b)
{
	const struct reference *x = a, *y = b;
	if (x->line != y->line)
		return (x->line > y->line) - (x->line < y->line);
	return (x->column > y->column) - (x->column < y->column);
}

/* Numbers and labels of the footnotes, from their references (cmark-gfm
 * numbers a footnote by its first one in the source), and the place of
 * each reference among its footnote's. */
static void gather_footnotes(struct render *r, cmark_node *doc)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_FOOTNOTE_REFERENCE)
			continue;
		long n = strtol(cmark_node_get_literal(node), NULL, 10);
		if (n < 1 || n > 100000)
			continue;
		if ((size_t)n > r->nnotes) {
			r->notes = xrealloc(r->notes, (size_t)n * sizeof *r->notes);
			memset(r->notes + r->nnotes, 0, ((size_t)n - r->nnotes) * sizeof *r->notes);
			r->nnotes = (size_t)n;
		}
		struct footnote *f = &r->notes[n - 1];
		if (!f->label)
			f->label = reference_label(r, node);
		if (!f->label)
			f->label = xstrdup(cmark_node_get_literal(node));
		f->refs++;
		r->refs = xrealloc(r->refs, (r->nrefs + 1) * sizeof *r->refs);
		r->refs[r->nrefs++] = (struct reference){node, cmark_node_get_start_line(node),
		                                         cmark_node_get_start_column(node), 0};
	}
	cmark_iter_free(it);
	if (r->nrefs > 1) /* qsort is never given NULL, even for nothing */
		qsort(r->refs, r->nrefs, sizeof *r->refs, by_place);
	for (size_t i = 0; i < r->nrefs; i++) {
		long n = strtol(cmark_node_get_literal(r->refs[i].node), NULL, 10);
		unsigned seen = 0;
		for (size_t j = 0; j < i; j++)
			seen += strtol(cmark_node_get_literal(r->refs[j].node), NULL, 10) == n;
		r->refs[i].which = seen + 1;
	}
}

/* Which of its footnote's references node is (from 1). */
static unsigned reference_which(const struct render *r, cmark_node *node)
{
	for (size_t i = 0; i < r->nrefs; i++)
		if (r->refs[i].node == node)
			return r->refs[i].which;
	return 1;
}

/* The id of a footnote's k-th reference (from 1): "label", then
 * "label__2", ... */
static void reference_id(const struct footnote *f, unsigned k, struct strbuf *out)
{
	strbuf_addstr(out, f->label);
	if (k > 1)
		strbuf_addf(out, "__%u", k);
}

static void render_footnote_reference(struct render *r, cmark_node *node)
{
	long n = strtol(cmark_node_get_literal(node), NULL, 10);
	if (n < 1 || (size_t)n > r->nnotes) {
		xml(cmark_node_get_literal(node), r->out);
		return;
	}
	struct footnote *f = &r->notes[n - 1];
	struct md_attrs a = {0};
	md_attrs_copy(&a, md_attrs_of(node));
	md_attrs_append_class(&a, "footnote-ref");
	struct strbuf v = STRBUF_INIT;
	strbuf_addf(&v, "#fn:%s", f->label);
	md_attrs_set(&a, "href", v.ptr, v.len);
	md_attrs_set(&a, "role", STR_LEN("doc-noteref"));
	strbuf_reset(&v);
	reference_id(f, reference_which(r, node), &v);
	strbuf_addstr(r->out, "<sup id=\"fnref:");
	xml(strbuf_str(&v), r->out);
	strbuf_addstr(r->out, "\">");
	start_tag(r, "a", &a, ">");
	strbuf_addf(r->out, "%ld</a></sup>", n);
	strbuf_release(&v);
	md_attrs_free(&a);
}

/* The links back to each reference, at the end of a footnote's text. */
static void render_backrefs(struct render *r, const struct footnote *f)
{
	struct strbuf id = STRBUF_INIT;
	for (unsigned k = 1; k <= f->refs; k++) {
		strbuf_reset(&id);
		reference_id(f, k, &id);
		strbuf_addstr(r->out, "&nbsp;<a class=\"footnote-backref\" rev=\"footnote\" href=\"#fnref:");
		xml(strbuf_str(&id), r->out);
		strbuf_addstr(r->out, "\" role=\"doc-backlink\">\xe2\x86\xa9</a>");
	}
	strbuf_release(&id);
}

/* --- inlines --- */

static bool in_block_quote(cmark_node *node)
{
	for (cmark_node *p = cmark_node_parent(node); p; p = cmark_node_parent(p))
		if (cmark_node_get_type(p) == CMARK_NODE_BLOCK_QUOTE)
			return true;
	return false;
}

/* s without its blanks (to tell two spellings of one span apart). */
static void no_blanks(const char *s, size_t len, struct strbuf *out)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", s[i]))
			strbuf_addch(out, s[i]);
}

/* A code span over several lines, read again from the source: cmark-gfm
 * keeps the blanks that start a lazy continuation line (in a list item),
 * league drops them, as a paragraph's lines lose theirs. Returns false
 * (out unchanged) when the span is on one line, in a block quote (its
 * lines begin with '>'), or not found where cmark-gfm says it starts. */
static bool code_span_again(const struct render *r, cmark_node *node, struct strbuf *out)
{
	const char *lit = cmark_node_get_literal(node), *end = r->opt->src + r->opt->len;
	const char *line = source_line(r, cmark_node_get_start_line(node));
	int col = cmark_node_get_start_column(node);
	/* cmark-gfm's column is the span's first character, after the ticks */
	if (!strchr(lit, ' ') || in_block_quote(node) || !line || col < 2 || line + col > end ||
	    line[col - 2] != '`')
		return false;
	const char *open = line + col - 2, *p;
	while (open > line && open[-1] == '`')
		open--;
	size_t ticks = strspn(open, "`"), close_at = 0;
	for (p = open + ticks; p < end && !close_at; p++) {
		size_t run = 0;
		while (p + run < end && p[run] == '`')
			run++;
		if (run == ticks)
			close_at = (size_t)(p - open);
		p += run ? run - 1 : 0;
	}
	const char *body = open + ticks;
	size_t len = close_at > ticks ? close_at - ticks : 0;
	if (!close_at || !memchr(body, '\n', len))
		return false;
	struct strbuf text = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	for (size_t i = 0; i < len;) {
		size_t n = strcspn(body + i, "\n");
		n = i + n > len ? len - i : n;
		size_t line_len = n && body[i + n - 1] == '\r' ? n - 1 : n;
		strbuf_add(&text, body + i, line_len);
		i += n;
		if (i < len) { /* the line's end as a space, the next line's blanks gone */
			strbuf_addch(&text, ' ');
			i++;
			while (i < len && (body[i] == ' ' || body[i] == '\t'))
				i++;
		}
	}
	const char *t = strbuf_str(&text);
	size_t tl = text.len;
	if (tl >= 2 && t[0] == ' ' && t[tl - 1] == ' ' && strspn(t, " ") < tl)
		t++, tl -= 2;
	no_blanks(t, tl, &a);
	no_blanks(lit, strlen(lit), &b);
	bool same = a.len == b.len && memcmp(strbuf_str(&a), strbuf_str(&b), a.len) == 0;
	if (same)
		htmlesc_xml(t, tl, out);
	strbuf_release(&text);
	strbuf_release(&a);
	strbuf_release(&b);
	return same;
}

static void render_node(struct render *r, cmark_node *node, int depth);

/* The node's children: blocks one line apart, inlines run together. */
static void render_children(struct render *r, cmark_node *node, int depth)
{
	bool first = true;
	for (cmark_node *k = cmark_node_first_child(node); k; k = cmark_node_next(k)) {
		if (cmark_node_get_type(k) == CMARK_NODE_FOOTNOTE_DEFINITION)
			continue; /* written at the end */
		if (!first && is_block(k))
			strbuf_addch(r->out, '\n');
		render_node(r, k, depth + 1);
		first = false;
	}
}

/* <tag attrs>children</tag>, the node's attributes first. */
static void element(struct render *r, const char *tag, cmark_node *node, int depth)
{
	start_tag(r, tag, md_attrs_of(node), ">");
	render_children(r, node, depth);
	strbuf_addf(r->out, "</%s>", tag);
}

static void render_html_inline(struct render *r, cmark_node *node)
{
	const char *s = cmark_node_get_literal(node);
	size_t len = strlen(s);
	/* What league does not read as HTML it writes as text. */
	int rc = pcre2_match(r->html_tag, (PCRE2_SPTR)s, len, 0, PCRE2_ANCHORED, r->md, NULL);
	if (rc < 0 || pcre2_get_ovector_pointer(r->md)[1] != len)
		htmlesc_xml(s, len, r->out);
	else if (r->opt->escape_markup)
		escape_noquotes(s, len, r->out);
	else
		strbuf_add(r->out, s, len);
}

/* A link's or an image's attributes: its own, then its URL (as name),
 * encoded as league encodes it. */
static void with_url(struct md_attrs *a, cmark_node *node, const char *name)
{
	struct strbuf url = STRBUF_INIT;
	md_attrs_copy(a, md_attrs_of(node));
	md_html_encode_url(cmark_node_get_url(node), &url);
	md_attrs_set(a, name, strbuf_str(&url), url.len);
	strbuf_release(&url);
}

/* ... and its title, when it has one. */
static void with_title(struct md_attrs *a, cmark_node *node)
{
	const char *title = cmark_node_get_title(node);
	if (title && *title)
		md_attrs_set(a, "title", title, strlen(title));
}

static void render_link(struct render *r, cmark_node *node, int depth)
{
	struct md_attrs a = {0};
	with_url(&a, node, "href");
	with_title(&a, node);
	const char *target = md_attrs_get(&a, "target");
	if (target && strcmp(target, "_blank") == 0 && !md_attrs_get(&a, "rel"))
		md_attrs_set(&a, "rel", STR_LEN("noopener noreferrer"));
	start_tag(r, "a", &a, ">");
	render_children(r, node, depth);
	strbuf_addstr(r->out, "</a>");
	md_attrs_free(&a);
}

/* An image's alt: its text, code and HTML as written, a line break as a
 * newline. */
static void alt_text(cmark_node *node, struct strbuf *out, int depth)
{
	for (cmark_node *k = cmark_node_first_child(node); k && depth < MAX_DEPTH;
	     k = cmark_node_next(k)) {
		cmark_node_type t = cmark_node_get_type(k);
		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE || t == CMARK_NODE_HTML_INLINE)
			strbuf_addstr(out, cmark_node_get_literal(k));
		else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			strbuf_addch(out, '\n');
		else
			alt_text(k, out, depth + 1);
	}
}

static void render_image(struct render *r, cmark_node *node, int depth)
{
	struct md_attrs a = {0};
	struct strbuf alt = STRBUF_INIT;
	with_url(&a, node, "src");
	alt_text(node, &alt, depth);
	md_attrs_set(&a, "alt", strbuf_str(&alt), alt.len);
	with_title(&a, node);
	start_tag(r, "img", &a, " />");
	strbuf_release(&alt);
	md_attrs_free(&a);
}

/* --- blocks --- */

/* A paragraph two levels below a tight list (in its item) has no <p>. */
static bool in_tight_list(cmark_node *node)
{
	cmark_node *p = cmark_node_parent(node);
	for (int i = 0; p && i < 2; i++, p = cmark_node_parent(p))
		if (cmark_node_get_type(p) == CMARK_NODE_LIST)
			return cmark_node_get_list_tight(p);
	return false;
}

/* The blanks between a task's box and its text ("- [x]  text"), which
 * league keeps in the text and cmark-gfm drops: read in the source
 * before the paragraph. */
static void task_gap(const struct render *r, cmark_node *para, struct strbuf *out)
{
	int col = cmark_node_get_start_column(para);
	const char *p = source_line(r, cmark_node_get_start_line(para)), *end = r->opt->src + r->opt->len;
	if (!p || col < 2 || p + col - 1 > end)
		return;
	size_t n = 0;
	while ((size_t)(col - 1) > n && (p[col - 2 - n] == ' ' || p[col - 2 - n] == '\t'))
		n++;
	if ((size_t)(col - 1) >= n + 1 && p[col - 2 - n] == ']')
		strbuf_add(out, p + col - 1 - n, n);
}

/* league's task list marker, first in the item's first paragraph. */
static void task_box(struct render *r, cmark_node *para)
{
	cmark_node *item = cmark_node_parent(para);
	if (!item || !type_is(item, "tasklist") || cmark_node_first_child(item) != para)
		return;
	strbuf_addstr(r->out, "<input");
	if (cmark_gfm_extensions_get_tasklist_item_checked(item))
		strbuf_addstr(r->out, " checked=\"\"");
	strbuf_addstr(r->out, " disabled=\"\" type=\"checkbox\">");
	task_gap(r, para, r->out);
}

/* A paragraph; backrefs (not NULL: the last paragraph of a footnote)
 * come at the end of its text. */
static void render_paragraph(struct render *r, cmark_node *node, const struct footnote *backrefs,
                             int depth)
{
	bool bare = in_tight_list(node);
	if (!bare)
		start_tag(r, "p", md_attrs_of(node), ">");
	task_box(r, node);
	render_children(r, node, depth);
	if (backrefs)
		render_backrefs(r, backrefs);
	if (!bare)
		strbuf_addstr(r->out, "</p>");
}

static void render_list(struct render *r, cmark_node *node, int depth)
{
	bool ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST;
	int start = cmark_node_get_list_start(node);
	struct md_attrs a = {0};
	md_attrs_copy(&a, md_attrs_of(node));
	if (ordered && start != 1) {
		char n[16];
		snprintf(n, sizeof n, "%d", start);
		md_attrs_set(&a, "start", n, strlen(n));
	}
	start_tag(r, ordered ? "ol" : "ul", &a, ">\n");
	render_children(r, node, depth);
	strbuf_addstr(r->out, ordered ? "\n</ol>" : "\n</ul>");
	md_attrs_free(&a);
}

/* A block child that is no paragraph of a tight list stands on lines of
 * its own inside <li>. */
static bool apart(cmark_node *child, bool tight)
{
	return child && is_block(child) && !(tight && cmark_node_get_type(child) == CMARK_NODE_PARAGRAPH);
}

static void render_item(struct render *r, cmark_node *node, int depth)
{
	cmark_node *list = cmark_node_parent(node);
	bool tight = list && cmark_node_get_list_tight(list);
	start_tag(r, "li", md_attrs_of(node), ">");
	if (apart(cmark_node_first_child(node), tight))
		strbuf_addch(r->out, '\n');
	render_children(r, node, depth);
	if (apart(cmark_node_last_child(node), tight))
		strbuf_addch(r->out, '\n');
	strbuf_addstr(r->out, "</li>");
}

/* Whether node lies in a list item: league reads a blank line there as
 * empty, whatever blanks it holds past the item's indent. */
static bool in_item(cmark_node *node)
{
	for (cmark_node *p = cmark_node_parent(node); p; p = cmark_node_parent(p))
		if (cmark_node_get_type(p) == CMARK_NODE_ITEM)
			return true;
	return false;
}

static void code_text(cmark_node *node, struct strbuf *out)
{
	const char *s = cmark_node_get_literal(node);
	bool blank_lines_empty = in_item(node);
	while (*s) {
		size_t line = strcspn(s, "\n");
		if (!(blank_lines_empty && strspn(s, " \t") == line))
			htmlesc_xml(s, line, out);
		s += line;
		if (*s == '\n')
			strbuf_addch(out, *s++);
	}
}

static void render_code_block(struct render *r, cmark_node *node)
{
	struct md_attrs a = {0};
	md_attrs_copy(&a, md_attrs_of(node));
	int fence_len, fence_offset;
	char fence_char;
	const char *info = cmark_node_get_fence_info(node);
	if (cmark_node_get_fenced(node, &fence_len, &fence_offset, &fence_char) && info && *info) {
		size_t word = strcspn(info, " \t\n\r\v\f");
		struct strbuf class = STRBUF_INIT;
		if (strncmp(info, "language-", 9) != 0)
			strbuf_addstr(&class, "language-");
		strbuf_add(&class, info, word);
		if (word > 0)
			md_attrs_append_class(&a, strbuf_str(&class));
		strbuf_release(&class);
	}
	strbuf_addstr(r->out, "<pre>");
	start_tag(r, "code", &a, ">");
	code_text(node, r->out);
	strbuf_addstr(r->out, "</code></pre>");
	md_attrs_free(&a);
}

static void render_html_block(struct render *r, cmark_node *node)
{
	const char *s = cmark_node_get_literal(node);
	size_t len = strlen(s);
	if (len && s[len - 1] == '\n')
		len--; /* league's literal ends before the line's end */
	if (r->opt->escape_markup)
		escape_noquotes(s, len, r->out);
	else
		strbuf_add(r->out, s, len);
}

/* A table cell: its attributes, then align when its column has one. */
static void render_cell(struct render *r, cmark_node *cell, bool header, uint8_t align, int depth)
{
	static const char *const names[] = {['l'] = "left", ['c'] = "center", ['r'] = "right"};
	struct md_attrs a = {0};
	md_attrs_copy(&a, md_attrs_of(cell));
	if (align == 'l' || align == 'c' || align == 'r')
		md_attrs_set(&a, "align", names[align], strlen(names[align]));
	start_tag(r, header ? "th" : "td", &a, ">");
	render_children(r, cell, depth);
	strbuf_addstr(r->out, header ? "</th>" : "</td>");
	md_attrs_free(&a);
}

static void render_row(struct render *r, cmark_node *row, const uint8_t *aligns, uint16_t ncols,
                       int depth)
{
	bool header = type_is(row, "table_header");
	start_tag(r, "tr", md_attrs_of(row), ">\n");
	uint16_t i = 0;
	for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell), i++) {
		if (i > 0)
			strbuf_addch(r->out, '\n');
		render_cell(r, cell, header, aligns && i < ncols ? aligns[i] : 0, depth + 1);
	}
	strbuf_addstr(r->out, "\n</tr>");
}

/* league's table: a <thead> with the first row, a <tbody> with the
 * others when there are any. */
static void render_table(struct render *r, cmark_node *table, int depth)
{
	const uint8_t *aligns = cmark_gfm_extensions_get_table_alignments(table);
	uint16_t ncols = cmark_gfm_extensions_get_table_columns(table);
	start_tag(r, "table", md_attrs_of(table), ">\n<thead>\n");
	cmark_node *row = cmark_node_first_child(table);
	if (row)
		render_row(r, row, aligns, ncols, depth + 1);
	strbuf_addstr(r->out, "\n</thead>");
	if (row && cmark_node_next(row)) {
		strbuf_addstr(r->out, "\n<tbody>\n");
		for (cmark_node *k = cmark_node_next(row); k; k = cmark_node_next(k)) {
			render_row(r, k, aligns, ncols, depth + 1);
			if (cmark_node_next(k))
				strbuf_addch(r->out, '\n');
		}
		strbuf_addstr(r->out, "\n</tbody>");
	}
	strbuf_addstr(r->out, "\n</table>");
}

static void render_blockquote(struct render *r, cmark_node *node, int depth)
{
	start_tag(r, "blockquote", md_attrs_of(node), ">\n");
	size_t at = r->out->len;
	render_children(r, node, depth);
	if (r->out->len > at)
		strbuf_addch(r->out, '\n');
	strbuf_addstr(r->out, "</blockquote>");
}

static void render_heading(struct render *r, cmark_node *node, int depth)
{
	char tag[4];
	snprintf(tag, sizeof tag, "h%d", cmark_node_get_heading_level(node));
	element(r, tag, node, depth);
}

static void render_node(struct render *r, cmark_node *node, int depth)
{
	if (depth > MAX_DEPTH)
		return;
	const char *s = cmark_node_get_literal(node);
	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_TEXT: xml(s, r->out); return;
	case CMARK_NODE_SOFTBREAK: strbuf_addstr(r->out, r->opt->line_breaks ? "<br />\n" : "\n"); return;
	case CMARK_NODE_LINEBREAK: strbuf_addstr(r->out, "<br />\n"); return;
	case CMARK_NODE_CODE:
		start_tag(r, "code", md_attrs_of(node), ">");
		if (!code_span_again(r, node, r->out))
			xml(s, r->out);
		strbuf_addstr(r->out, "</code>");
		return;
	case CMARK_NODE_HTML_INLINE: render_html_inline(r, node); return;
	case CMARK_NODE_EMPH: element(r, "em", node, depth); return;
	case CMARK_NODE_STRONG: element(r, "strong", node, depth); return;
	case CMARK_NODE_LINK: render_link(r, node, depth); return;
	case CMARK_NODE_IMAGE: render_image(r, node, depth); return;
	case CMARK_NODE_FOOTNOTE_REFERENCE: render_footnote_reference(r, node); return;
	case CMARK_NODE_PARAGRAPH: render_paragraph(r, node, NULL, depth); return;
	case CMARK_NODE_HEADING: render_heading(r, node, depth); return;
	case CMARK_NODE_BLOCK_QUOTE: render_blockquote(r, node, depth); return;
	case CMARK_NODE_LIST: render_list(r, node, depth); return;
	case CMARK_NODE_ITEM: render_item(r, node, depth); return;
	case CMARK_NODE_CODE_BLOCK: render_code_block(r, node); return;
	case CMARK_NODE_HTML_BLOCK: render_html_block(r, node); return;
	case CMARK_NODE_THEMATIC_BREAK:
		start_tag(r, "hr", md_attrs_of(node), " />");
		return;
	default: break;
	}
	if (type_is(node, "strikethrough"))
		element(r, "del", node, depth);
	else if (type_is(node, "table"))
		render_table(r, node, depth);
	else
		render_children(r, node, depth);
}

/* league's footnote container, after everything else. */
static void render_footnotes(struct render *r, cmark_node *doc)
{
	size_t n = 0;
	for (cmark_node *k = cmark_node_first_child(doc); k; k = cmark_node_next(k)) {
		if (cmark_node_get_type(k) != CMARK_NODE_FOOTNOTE_DEFINITION || n >= r->nnotes)
			continue;
		struct footnote *f = &r->notes[n];
		/* A number no reference named (a definition whose only
		 * reference sits in an unused definition): the label is the
		 * definition's own. */
		if (!f->label) {
			const char *own = cmark_node_get_literal(k);
			f->label = xstrdup(own ? own : "");
		}
		strbuf_addstr(r->out, n++ ? "\n" : "\n<div class=\"footnotes\" role=\"doc-endnotes\"><hr /><ol>");
		strbuf_addstr(r->out, "<li class=\"footnote\" id=\"fn:");
		xml(f->label, r->out);
		strbuf_addstr(r->out, "\" role=\"doc-endnote\">");
		for (cmark_node *b = cmark_node_first_child(k); b; b = cmark_node_next(b)) {
			bool last = !cmark_node_next(b);
			if (b != cmark_node_first_child(k))
				strbuf_addch(r->out, '\n');
			if (last && cmark_node_get_type(b) == CMARK_NODE_PARAGRAPH) {
				render_paragraph(r, b, f, 1);
				continue;
			}
			render_node(r, b, 1);
			if (last)
				render_backrefs(r, f);
		}
		strbuf_addstr(r->out, "</li>");
	}
	if (n)
		strbuf_addstr(r->out, "</ol></div>");
}

int md_html_render(cmark_node *doc, const struct md_html *opt, struct strbuf *out)
{
	/* Compiled once per process (compiling cost more than matching when
	 * every Markdown field of a million entries did it); never changed
	 * after, nor freed. */
	static pcre2_code *html_tag;
	int err;
	PCRE2_SIZE off;
	struct render r = {opt, out, NULL, NULL, NULL, 0, NULL, 0};
	if (!html_tag)
		html_tag = pcre2_compile((PCRE2_SPTR)html_tag_pattern, PCRE2_ZERO_TERMINATED, 0, &err,
		                         &off, NULL);
	r.html_tag = html_tag;
	r.md = r.html_tag ? pcre2_match_data_create_from_pattern(r.html_tag, NULL) : NULL;
	if (!r.md)
		return -1;
	gather_footnotes(&r, doc);
	size_t at = out->len;
	render_children(&r, doc, 0);
	render_footnotes(&r, doc);
	if (out->len > at)
		strbuf_addch(out, '\n');
	for (size_t i = 0; i < r.nnotes; i++)
		free(r.notes[i].label);
	free(r.notes);
	free(r.refs);
	pcre2_match_data_free(r.md);
	return 0;
}
