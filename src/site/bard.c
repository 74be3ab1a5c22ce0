/* bard: ProseMirror JSON to HTML as tiptap-php renders it; see bard.h. */
#include "autoconfig.h"

#include "site/bard.h"

#include <string.h>

#include "lib/htmlesc.h"
#include "lib/php.h"

/* Deeper nodes are not rendered (the YAML reader nests no deeper). */
#define MAX_DEPTH 64
/* No type Statamic knows is longer; a longer one is no known type. */
#define MAX_TYPE 32
/* No node or mark has more attributes. */
#define MAX_ATTRS 6
/* Marks open at once in one run of siblings; more are not opened. */
#define MAX_OPEN_MARKS 32

/* --- types --- */

/* Laravel's Str::camel, as Bard::convertLegacyTiptap applies it to every
 * type: words split at '-', '_' and ' ', each capitalized, joined, the
 * first letter lower case ("hard_break" is "hardBreak"). "" when the
 * type is no string or too long to be one Statamic knows. */
static void camel_type(value_t node, char out[MAX_TYPE])
{
	value_t type = value_map_getz(node, "type");
	size_t len, n = 0;
	const char *s = value_str(type, &len);
	bool word_start = true;
	out[0] = '\0';
	if (value_type(type) != VALUE_STRING)
		return;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '-' || c == '_' || c == ' ') {
			word_start = true;
			continue;
		}
		if (n + 1 >= MAX_TYPE) {
			out[0] = '\0';
			return;
		}
		out[n++] = word_start && c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
		word_start = false;
	}
	out[n] = '\0';
	if (out[0] >= 'A' && out[0] <= 'Z')
		out[0] = (char)(out[0] - 'A' + 'a');
}

enum node_kind {
	N_OTHER,
	N_PARAGRAPH,
	N_HEADING,
	N_BLOCKQUOTE,
	N_BULLET_LIST,
	N_ORDERED_LIST,
	N_LIST_ITEM,
	N_CODE_BLOCK,
	N_HARD_BREAK,
	N_HORIZONTAL_RULE,
	N_IMAGE,
	N_TABLE,
	N_TABLE_ROW,
	N_TABLE_CELL,
	N_TABLE_HEADER,
	N_SET,
};

/* The nodes Statamic registers and the element each opens (NULL: none of
 * its own, or one made by hand below). */
static const struct {
	const char *type, *tag;
	enum node_kind kind;
} node_types[] = {
	{"paragraph", "p", N_PARAGRAPH},
	{"heading", NULL, N_HEADING},
	{"blockquote", "blockquote", N_BLOCKQUOTE},
	{"bulletList", "ul", N_BULLET_LIST},
	{"orderedList", "ol", N_ORDERED_LIST},
	{"listItem", "li", N_LIST_ITEM},
	{"codeBlock", NULL, N_CODE_BLOCK},
	{"hardBreak", "br", N_HARD_BREAK},
	{"horizontalRule", "hr", N_HORIZONTAL_RULE},
	{"image", "img", N_IMAGE},
	{"table", NULL, N_TABLE},
	{"tableRow", "tr", N_TABLE_ROW},
	{"tableCell", "td", N_TABLE_CELL},
	{"tableHeader", "th", N_TABLE_HEADER},
	{"set", NULL, N_SET},
};
#define NNODE_TYPES (sizeof node_types / sizeof node_types[0])

/* The index of v's camelized type in a table of n entries, size bytes
 * each, that each begin with their type's name (node_types, mark_types);
 * n when it is none of them. */
static size_t type_index(value_t v, const void *table, size_t n, size_t size)
{
	char type[MAX_TYPE];
	camel_type(v, type);
	for (size_t i = 0; i < n; i++)
		if (strcmp(type, *(const char *const *)((const char *)table + i * size)) == 0)
			return i;
	return n;
}

/* The index in node_types of node's type, or NNODE_TYPES. */
static size_t node_type(value_t node)
{
	return type_index(node, node_types, NNODE_TYPES, sizeof node_types[0]);
}

enum { MARK_LINK = 8, NMARK_TYPES };

/* The marks Statamic registers and their elements. */
static const struct {
	const char *type, *tag;
} mark_types[NMARK_TYPES] = {
	{"bold", "strong"},     {"italic", "em"},          {"underline", "u"},   {"strike", "s"},
	{"code", "code"},       {"subscript", "sub"},      {"superscript", "sup"}, {"small", "small"},
	[MARK_LINK] = {"link", "a"},
};

/* The index in mark_types of mark's type, or -1 for one Statamic does
 * not register. */
static int mark_type(value_t mark)
{
	size_t i = type_index(mark, mark_types, NMARK_TYPES, sizeof mark_types[0]);
	return i < NMARK_TYPES ? (int)i : -1;
}

bool bard_is_set(value_t node)
{
	return node_type(node) < NNODE_TYPES && node_types[node_type(node)].kind == N_SET;
}

/* --- PHP's == between two marks (json_decode'd objects) --- */

static bool loose_equal(value_t a, value_t b, int depth);

static bool loose_equal_maps(value_t a, value_t b, int depth)
{
	if (value_count(a) != value_count(b))
		return false;
	struct value_iter it;
	value_iter_init(&it, a);
	while (value_iter_next(&it)) {
		value_t other = value_map_get(b, it.key, it.key_len);
		if (value_is_missing(other) || !loose_equal(it.value, other, depth + 1))
			return false;
	}
	return true;
}

static bool loose_equal_arrays(value_t a, value_t b, int depth)
{
	uint32_t n = value_count(a);
	if (n != value_count(b))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!loose_equal(value_array_get(a, i), value_array_get(b, i), depth + 1))
			return false;
	return true;
}

/* PHP 8's ==: containers item by item (objects whatever their keys'
 * order), booleans and null by truth, numbers and numeric strings by
 * value, anything else as strings. */
static bool loose_equal(value_t a, value_t b, int depth)
{
	enum value_type ta = value_type(a), tb = value_type(b);
	double x, y;
	if (depth > MAX_DEPTH)
		return false;
	if (ta == VALUE_MAP || tb == VALUE_MAP)
		return ta == tb && loose_equal_maps(a, b, depth);
	if (ta == VALUE_ARRAY || tb == VALUE_ARRAY)
		return ta == tb && loose_equal_arrays(a, b, depth);
	if (value_is_bool(a) || value_is_bool(b) ||
	    ((value_is_null(a) || value_is_null(b)) && ta != VALUE_STRING && tb != VALUE_STRING))
		return php_truthy(a) == php_truthy(b);
	if (php_numeric(a, &x) && php_numeric(b, &y))
		return x == y;
	struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
	php_string(a, &sa);
	php_string(b, &sb);
	bool same = strcmp(strbuf_str(&sa), strbuf_str(&sb)) == 0;
	strbuf_release(&sa);
	strbuf_release(&sb);
	return same;
}

/* --- attributes --- */

/* An element's attributes in order, as tiptap-php gathers them. */
struct attrs {
	const char *name[MAX_ATTRS];
	struct strbuf value[MAX_ATTRS];
	bool present[MAX_ATTRS];
	size_t n;
	bool has_zero; /* an integer 0 among them: tiptap-php then writes none */
};

static void attrs_release(struct attrs *a)
{
	for (size_t i = 0; i < a->n; i++)
		strbuf_release(&a->value[i]);
}

/* The slot of name, made at the end when new (PHP arrays keep a key where
 * it was first set). */
static size_t attrs_slot(struct attrs *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->name[i], name) == 0)
			return i;
	a->name[a->n] = name;
	a->value[a->n] = (struct strbuf)STRBUF_INIT;
	a->present[a->n] = false;
	return a->n++;
}

static void attrs_set_str(struct attrs *a, const char *name, const char *s, size_t len)
{
	size_t i = attrs_slot(a, name);
	strbuf_reset(&a->value[i]);
	strbuf_add(&a->value[i], s, len);
	a->present[i] = true;
}

/* name = v as PHP makes it a string for an attribute: true "true", false
 * "false", a number or a string as (string); null leaves it unset, and a
 * list or a map (htmlentities() refuses them) too. */
static void attrs_set(struct attrs *a, const char *name, value_t v)
{
	enum value_type t = value_type(v);
	if (value_is_null(v) || t == VALUE_ARRAY || t == VALUE_MAP)
		return;
	if (t == VALUE_INT && value_int(v) == 0)
		a->has_zero = true;
	if (value_is_bool(v)) {
		attrs_set_str(a, name, STR_LEN(value_bool(v) ? "true" : "false"));
		return;
	}
	struct strbuf s = STRBUF_INIT;
	php_string(v, &s);
	attrs_set_str(a, name, strbuf_str(&s), s.len);
	strbuf_release(&s);
}

/* HTML::renderAttributes: the attributes that are not "" or "0", each
 * ` name="value"` with the value through htmlentities(). */
static void attrs_write(const struct attrs *a, struct strbuf *out)
{
	if (a->has_zero)
		return;
	for (size_t i = 0; i < a->n; i++) {
		const struct strbuf *v = &a->value[i];
		if (!a->present[i] || v->len == 0 || strcmp(strbuf_str(v), "0") == 0)
			continue;
		strbuf_addf(out, " %s=\"", a->name[i]);
		htmlesc_entities(strbuf_str(v), v->len, out);
		strbuf_addch(out, '"');
	}
}

/* --- one rendering --- */

struct render {
	const struct statamic_links *links;
	struct strbuf *out;
	bard_set_fn *on_set;
	void *set_ctx;
};

/* The marks open in one run of siblings, innermost last. */
struct mark_stack {
	value_t mark[MAX_OPEN_MARKS];
	size_t n;
};

/* --- links and images --- */

/* Tiptap's isAllowedUri with Statamic's protocols: "" and anything not
 * starting with a letter, a listed protocol, or a word of letters,
 * digits, '+', '.' and '-' not followed by ':' (that is, no other
 * scheme), once the blanks it may hide are taken out. */
static bool allowed_uri(const char *uri)
{
	static const char *const protocols[] = {"http",   "https", "ftp", "ftps", "mailto",
	                                        "tel",    "callto", "sms", "cid",  "xmpp",
	                                        "statamic", "entry", "asset"};
	struct strbuf s = STRBUF_INIT;
	bool ok;
	if (!*uri)
		return true;
	for (const unsigned char *p = (const unsigned char *)uri; *p;) {
		unsigned cp;
		size_t n = htmlesc_utf8(p, strlen((const char *)p), &cp);
		bool blank = n && (cp <= 0x20 || cp == 0xa0 || cp == 0x1680 || cp == 0x180e ||
		                   (cp >= 0x2000 && cp <= 0x2029) || cp == 0x205f || cp == 0x3000);
		if (!blank)
			strbuf_add(&s, (const char *)p, n ? n : 1);
		p += n ? n : 1;
	}
	const char *t = strbuf_str(&s);
	size_t run = strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");
	ok = *t && !((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z'));
	for (size_t i = 0; !ok && i < sizeof protocols / sizeof protocols[0]; i++) {
		size_t n = strlen(protocols[i]);
		ok = strncasecmp(t, protocols[i], n) == 0 && t[n] == ':';
	}
	/* [a-z0-9+.-]+ then a character that is no letter, '+', '.', '-' or
	 * ':': the whole word and what follows it, or (backtracking) a shorter
	 * one followed by one of its digits. */
	if (!ok && run > 0) {
		ok = t[run] != ':';
		for (size_t i = 1; !ok && i < run; i++)
			ok = t[i] >= '0' && t[i] <= '9';
	}
	strbuf_release(&s);
	return ok;
}

/* LinkMark's href: statamic:// through the caller's look-up ("" when it
 * finds nothing), anything else as it is; "" when not an allowed URI. */
static void link_href(const struct render *r, value_t href, struct attrs *a)
{
	struct strbuf s = STRBUF_INIT;
	php_string(href, &s);
	const char *h = strbuf_str(&s);
	if (strncmp(h, "statamic://", 11) == 0 && r->links) {
		struct strbuf url = STRBUF_INIT;
		if (!r->links->url(h + 11, &url, r->links->ctx))
			strbuf_reset(&url);
		strbuf_release(&s);
		s = url;
	}
	if (!allowed_uri(strbuf_str(&s)))
		strbuf_reset(&s);
	attrs_set_str(a, "href", strbuf_str(&s), s.len);
	strbuf_release(&s);
}

/* LinkMark: Statamic's default attributes rel "" and target "_blank",
 * then href, target, title and rel from the mark (target and rel "" when
 * it has none). */
static void link_attrs(const struct render *r, value_t mark, struct attrs *a)
{
	value_t attrs = value_map_getz(mark, "attrs");
	value_t href = value_map_getz(attrs, "href");
	value_t target = value_map_getz(attrs, "target"), rel = value_map_getz(attrs, "rel");
	attrs_set_str(a, "rel", STR_LEN(""));
	attrs_set_str(a, "target", STR_LEN("_blank"));
	if (!value_is_null(href))
		link_href(r, href, a);
	if (value_is_null(target))
		attrs_set_str(a, "target", STR_LEN(""));
	else
		attrs_set(a, "target", target);
	attrs_set(a, "title", value_map_getz(attrs, "title"));
	if (value_is_null(rel))
		attrs_set_str(a, "rel", STR_LEN(""));
	else
		attrs_set(a, "rel", rel);
}

/* ImageNode: src, and alt; an "asset::c::p" src is that asset's url, and
 * its alt the asset's when the node has none. */
static void image_attrs(const struct render *r, value_t node, struct attrs *a)
{
	value_t attrs = value_map_getz(node, "attrs");
	value_t src = value_map_getz(attrs, "src"), alt = value_map_getz(attrs, "alt");
	if (value_is_null(src))
		return;
	size_t len;
	const char *s = value_str(src, &len);
	if (value_type(src) != VALUE_STRING || strncmp(s, "asset::", 7) != 0) {
		attrs_set(a, "src", src);
		attrs_set(a, "alt", alt);
		return;
	}
	struct strbuf got = STRBUF_INIT;
	if (r->links && r->links->url(s, &got, r->links->ctx))
		attrs_set_str(a, "src", strbuf_str(&got), got.len);
	strbuf_reset(&got);
	if (!value_is_null(alt))
		attrs_set(a, "alt", alt);
	else if (r->links && r->links->alt(s + 7, &got, r->links->ctx))
		attrs_set_str(a, "alt", strbuf_str(&got), got.len);
	strbuf_release(&got);
}

/* --- marks --- */

static void open_mark(const struct render *r, value_t mark)
{
	int type = mark_type(mark);
	if (type != MARK_LINK) {
		strbuf_addf(r->out, "<%s>", mark_types[type].tag);
		return;
	}
	struct attrs a = {0};
	link_attrs(r, mark, &a);
	strbuf_addstr(r->out, "<a");
	attrs_write(&a, r->out);
	strbuf_addch(r->out, '>');
	attrs_release(&a);
}

static void close_mark(const struct render *r, value_t mark)
{
	strbuf_addf(r->out, "</%s>", mark_types[mark_type(mark)].tag);
}

/* The marks a node carries; none in a top-level code block (tiptap-php
 * strips them there). */
static value_t marks_of(value_t node, bool no_marks)
{
	return no_marks ? VALUE_MISSING : value_map_getz(node, "marks");
}

/* Whether other (a sibling, or missing) lacks mark: tiptap-php opens a
 * mark the previous node lacks, and closes one the next node lacks. */
static bool lacks_mark(value_t other, value_t mark, bool no_marks)
{
	struct value_iter it;
	value_iter_init(&it, marks_of(other, no_marks));
	while (value_iter_next(&it))
		if (loose_equal(it.value, mark, 0))
			return false;
	return true;
}

/* closeAndReopenTags: closes open marks from the innermost out until
 * every mark to close is closed, then reopens those closed on the way
 * that were to stay open. */
static void close_marks(const struct render *r, value_t *to_close, size_t nclose,
                        struct mark_stack *stack)
{
	value_t reopen[MAX_OPEN_MARKS];
	size_t nreopen = 0;
	while (nclose > 0 && stack->n > 0) {
		value_t top = stack->mark[--stack->n];
		bool listed = false;
		close_mark(r, top);
		for (size_t i = 0; i < nclose && !listed; i++)
			listed = loose_equal(to_close[i], top, 0);
		if (!listed) {
			reopen[nreopen++] = top;
			continue;
		}
		/* Every mark of its type leaves the list (array_udiff by type). */
		size_t kept = 0;
		for (size_t i = 0; i < nclose; i++)
			if (mark_type(to_close[i]) != mark_type(top))
				to_close[kept++] = to_close[i];
		nclose = kept;
	}
	while (nreopen > 0) {
		value_t mark = reopen[--nreopen];
		open_mark(r, mark);
		stack->mark[stack->n++] = mark;
	}
}

/* --- nodes --- */

/* TextAlign: style="text-align: x;" unless x is "left" (the default). */
static void text_align(value_t node, struct attrs *a)
{
	value_t align = value_map_getz(value_map_getz(node, "attrs"), "textAlign");
	if (value_is_null(align) ||
	    (value_type(align) == VALUE_STRING && strcmp(value_str(align, NULL), "left") == 0))
		return;
	/* HTML::mergeAttributes' style: "; " + value without trailing ';' +
	 * "; ", trimmed, then without the leading "; ". */
	struct strbuf v = STRBUF_INIT, style = STRBUF_INIT;
	strbuf_addstr(&v, "text-align: ");
	php_string(align, &v);
	while (v.len && v.ptr[v.len - 1] == ';')
		v.len--;
	strbuf_addstr(&style, "; ");
	strbuf_add(&style, strbuf_str(&v), v.len);
	strbuf_addstr(&style, "; ");
	const char *s = strbuf_str(&style);
	size_t len = style.len;
	while (len && strchr(" \t\n\r\v", s[len - 1]) && s[len - 1])
		len--;
	while (len && (*s == ';' || *s == ' '))
		s++, len--;
	attrs_set_str(a, "style", s, len);
	strbuf_release(&v);
	strbuf_release(&style);
}

/* Heading's level: 1 to 6 as PHP's in_array() finds it, else 1. */
static int heading_level(value_t node)
{
	double level;
	if (!php_numeric(value_map_getz(value_map_getz(node, "attrs"), "level"), &level) ||
	    level != (int)level || level < 1 || level > 6)
		return 1;
	return (int)level;
}

/* TableCell's rowspan, colspan and colwidth (data-colwidth, joined). */
static void cell_attrs(value_t node, struct attrs *a)
{
	value_t attrs = value_map_getz(node, "attrs");
	value_t width = value_map_getz(attrs, "colwidth");
	attrs_set(a, "rowspan", value_map_getz(attrs, "rowspan"));
	attrs_set(a, "colspan", value_map_getz(attrs, "colspan"));
	if (value_type(width) != VALUE_ARRAY)
		return;
	struct strbuf joined = STRBUF_INIT;
	for (uint32_t i = 0; i < value_count(width); i++) {
		if (i > 0)
			strbuf_addch(&joined, ',');
		php_string(value_array_get(width, i), &joined);
	}
	attrs_set_str(a, "data-colwidth", strbuf_str(&joined), joined.len);
	strbuf_release(&joined);
}

/* Writes the start tag of a registered node. */
static void open_node(const struct render *r, size_t type, value_t node)
{
	struct attrs a = {0};
	const char *tag = node_types[type].tag;
	switch (node_types[type].kind) {
	case N_PARAGRAPH: text_align(node, &a); break;
	case N_HEADING:
		text_align(node, &a);
		strbuf_addf(r->out, "<h%d", heading_level(node));
		attrs_write(&a, r->out);
		strbuf_addch(r->out, '>');
		attrs_release(&a);
		return;
	case N_ORDERED_LIST: {
		value_t start = value_map_getz(value_map_getz(node, "attrs"), "start");
		if (php_truthy(start))
			attrs_set(&a, "start", start);
		break;
	}
	case N_CODE_BLOCK: {
		value_t lang = value_map_getz(value_map_getz(node, "attrs"), "language");
		strbuf_addstr(r->out, "<pre><code");
		if (php_truthy(lang)) {
			struct strbuf class = STRBUF_INIT;
			strbuf_addstr(&class, "language-");
			php_string(lang, &class);
			attrs_set_str(&a, "class", strbuf_str(&class), class.len);
			strbuf_release(&class);
		}
		attrs_write(&a, r->out);
		strbuf_addch(r->out, '>');
		attrs_release(&a);
		return;
	}
	case N_TABLE: strbuf_addstr(r->out, "<table><tbody>"); return;
	case N_TABLE_CELL:
	case N_TABLE_HEADER: cell_attrs(node, &a); break;
	case N_IMAGE: image_attrs(r, node, &a); break;
	default: break;
	}
	if (tag) {
		strbuf_addf(r->out, "<%s", tag);
		attrs_write(&a, r->out);
		strbuf_addch(r->out, '>');
	}
	attrs_release(&a);
}

/* The end tag of a registered node (none for br, hr and img). */
static void close_node(const struct render *r, size_t type, value_t node)
{
	switch (node_types[type].kind) {
	case N_HEADING: strbuf_addf(r->out, "</h%d>", heading_level(node)); break;
	case N_CODE_BLOCK: strbuf_addstr(r->out, "</code></pre>"); break;
	case N_TABLE: strbuf_addstr(r->out, "</tbody></table>"); break;
	case N_HARD_BREAK:
	case N_HORIZONTAL_RULE:
	case N_IMAGE:
	case N_SET: break;
	default:
		if (node_types[type].tag)
			strbuf_addf(r->out, "</%s>", node_types[type].tag);
	}
}

static void render_nodes(const struct render *r, value_t nodes, bool no_marks, int depth);

/* DOMSerializer::renderNode: the node's marks that open here, its start
 * tag, its content (or its text), its end tag, then the marks that close
 * here (closing and reopening any opened inside them). */
static void render_node(const struct render *r, value_t node, value_t prev, value_t next,
                        struct mark_stack *stack, bool no_marks, int depth)
{
	if (depth > MAX_DEPTH || value_type(node) != VALUE_MAP)
		return;
	struct value_iter it;
	value_iter_init(&it, marks_of(node, no_marks));
	while (value_iter_next(&it)) {
		if (mark_type(it.value) < 0 || !lacks_mark(prev, it.value, no_marks) ||
		    stack->n == MAX_OPEN_MARKS)
			continue;
		open_mark(r, it.value);
		stack->mark[stack->n++] = it.value;
	}
	size_t type = node_type(node);
	if (type < NNODE_TYPES)
		open_node(r, type, node);
	value_t content = value_map_getz(node, "content"), text = value_map_getz(node, "text");
	if (type < NNODE_TYPES && node_types[type].kind == N_SET) {
		/* a set below the top: Statamic has no place for it */
	} else if (!value_is_null(content)) {
		render_nodes(r, content, no_marks, depth + 1);
	} else if (!value_is_null(text)) {
		struct strbuf s = STRBUF_INIT;
		php_string(text, &s);
		htmlesc_special(strbuf_str(&s), s.len, r->out);
		strbuf_release(&s);
	}
	if (type < NNODE_TYPES)
		close_node(r, type, node);
	value_t to_close[MAX_OPEN_MARKS];
	size_t nclose = 0;
	value_t marks = marks_of(node, no_marks);
	for (uint32_t i = value_count(marks); i-- > 0 && nclose < MAX_OPEN_MARKS;) {
		value_t mark = value_array_get(marks, i);
		if (mark_type(mark) >= 0 && lacks_mark(next, mark, no_marks))
			to_close[nclose++] = mark;
	}
	close_marks(r, to_close, nclose, stack);
}

/* Siblings, each knowing its neighbours, sharing one mark stack. */
static void render_nodes(const struct render *r, value_t nodes, bool no_marks, int depth)
{
	struct mark_stack stack = {.n = 0};
	uint32_t n = value_type(nodes) == VALUE_ARRAY ? value_count(nodes) : 0;
	for (uint32_t i = 0; i < n; i++)
		render_node(r, value_array_get(nodes, i), i ? value_array_get(nodes, i - 1) : VALUE_MISSING,
		            value_array_get(nodes, i + 1), &stack, no_marks, depth);
}

/* The top level: sets go to the caller; a code block loses its marks
 * (tiptap-php's Schema::apply strips them from a top-level node whose
 * type allows none). */
static void render_top(const struct render *r, value_t nodes)
{
	struct mark_stack stack = {.n = 0};
	uint32_t n = value_count(nodes);
	for (uint32_t i = 0; i < n; i++) {
		value_t node = value_array_get(nodes, i);
		if (bard_is_set(node)) {
			if (r->on_set)
				r->on_set(node, r->out, r->set_ctx);
			continue;
		}
		size_t type = node_type(node);
		bool no_marks = type < NNODE_TYPES && node_types[type].kind == N_CODE_BLOCK;
		render_node(r, node, i ? value_array_get(nodes, i - 1) : VALUE_MISSING,
		            value_array_get(nodes, i + 1), &stack, no_marks, 0);
	}
}

void bard_render(value_t nodes, const struct statamic_links *links, bard_set_fn *on_set, void *set_ctx,
                 struct strbuf *out)
{
	struct render r = {links, out, on_set, set_ctx};
	if (value_type(nodes) == VALUE_MAP) {
		struct mark_stack stack = {.n = 0};
		size_t type = node_type(nodes);
		render_node(&r, nodes, VALUE_MISSING, VALUE_MISSING, &stack,
		            type < NNODE_TYPES && node_types[type].kind == N_CODE_BLOCK, 0);
		return;
	}
	if (value_type(nodes) == VALUE_ARRAY)
		render_top(&r, nodes);
}
