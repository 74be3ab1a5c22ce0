/*
 * markdown: Markdown to HTML the way Statamic's markdown fieldtype renders
 * it: league/commonmark with the extensions Statamic turns on (tables,
 * attributes, strikethrough, footnotes, task lists), raw HTML kept, bare
 * URLs left as text unless the field asks for automatic_links, and a soft
 * line break as "<br />" when the field's automatic_line_breaks is on
 * (Statamic's default). statamic:// links are resolved first, as
 * Statamic resolves them in the text. cmark-gfm parses; the HTML is
 * league's (md_attrs.h, md_html.h). Done when the index is built, never
 * per request.
 *
 * Where cmark-gfm would part from league, the text is mended first: a
 * table goes on over a line that holds only a '|', or one indented as
 * code, as league's does.
 *
 * Where it still parts from league (cmark-gfm implements CommonMark 0.29,
 * league 0.31.2): emphasis next to a Unicode symbol (0.31 counts "＞" or
 * "→" as punctuation; three Japanese pages of amplitude-docs); description
 * lists ("Term" then ": definition"), which stay a paragraph; an
 * attribute list escaped ("\{.x}", "&#123;.x}"), which is read as one;
 * smartypants, which is cmark-gfm's (an attribute list's quoted values
 * are then no list); heading_anchors and table_of_contents, not made.
 */
#ifndef CMS_API_MARKDOWN_H
#define CMS_API_MARKDOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"
#include "site/statamic_urls.h"

/* Inputs larger than this are refused: bookworm's cmark-gfm lacks the
 * 2023 fixes for quadratic-time inputs. */
#define MARKDOWN_MAX_INPUT (4u << 20)

/* A markdown field's options (its config; Statamic's defaults: line
 * breaks on, the others off). */
struct markdown_options {
	bool line_breaks;   /* automatic_line_breaks: a soft break as <br /> */
	bool auto_links;    /* automatic_links: bare URLs and addresses as links */
	bool escape_markup; /* escape_markup: raw HTML as text */
	bool smartypants;   /* smartypants: curly quotes, dashes, ellipses */
	const struct statamic_links *links; /* NULL: statamic:// left as it is */
};

/* Registers cmark-gfm's extensions; call once before forking workers
 * (markdown_to_html calls it too). */
void markdown_init(void);

/* Appends the HTML for md[0..len) to out. Returns 0, or -1 (out unchanged)
 * when the input is too large or cmark-gfm fails. */
int markdown_to_html(const char *md, size_t len, const struct markdown_options *opt,
                     struct strbuf *out);

/* Appends md[0..len) with its tables' rows mended as said above. */
void markdown_mend_tables(const char *md, size_t len, struct strbuf *out);

#endif
