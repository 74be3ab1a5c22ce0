/* md_attrs: league/commonmark's Attributes extension; see md_attrs.h. */
#include "autoconfig.h"

#include "site/md_attrs.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/htmlesc.h"

/* league's AttributesHelper::ATTRIBUTE_LIST and SINGLE_ATTRIBUTE, as PHP
 * runs them (PCRE, bytes, case-insensitive). */
#define SINGLE                                                                                     \
	"\\s*([.]-?[_a-z][^\\s.}]*|[#][^\\s}]+|[a-z_:][a-z0-9:._-]*"                              \
	"(?:\\s*=\\s*(?:[^\"'=<>`\\x00-\\x20]+|'[^']*'|\"[^\"]*\")))\\s*"
static const char list_pattern[] = "\\{:?(" SINGLE ")+\\}";
static const char single_pattern[] = SINGLE;

/* --- an element's attributes --- */

static size_t attrs_find(const struct md_attrs *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i].name, name) == 0)
			return i;
	return a->n;
}

void md_attrs_set(struct md_attrs *a, const char *name, const char *value, size_t len)
{
	size_t i = attrs_find(a, name);
	if (i == a->n) {
		if (a->n == a->cap) {
			a->cap = a->cap ? 2 * a->cap : 4;
			a->items = xrealloc(a->items, a->cap * sizeof *a->items);
		}
		a->items[a->n++] = (struct md_attr){xstrdup(name), NULL};
	}
	free(a->items[i].value);
	a->items[i].value = value ? xstrndup(value, len) : NULL;
}

const char *md_attrs_get(const struct md_attrs *a, const char *name)
{
	size_t i = attrs_find(a, name);
	return i < a->n ? a->items[i].value : NULL;
}

void md_attrs_append_class(struct md_attrs *a, const char *word)
{
	const char *old = md_attrs_get(a, "class");
	struct strbuf s = STRBUF_INIT;
	strbuf_addf(&s, "%s%s%s", old ? old : "", old ? " " : "", word);
	md_attrs_set(a, "class", strbuf_str(&s), s.len);
	strbuf_release(&s);
}

void md_attrs_write(const struct md_attrs *a, struct strbuf *out)
{
	for (size_t i = 0; a && i < a->n; i++) {
		strbuf_addf(out, " %s", a->items[i].name);
		if (!a->items[i].value)
			continue;
		strbuf_addstr(out, "=\"");
		htmlesc_xml(a->items[i].value, strlen(a->items[i].value), out);
		strbuf_addch(out, '"');
	}
}

void md_attrs_free(struct md_attrs *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->items[i].name);
		free(a->items[i].value);
	}
	free(a->items);
	*a = (struct md_attrs){0};
}

void md_attrs_copy(struct md_attrs *out, const struct md_attrs *a)
{
	md_attrs_free(out);
	for (size_t i = 0; a && i < a->n; i++) {
		const char *v = a->items[i].value;
		md_attrs_set(out, a->items[i].name, v, v ? strlen(v) : 0);
	}
}


/* Adds class words, blanks between them ("0" and "" are no word: PHP's
 * array_filter drops them). */
static void add_classes(struct md_attrs *a, const char *words, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i + n < len && words[i + n] != ' ')
			n++;
		if (n > 0 && !(n == 1 && words[i] == '0')) {
			char *w = xstrndup(words + i, n);
			md_attrs_append_class(a, w);
			free(w);
		}
		i += n + 1;
	}
}

/* AttributesHelper::mergeAttributes: b over a, classes of both joined
 * (class where a first had it, or first of all). */
static void merge_into(struct md_attrs *out, const struct md_attrs *a, const struct md_attrs *b)
{
	const struct md_attrs *args[2] = {a, b};
	struct md_attrs merged = {0};
	for (int k = 0; k < 2; k++) {
		const char *cls = args[k] ? md_attrs_get(args[k], "class") : NULL;
		if (cls)
			add_classes(&merged, cls, strlen(cls));
		for (size_t i = 0; args[k] && i < args[k]->n; i++) {
			const struct md_attr *it = &args[k]->items[i];
			if (strcmp(it->name, "class") != 0)
				md_attrs_set(&merged, it->name, it->value, it->value ? strlen(it->value) : 0);
		}
	}
	md_attrs_free(out);
	*out = merged;
}

/* --- one pass --- */

enum target { TARGET_NEXT, TARGET_PREVIOUS, TARGET_PARENT };

/* A node's user data while the pass runs and after: the attributes an
 * element was given; or, in a marker (a node standing for a list found
 * in the text, as league's Attributes and AttributesInline nodes do: an
 * empty text node inline, a custom block between blocks), the list and
 * where it goes, until it is given away. */
struct md_node {
	struct md_attrs attrs;
	bool marker;
	bool block_like; /* inline, after a space or first in its block's text */
	enum target target;
};

const struct md_attrs *md_attrs_of(cmark_node *node)
{
	const struct md_node *data = cmark_node_get_user_data(node);
	return data && !data->marker ? &data->attrs : NULL;
}

struct apply {
	struct md_attrs_pass *pass;
	const char *src;
	size_t len;
	const pcre2_code *list, *single;
	pcre2_match_data *md;
	size_t nmarkers; /* markers made */
};

/* New user data for node, which the pass owns. */
static struct md_node *owned_data(struct md_attrs_pass *pass, cmark_node *node)
{
	if (pass->n == pass->cap) {
		pass->cap = pass->cap ? 2 * pass->cap : 8;
		pass->owned = xrealloc(pass->owned, pass->cap * sizeof *pass->owned);
	}
	struct md_node *data = pass->owned[pass->n++] = xcalloc(1, sizeof *data);
	cmark_node_set_user_data(node, data);
	return data;
}

void md_attrs_release(struct md_attrs_pass *pass)
{
	for (size_t i = 0; i < pass->n; i++) {
		md_attrs_free(&pass->owned[i]->attrs);
		free(pass->owned[i]);
	}
	free(pass->owned);
	*pass = (struct md_attrs_pass){0};
}

/* The length of the attribute list at s[at] ('{'), or 0 when there is
 * none there. */
static size_t list_at(struct apply *c, const char *s, size_t len, size_t at)
{
	if (s[at] != '{' ||
	    pcre2_match(c->list, (PCRE2_SPTR)s, len, at, PCRE2_ANCHORED, c->md, NULL) < 0)
		return 0;
	return pcre2_get_ovector_pointer(c->md)[1] - at;
}

/* PHP's trim(). */
static void php_trim(const char **s, size_t *len)
{
	while (*len && strchr(" \t\n\r\v", **s) && **s)
		(*s)++, (*len)--;
	while (*len && (strchr(" \t\n\r\v", (*s)[*len - 1]) && (*s)[*len - 1]))
		(*len)--;
}

/* One name=value of a list, as parseAttributes reads it: true when the
 * value is just true (a bare attribute), quotes taken off a quoted one
 * (when no blank stands before it), class split into words. */
static void parse_pair(struct md_attrs *a, const char *s, size_t len)
{
	/* Blanks trim() leaves (a form feed) may hide the '.' or '#' of a
	 * class or an id: then a name without '=' (PHP warns, and its value
	 * is ""). */
	const char *eq = memchr(s, '=', len);
	const char *name = s, *value = eq ? eq + 1 : s + len;
	size_t nlen = eq ? (size_t)(eq - s) : len, vlen = eq ? len - nlen - 1 : 0;
	if (vlen == 4 && memcmp(value, "true", 4) == 0) {
		char *n = xstrndup(name, nlen);
		md_attrs_set(a, n, NULL, 0);
		free(n);
		return;
	}
	if (vlen > 0 && ((value[0] == '"' && value[vlen - 1] == '"') ||
	                 (value[0] == '\'' && value[vlen - 1] == '\'' && vlen > 1))) {
		value++;
		vlen = vlen >= 2 ? vlen - 2 : 0;
	}
	php_trim(&name, &nlen);
	char *n = xstrndup(name, nlen);
	if (strcasecmp(n, "class") == 0) {
		php_trim(&value, &vlen);
		add_classes(a, value, vlen);
	} else {
		php_trim(&value, &vlen);
		md_attrs_set(a, n, value, vlen);
	}
	free(n);
}

/* parseAttributes: the list s[0..len) ("{...}") into a. */
static void parse_list(struct apply *c, const char *s, size_t len, struct md_attrs *a)
{
	const char *body = s + 1;
	size_t blen = len - 2;
	while (blen && *body == ':')
		body++, blen--;
	for (size_t at = 0; at < blen;) {
		if (pcre2_match(c->single, (PCRE2_SPTR)body, blen, at, PCRE2_ANCHORED, c->md, NULL) < 0)
			break;
		size_t end = pcre2_get_ovector_pointer(c->md)[1];
		const char *one = body + at;
		size_t n = end - at;
		php_trim(&one, &n);
		at = end;
		if (n == 0)
			break;
		if (one[0] == '#')
			md_attrs_set(a, "id", one + 1, n - 1);
		else if (one[0] == '.')
			add_classes(a, one + 1, n - 1);
		else
			parse_pair(a, one, n);
	}
}

/* A marker: a custom block (block), or an empty text node (inline, where
 * cmark-gfm takes no custom inline: table cells). */
static cmark_node *new_marker(struct apply *c, bool block, enum target target, bool block_like)
{
	cmark_node *node = cmark_node_new(block ? CMARK_NODE_CUSTOM_BLOCK : CMARK_NODE_TEXT);
	struct md_node *m = owned_data(c->pass, node);
	m->marker = true;
	m->target = target;
	m->block_like = block_like;
	if (!block)
		cmark_node_set_literal(node, "");
	c->nmarkers++;
	return node;
}

static struct md_node *marker_of(cmark_node *node)
{
	return cmark_node_get_user_data(node);
}

static bool is_marker(cmark_node *node)
{
	return node && marker_of(node) && marker_of(node)->marker;
}

static bool is_inline(cmark_node *node)
{
	return (cmark_node_get_type(node) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE;
}

/* --- lines of attributes (league's Attributes block) --- */

/* The n-th line (1-based) of the source, or NULL past its end. */
static const char *source_line(const struct apply *c, int n, size_t *len)
{
	const char *p = c->src, *end = c->src + c->len;
	for (int i = 1; i < n && p < end; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	if (n < 1 || p >= end)
		return NULL;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*len = nl ? (size_t)(nl - p) : (size_t)(end - p);
	return p;
}

/* No line there, or one of blanks (and the '>' of block quotes) only. */
static bool blank_line(const struct apply *c, int n)
{
	size_t len;
	const char *s = source_line(c, n, &len);
	for (size_t i = 0; s && i < len; i++)
		if (!strchr(" \t\r>", s[i]))
			return false;
	return true;
}

/* The whole line (one text node) is one attribute list, blanks aside. */
static bool attribute_line(struct apply *c, cmark_node *first, cmark_node *last)
{
	if (first != last || cmark_node_get_type(first) != CMARK_NODE_TEXT)
		return false;
	const char *s = cmark_node_get_literal(first);
	size_t len = strlen(s), at = strspn(s, " \t");
	size_t n = at < len ? list_at(c, s, len, at) : 0;
	return n > 0 && s[at + n + strspn(s + at + n, " \t")] == '\0';
}

static bool is_break(cmark_node *node)
{
	cmark_node_type t = cmark_node_get_type(node);
	return t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK;
}

/* Where a group of attribute lines goes. At the paragraph's end: the
 * next block when one starts on the very next line, else the block
 * before (the paragraph's lines before the group; or, when the group
 * starts the paragraph, the block right above it, or the container when
 * a blank line or nothing is above). */
static enum target group_target(struct apply *c, cmark_node *para, bool at_start, bool at_end)
{
	if (!at_end)
		return TARGET_NEXT;
	int after = cmark_node_get_end_line(para) + 1;
	cmark_node *next = cmark_node_next(para);
	if (!blank_line(c, after) && next && cmark_node_get_start_line(next) == after)
		return TARGET_NEXT;
	if (!at_start)
		return TARGET_PREVIOUS;
	/* league's block was the deepest one open above: the block right
	 * above; after a blank line, one a blank line leaves open (a list, an
	 * indented code block), else the container itself */
	cmark_node *prev = cmark_node_previous(para);
	if (!prev)
		return TARGET_PARENT;
	if (!blank_line(c, cmark_node_get_start_line(para) - 1))
		return TARGET_PREVIOUS;
	int len, offset;
	char fence;
	cmark_node_type t = cmark_node_get_type(prev);
	if (t == CMARK_NODE_LIST ||
	    (t == CMARK_NODE_CODE_BLOCK && !cmark_node_get_fenced(prev, &len, &offset, &fence)))
		return TARGET_PREVIOUS;
	return TARGET_PARENT;
}

/* Places a new block (a marker or a paragraph) after *pos, or before the
 * paragraph while nothing has been placed. */
static void place(cmark_node *para, cmark_node **pos, cmark_node *block)
{
	if (*pos)
		cmark_node_insert_after(*pos, block);
	else
		cmark_node_insert_before(para, block);
	*pos = block;
}

/* One line of a paragraph: its inline nodes, the break that ends it
 * (NULL for the last), and whether it is a list of attributes. */
struct line {
	cmark_node *first, *last, *brk;
	bool attrs;
};

/* The paragraph's lines, or 0 when it has none (or too many to care). */
static size_t paragraph_lines(struct apply *c, cmark_node *para, struct line **out)
{
	size_t n = 0, cap = 0;
	struct line *lines = NULL;
	cmark_node *k = cmark_node_first_child(para);
	while (k) {
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			lines = xrealloc(lines, cap * sizeof *lines);
		}
		struct line *l = &lines[n++];
		*l = (struct line){k, k, NULL, false};
		if (is_break(k)) { /* an empty line: no attributes there */
			k = cmark_node_next(k);
			continue;
		}
		while (cmark_node_next(k) && !is_break(cmark_node_next(k)))
			k = cmark_node_next(k);
		l->last = k;
		l->brk = cmark_node_next(k);
		l->attrs = attribute_line(c, l->first, l->last);
		k = l->brk ? cmark_node_next(l->brk) : NULL;
	}
	*out = lines;
	return n;
}

/* Moves a line's nodes to the end of p. */
static void move_line(const struct line *l, cmark_node *p)
{
	for (cmark_node *k = l->first, *next;; k = next) {
		next = cmark_node_next(k);
		cmark_node_append_child(p, k);
		if (k == l->last)
			break;
	}
}

/* Frees a line's nodes and its break. */
static void drop_line(const struct line *l)
{
	for (cmark_node *k = l->first, *next;; k = next) {
		next = cmark_node_next(k);
		bool last = k == l->last;
		cmark_node_free(k);
		if (last)
			break;
	}
	if (l->brk)
		cmark_node_free(l->brk);
}

/* Merges the line's list into the group's marker. */
static void add_line_list(struct apply *c, const struct line *l, cmark_node *group)
{
	const char *s = cmark_node_get_literal(l->first);
	size_t at = strspn(s, " \t"), len = list_at(c, s, strlen(s), at);
	struct md_attrs one = {0};
	parse_list(c, s + at, len, &one);
	merge_into(&marker_of(group)->attrs, &marker_of(group)->attrs, &one);
	md_attrs_free(&one);
}

/* A paragraph's lines of attributes become markers (league's Attributes
 * blocks) between paragraphs of its other lines. */
static void split_paragraph(struct apply *c, cmark_node *para)
{
	struct line *lines;
	size_t n = paragraph_lines(c, para, &lines);
	bool any = false;
	for (size_t i = 0; i < n; i++)
		any |= lines[i].attrs;
	cmark_node *pos = NULL, *text = NULL, *group = NULL;
	bool para_used = false;
	for (size_t i = 0; any && i < n; i++) {
		const struct line *l = &lines[i];
		if (l->attrs) {
			if (!group) {
				size_t end = i;
				while (end + 1 < n && lines[end + 1].attrs)
					end++;
				group = new_marker(c, true, group_target(c, para, !para_used, end + 1 == n),
				                   false);
				place(para, &pos, group);
			}
			add_line_list(c, l, group);
			drop_line(l);
			text = NULL;
			continue;
		}
		if (!text) {
			text = para_used ? cmark_node_new(CMARK_NODE_PARAGRAPH) : para;
			if (para_used)
				place(para, &pos, text);
			else
				pos = para;
			para_used = true;
		}
		move_line(l, text);
		if (l->brk && i + 1 < n && !lines[i + 1].attrs)
			cmark_node_append_child(text, l->brk);
		else if (l->brk)
			cmark_node_free(l->brk);
		group = NULL;
	}
	if (any && !para_used)
		cmark_node_free(para);
	free(lines);
}

/* --- lists in the text (league's AttributesInline) --- */

/* A text node holding s: a new one after pos, or pos itself made s. */
static cmark_node *text_after(cmark_node *pos, const char *s, size_t len)
{
	char *t = xstrndup(s, len);
	cmark_node *node = cmark_node_new(CMARK_NODE_TEXT);
	cmark_node_set_literal(node, t);
	cmark_node_insert_after(pos, node);
	free(t);
	return node;
}

/* Whether the list at literal[at] stands where league calls it a block's
 * (after a space, or first in its block's text) and the character before
 * it: ' ', '\0' for the start, or anything else. */
static char before_list(cmark_node *text, const char *s, size_t at)
{
	if (at > 0)
		return s[at - 1];
	cmark_node *prev = cmark_node_previous(text), *parent = cmark_node_parent(text);
	if (!prev && parent && !is_inline(parent))
		return '\0';
	return prev && is_break(prev) ? '\n' : 'x';
}

/* Cuts the lists out of one text node into markers of their own, with
 * the text between them in text nodes. */
static void split_text(struct apply *c, cmark_node *text)
{
	for (size_t at = 0;;) {
		const char *s = cmark_node_get_literal(text);
		size_t len = strlen(s), n = 0;
		while (at < len && !(n = list_at(c, s, len, at)))
			at++;
		if (at >= len)
			return;
		char before = before_list(text, s, at);
		bool block_like = before == ' ' || before == '\0';
		size_t keep = at, rest = at + n;
		if (before == ' ')
			while (keep > 0 && s[keep - 1] == ' ')
				keep--;
		if (before == '\0')
			rest += strspn(s + rest, " ");
		cmark_node *m = new_marker(c, false, TARGET_NEXT, block_like);
		parse_list(c, s + at, n, &marker_of(m)->attrs);
		cmark_node_insert_after(text, m);
		if (before == '\0' && rest == len && cmark_node_next(m) && is_break(cmark_node_next(m)))
			cmark_node_free(cmark_node_next(m)); /* one newline goes too */
		/* No empty text either side, as league makes none, but for the
		 * blanks before a list that it trims to nothing: that text stays,
		 * empty, and a list right after this one goes to it (and is lost),
		 * as in league. */
		cmark_node *after = rest < len ? text_after(m, s + rest, len - rest) : NULL;
		if (keep > 0 || (before == ' ' && at > 0)) {
			char *head = xstrndup(s, keep);
			cmark_node_set_literal(text, head);
			free(head);
		} else {
			cmark_node_free(text);
		}
		if (!after)
			return;
		text = after;
		at = 0;
	}
}

/* --- where each list goes (league's AttributesListener) --- */

static cmark_node *previous_of(cmark_node *node)
{
	if (!node)
		return NULL;
	if (cmark_node_get_type(node) == CMARK_NODE_CUSTOM_BLOCK) {
		if (marker_of(node)->target == TARGET_NEXT)
			return NULL;
		if (marker_of(node)->target == TARGET_PARENT)
			return cmark_node_parent(node);
	}
	return cmark_node_previous(node);
}

static cmark_node *next_of(cmark_node *node)
{
	if (!node)
		return NULL;
	if (cmark_node_get_type(node) == CMARK_NODE_CUSTOM_BLOCK &&
	    marker_of(node)->target != TARGET_NEXT)
		return NULL;
	return cmark_node_next(node);
}

/* findTargetAndDirection: the element a marker's list goes to, and
 * whether the list comes after it (suffix: its attributes win). */
static cmark_node *find_target(cmark_node *node, bool *suffix)
{
	bool inline_marker = cmark_node_get_type(node) != CMARK_NODE_CUSTOM_BLOCK;
	cmark_node *previous = node, *next = node;
	for (;;) {
		previous = previous_of(previous);
		next = next_of(next);
		if (!previous && !next) {
			*suffix = true;
			return cmark_node_parent(node);
		}
		if (inline_marker &&
		    (!previous || (is_inline(previous) && marker_of(node)->block_like)))
			continue;
		if (previous && !is_marker(previous)) {
			*suffix = true;
			return previous;
		}
		if (next && !is_marker(next)) {
			*suffix = false;
			return next;
		}
	}
}

/* A paragraph of a tight list gives its attributes to the list item. */
static cmark_node *tight_item(cmark_node *target)
{
	cmark_node *item = cmark_node_parent(target);
	cmark_node *list = item ? cmark_node_parent(item) : NULL;
	if (item && list && cmark_node_get_type(item) == CMARK_NODE_ITEM &&
	    cmark_node_get_type(list) == CMARK_NODE_LIST && cmark_node_get_list_tight(list))
		return item;
	return target;
}

/* filterAttributes without an allow-list: no event handler (on...). */
static void drop_handlers(struct md_attrs *a)
{
	size_t kept = 0;
	for (size_t i = 0; i < a->n; i++) {
		if (strncasecmp(a->items[i].name, "on", 2) == 0) {
			free(a->items[i].name);
			free(a->items[i].value);
		} else {
			a->items[kept++] = a->items[i];
		}
	}
	a->n = kept;
}

static void give_away(struct apply *c, cmark_node *node)
{
	bool suffix;
	cmark_node *target = find_target(node, &suffix);
	struct md_node *m = marker_of(node);
	if (target) {
		target = tight_item(target);
		struct md_node *own = cmark_node_get_user_data(target);
		if (!own)
			own = owned_data(c->pass, target);
		if (suffix)
			merge_into(&own->attrs, &own->attrs, &m->attrs);
		else
			merge_into(&own->attrs, &m->attrs, &own->attrs);
		drop_handlers(&own->attrs);
	}
	md_attrs_free(&m->attrs);
	cmark_node_free(node);
}

/* The nodes of doc of one kind (inline containers' text, or paragraphs),
 * in document order. */
static size_t collect(cmark_node *doc, cmark_node_type type, cmark_node ***out)
{
	cmark_iter *it = cmark_iter_new(doc);
	size_t n = 0, cap = 0;
	cmark_node **nodes = NULL;
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(node) != type)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			nodes = xrealloc(nodes, cap * sizeof *nodes);
		}
		nodes[n++] = node;
	}
	cmark_iter_free(it);
	*out = nodes;
	return n;
}


/* The pattern compiled (caseless), once per process: compiling cost more
 * than matching when every Markdown field of a million entries did it.
 * The code is never changed after, nor freed (NULL: it did not compile;
 * tried again next time). */
static const pcre2_code *compiled(pcre2_code **slot, const char *pattern)
{
	int err;
	PCRE2_SIZE off;
	if (!*slot)
		*slot = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_CASELESS, &err,
		                      &off, NULL);
	return *slot;
}

int md_attrs_apply(struct md_attrs_pass *pass, cmark_node *doc, const char *src, size_t len)
{
	static pcre2_code *list_code, *single_code;
	struct apply c = {pass, src, len, NULL, NULL, NULL, 0};
	c.list = compiled(&list_code, list_pattern);
	c.single = compiled(&single_code, single_pattern);
	c.md = c.list ? pcre2_match_data_create_from_pattern(c.list, NULL) : NULL;
	if (!c.list || !c.single || !c.md) {
		pcre2_match_data_free(c.md);
		return -1;
	}
	cmark_node **nodes;
	size_t n = collect(doc, CMARK_NODE_PARAGRAPH, &nodes);
	for (size_t i = 0; i < n; i++)
		split_paragraph(&c, nodes[i]);
	free(nodes);
	n = collect(doc, CMARK_NODE_TEXT, &nodes);
	for (size_t i = 0; i < n; i++)
		split_text(&c, nodes[i]);
	free(nodes);
	/* league gives each list away in document order */
	cmark_node **markers = xcalloc(c.nmarkers + 1, sizeof *markers);
	cmark_iter *it = cmark_iter_new(doc);
	size_t m = 0;
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		if (ev == CMARK_EVENT_ENTER && is_marker(cmark_iter_get_node(it)) && m < c.nmarkers)
			markers[m++] = cmark_iter_get_node(it);
	cmark_iter_free(it);
	for (size_t i = 0; i < m; i++)
		give_away(&c, markers[i]);
	free(markers);
	pcre2_match_data_free(c.md);
	return 0;
}
