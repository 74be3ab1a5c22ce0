/* bard: ProseMirror JSON to HTML; see bard.h. */
#include "autoconfig.h"

#include "site/bard.h"

#include <string.h>

#define MAX_DEPTH 64

static void escape_html(const char *s, size_t len, struct strbuf *out)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&#039;"); break;
		default: strbuf_addch(out, s[i]); break;
		}
	}
}

static bool type_is(value_t node, const char *type)
{
	return strcmp(value_str(value_map_getz(node, "type"), NULL), type) == 0;
}

static void attribute_text(const char *name, const char *s, size_t len, struct strbuf *out)
{
	if (len) {
		strbuf_addf(out, " %s=\"", name);
		escape_html(s, len, out);
		strbuf_addch(out, '"');
	}
}

static void attribute(const char *name, value_t v, struct strbuf *out)
{
	size_t len;
	const char *s = value_str(v, &len);
	if (value_type(v) == VALUE_INT) {
		strbuf_addf(out, " %s=\"%lld\"", name, (long long)value_int(v));
	} else if (len) {
		strbuf_addf(out, " %s=\"", name);
		escape_html(s, len, out);
		strbuf_addch(out, '"');
	}
}

static void href_attribute(value_t href, const struct bard_links *links, struct strbuf *out)
{
	if (!links || value_type(href) != VALUE_STRING) {
		attribute("href", href, out);
		return;
	}
	struct strbuf resolved = STRBUF_INIT;
	links->resolve(value_str(href, NULL), &resolved, links->ctx);
	attribute_text("href", resolved.ptr ? resolved.ptr : "", resolved.len, out);
	strbuf_release(&resolved);
}

/* Marks open in order and close in reverse. */
static void mark_tag(value_t mark, bool open, const struct bard_links *links, struct strbuf *out)
{
	static const struct {
		const char *type, *tag;
	} simple[] = {
		{"bold", "strong"}, {"italic", "em"}, {"underline", "u"}, {"strike", "s"},
		{"code", "code"}, {"subscript", "sub"}, {"superscript", "sup"}, {"small", "small"},
	};
	for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++) {
		if (type_is(mark, simple[i].type)) {
			strbuf_addf(out, open ? "<%s>" : "</%s>", simple[i].tag);
			return;
		}
	}
	if (type_is(mark, "link")) {
		if (!open) {
			strbuf_addstr(out, "</a>");
			return;
		}
		value_t attrs = value_map_getz(mark, "attrs");
		strbuf_addstr(out, "<a");
		href_attribute(value_map_getz(attrs, "href"), links, out);
		attribute("rel", value_map_getz(attrs, "rel"), out);
		attribute("target", value_map_getz(attrs, "target"), out);
		attribute("title", value_map_getz(attrs, "title"), out);
		strbuf_addch(out, '>');
	}
}

static void render_text(value_t node, const struct bard_links *links, struct strbuf *out)
{
	value_t marks = value_map_getz(node, "marks");
	uint32_t n = value_count(marks);
	for (uint32_t i = 0; i < n; i++)
		mark_tag(value_array_get(marks, i), true, links, out);
	size_t len;
	const char *text = value_str(value_map_getz(node, "text"), &len);
	escape_html(text, len, out);
	for (uint32_t i = n; i-- > 0;)
		mark_tag(value_array_get(marks, i), false, links, out);
}

static void render_node(value_t node, const struct bard_links *links, struct strbuf *out,
                        int depth);

static void render_children(value_t node, const struct bard_links *links, struct strbuf *out,
                            int depth)
{
	struct value_iter it;
	value_iter_init(&it, value_map_getz(node, "content"));
	while (value_iter_next(&it))
		render_node(it.value, links, out, depth + 1);
}

/* Nodes that are one element around their children. */
static const struct {
	const char *type, *tag;
} wrappers[] = {
	{"paragraph", "p"},    {"bulletList", "ul"}, {"listItem", "li"},   {"blockquote", "blockquote"},
	{"tableRow", "tr"},    {"tableCell", "td"},  {"tableHeader", "th"}, {"small", "small"},
};

static void render_node(value_t node, const struct bard_links *links, struct strbuf *out,
                        int depth)
{
	if (depth > MAX_DEPTH || value_type(node) != VALUE_MAP)
		return;
	value_t attrs = value_map_getz(node, "attrs");
	for (size_t i = 0; i < sizeof wrappers / sizeof wrappers[0]; i++) {
		if (type_is(node, wrappers[i].type)) {
			strbuf_addf(out, "<%s>", wrappers[i].tag);
			render_children(node, links, out, depth);
			strbuf_addf(out, "</%s>", wrappers[i].tag);
			return;
		}
	}
	if (type_is(node, "text")) {
		render_text(node, links, out);
	} else if (type_is(node, "heading")) {
		int64_t level = value_int(value_map_getz(attrs, "level"));
		if (level < 1 || level > 6)
			level = 1;
		strbuf_addf(out, "<h%lld>", (long long)level);
		render_children(node, links, out, depth);
		strbuf_addf(out, "</h%lld>", (long long)level);
	} else if (type_is(node, "orderedList")) {
		int64_t start = value_int(value_map_getz(attrs, "order"));
		if (start > 1)
			strbuf_addf(out, "<ol start=\"%lld\">", (long long)start);
		else
			strbuf_addstr(out, "<ol>");
		render_children(node, links, out, depth);
		strbuf_addstr(out, "</ol>");
	} else if (type_is(node, "codeBlock")) {
		strbuf_addstr(out, "<pre><code");
		value_t lang = value_map_getz(attrs, "language");
		if (value_type(lang) == VALUE_STRING && *value_str(lang, NULL)) {
			strbuf_addstr(out, " class=\"language-");
			escape_html(value_str(lang, NULL), strlen(value_str(lang, NULL)), out);
			strbuf_addch(out, '"');
		}
		strbuf_addch(out, '>');
		render_children(node, links, out, depth);
		strbuf_addstr(out, "</code></pre>");
	} else if (type_is(node, "table")) {
		strbuf_addstr(out, "<table><tbody>");
		render_children(node, links, out, depth);
		strbuf_addstr(out, "</tbody></table>");
	} else if (type_is(node, "hardBreak")) {
		strbuf_addstr(out, "<br>");
	} else if (type_is(node, "horizontalRule")) {
		strbuf_addstr(out, "<hr>");
	} else if (type_is(node, "image")) {
		strbuf_addstr(out, "<img");
		attribute("src", value_map_getz(attrs, "src"), out);
		attribute("alt", value_map_getz(attrs, "alt"), out);
		attribute("title", value_map_getz(attrs, "title"), out);
		strbuf_addch(out, '>');
	} else if (!bard_is_set(node)) {
		render_children(node, links, out, depth); /* unknown: its content */
	}
}

bool bard_is_set(value_t node)
{
	return type_is(node, "set");
}

void bard_render(value_t nodes, const struct bard_links *links, struct strbuf *out)
{
	if (value_type(nodes) == VALUE_MAP) {
		render_node(nodes, links, out, 0);
		return;
	}
	struct value_iter it;
	value_iter_init(&it, nodes);
	while (value_iter_next(&it))
		render_node(it.value, links, out, 0);
}
