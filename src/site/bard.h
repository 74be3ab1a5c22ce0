/*
 * bard: Statamic's Bard field content (ProseMirror JSON stored as YAML)
 * rendered to HTML as Statamic 6 renders it: tiptap-php 2 with the
 * extensions Statamic registers (BardServiceProvider), byte for byte.
 *
 * Node and mark types are read as Statamic reads them, camelized
 * (Bard::convertLegacyTiptap): Statamic 3's hard_break, bullet_list,
 * ordered_list, list_item, horizontal_rule, code_block, table_row,
 * table_cell and table_header are hardBreak, bulletList, ... Nodes:
 * paragraph <p> and heading <hN> (both with text-align as a style),
 * blockquote, bulletList <ul>, orderedList <ol start>, listItem <li>,
 * codeBlock <pre><code class="language-x">, hardBreak <br>,
 * horizontalRule <hr>, image <img src alt> (an "asset::c::p" src as the
 * asset's url, its alt as the asset's when the node has none), table
 * <table><tbody>, tableRow <tr>, tableCell <td> and tableHeader <th>
 * (rowspan, colspan, data-colwidth); marks: bold <strong>, italic <em>,
 * underline <u>, strike <s>, code <code>, subscript <sub>, superscript
 * <sup>, small <small>, link <a rel target href title>. A mark that runs
 * over several text nodes opens once and closes once, as tiptap-php's
 * mark stack does. Any other node gives its content without a tag; any
 * other mark nothing. Text is escaped as htmlspecialchars(ENT_QUOTES)
 * escapes it, attribute values as htmlentities does. Not done: a field's
 * select_across_sites (Statamic then links with absolute URLs), and
 * Statamic 2's text-and-sets data (isLegacyData).
 */
#ifndef CMS_API_BARD_H
#define CMS_API_BARD_H

#include <stdbool.h>

#include "lib/strbuf.h"
#include "lib/value.h"
#include "site/statamic_urls.h"

/* Called for each set at the top level (a node of type "set"), where
 * Statamic cuts the HTML into text blocks: html holds what was rendered
 * since the previous set. */
typedef void bard_set_fn(value_t set, struct strbuf *html, void *ctx);

/* Appends the HTML of a list of nodes (a document's content), or of one
 * node, to out. Top-level sets go to on_set (with set_ctx), or are
 * dropped when it is NULL. A link's statamic:// href and an image's
 * asset:: source are resolved through links (statamic_urls.h): url (""
 * when it finds nothing), alt (the asset's, when the image has none);
 * without links (NULL) statamic:// hrefs stay as they are and asset::
 * sources are dropped. */
void bard_render(value_t node_or_nodes, const struct statamic_links *links, bard_set_fn *on_set,
                 void *set_ctx, struct strbuf *out);

/* True when node is a Bard set (type "set") rather than text content. */
bool bard_is_set(value_t node);

#endif
