/*
 * bard: Statamic's Bard field content (ProseMirror JSON stored as YAML)
 * rendered to HTML as tiptap-php renders it: paragraphs, headings, lists,
 * quotes, code blocks, tables, images, rules and breaks; bold, italic,
 * underline, strike, code, links, sub/superscript and small marks. Text is
 * escaped like PHP's htmlspecialchars with ENT_QUOTES. Links to Statamic
 * items (statamic://entry::id) are resolved by the caller.
 */
#ifndef CMS_API_BARD_H
#define CMS_API_BARD_H

#include "lib/strbuf.h"
#include "lib/value.h"

/* How link targets are written: resolve appends the href for a link's
 * href attribute (e.g. statamic://entry::id as the entry's URL, "" for
 * none, which leaves the attribute out). */
struct bard_links {
	void (*resolve)(const char *href, struct strbuf *out, const void *ctx);
	const void *ctx;
};

/* Appends the HTML of one node, or of a list of nodes, to out; links may
 * be NULL (hrefs as they are). */
void bard_render(value_t node_or_nodes, const struct bard_links *links, struct strbuf *out);

/* True when node is a Bard set (type "set") rather than text content. */
bool bard_is_set(value_t node);

#endif
