/* markdown: cmark-gfm with Statamic's extension set; see markdown.h. */
#include "autoconfig.h"

#include "site/markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

/* league/commonmark's GitHub set, less tagfilter (GitHub-only). */
static const char *const extensions[] = {"table", "strikethrough", "tasklist", "autolink"};

void markdown_init(void)
{
	static bool done;
	if (!done) {
		cmark_gfm_core_extensions_ensure_registered();
		done = true;
	}
}

/* A parser with every extension attached, or NULL. */
static cmark_parser *new_parser(int options)
{
	cmark_parser *parser = cmark_parser_new(options);
	if (!parser)
		return NULL;
	for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++) {
		cmark_syntax_extension *ext = cmark_find_syntax_extension(extensions[i]);
		if (!ext || !cmark_parser_attach_syntax_extension(parser, ext)) {
			cmark_parser_free(parser);
			return NULL;
		}
	}
	return parser;
}

int markdown_to_html(const char *md, size_t len, bool line_breaks, struct strbuf *out)
{
	if (len > MARKDOWN_MAX_INPUT)
		return -1;
	markdown_init();
	int options = CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES;
	if (line_breaks)
		options |= CMARK_OPT_HARDBREAKS;
	cmark_parser *parser = new_parser(options);
	if (!parser)
		return -1;
	if (len > 0)
		cmark_parser_feed(parser, md, len);
	cmark_node *doc = cmark_parser_finish(parser);
	int rc = -1;
	if (doc) {
		char *html = cmark_render_html(doc, options, cmark_parser_get_syntax_extensions(parser));
		if (html) {
			/* cmark turns NUL into U+FFFD, so html is one C string. */
			strbuf_addstr(out, html);
			/* The parser, hence doc and html, use the default allocator. */
			cmark_get_default_mem_allocator()->free(html);
			rc = 0;
		}
		cmark_node_free(doc);
	}
	cmark_parser_free(parser);
	return rc;
}
