/*
 * markdown: Markdown to HTML the way Statamic's markdown fieldtype renders
 * it (league/commonmark with GitHub's tables, strikethrough, task lists
 * and autolinks; raw HTML kept; a soft line break is "<br />" when the
 * field's automatic_line_breaks is on, which is Statamic's default).
 * Done with cmark-gfm when the index is built, never per request.
 */
#ifndef CMS_API_MARKDOWN_H
#define CMS_API_MARKDOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

/* Inputs larger than this are refused: bookworm's cmark-gfm lacks the
 * 2023 fixes for quadratic-time inputs. */
#define MARKDOWN_MAX_INPUT (4u << 20)

/* Registers cmark-gfm's extensions; call once before forking workers
 * (markdown_to_html calls it too). */
void markdown_init(void);

/* Appends the HTML for md[0..len) to out. Returns 0, or -1 (out unchanged)
 * when the input is too large or cmark-gfm fails. */
int markdown_to_html(const char *md, size_t len, bool line_breaks, struct strbuf *out);

#endif
