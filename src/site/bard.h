/*
 * bard: Statamic's Bard field content (ProseMirror JSON stored as YAML)
 * rendered to HTML as tiptap-php renders it: paragraphs, headings, lists,
 * quotes, code blocks, tables, images, rules and breaks; bold, italic,
 * underline, strike, code, links, sub/superscript and small marks. Text is
 * escaped like PHP's htmlspecialchars with ENT_QUOTES.
 */
#ifndef CMS_API_BARD_H
#define CMS_API_BARD_H

#include "strbuf.h"
#include "value.h"

/* Appends the HTML of one node, or of a list of nodes, to out. */
void bard_render(value_t node_or_nodes, struct strbuf *out);

/* True when node is a Bard set (type "set") rather than text content. */
bool bard_is_set(value_t node);

#endif
