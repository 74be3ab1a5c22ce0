/*
 * md_html: a document cmark-gfm parsed, written as HTML the way
 * league/commonmark writes it for Statamic (its core renderers and those
 * of the Table, Strikethrough, TaskList, Footnote and Attributes
 * extensions), not the way cmark-gfm would: attributes (md_attrs) first
 * on each element, link and image URLs encoded as league encodes them
 * ("'" kept, "{" as %7B), inline HTML only where league reads HTML (tag
 * and attribute names in lower case: <BRAND> is text), task list boxes
 * as <input checked="" disabled="" type="checkbox"> inside the item's
 * text, footnotes as <sup id="fnref:x"><a class="footnote-ref" ...> and
 * a closing <div class="footnotes" role="doc-endnotes">, and a code
 * block's blank lines inside a list item empty, as league reads them.
 */
#ifndef CMS_API_MD_HTML_H
#define CMS_API_MD_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include <cmark-gfm.h>

#include "lib/strbuf.h"

struct md_html {
	bool line_breaks;   /* a soft break as "<br />\n" (else "\n") */
	bool escape_markup; /* raw HTML written as text (html_input: escape) */
	const char *src;    /* the Markdown parsed: footnote labels are read there */
	size_t len;
};

/* Appends doc's HTML. Returns -1 (out unchanged) when the patterns league
 * reads HTML with cannot be compiled. */
int md_html_render(cmark_node *doc, const struct md_html *opt, struct strbuf *out);

/* Appends url encoded as league's UrlEncoder::unescapeAndEncode does:
 * kept when it has only characters a URL keeps as they are; else each
 * ASCII character by league's table (%20 for a space, %22 ", %7B {, ...;
 * ' ( ) * ! and the reserved kept), a %XX escape kept, anything else
 * percent-encoded byte by byte. */
void md_html_encode_url(const char *url, struct strbuf *out);

#endif
