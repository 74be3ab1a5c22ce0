/*
 * htmlesc: text made safe in HTML, byte for byte as the PHP that Statamic
 * runs does it, so that rendered Bard and Markdown equal Statamic's:
 *   htmlesc_special   htmlspecialchars($s, ENT_QUOTES, 'UTF-8'), which
 *                     tiptap-php gives text: & < > " ' as &amp; &lt; &gt;
 *                     &quot; &#039;;
 *   htmlesc_entities  htmlentities($s) with PHP 8's defaults (ENT_QUOTES |
 *                     ENT_SUBSTITUTE | ENT_HTML401), which tiptap-php gives
 *                     attribute values: those five, and every character
 *                     HTML 4.01 names by its name (é as &eacute;, a
 *                     non-breaking space as &nbsp;); a byte that is not
 *                     UTF-8 as U+FFFD;
 *   htmlesc_xml       league/commonmark's Xml::escape: & < > " only.
 */
#ifndef CMS_API_HTMLESC_H
#define CMS_API_HTMLESC_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

/* Appends s[0..len) escaped; returns false, appending nothing, when s is
 * not UTF-8 (PHP then returns ""). */
bool htmlesc_special(const char *s, size_t len, struct strbuf *out);

/* Appends s[0..len) with HTML 4.01's entities. */
void htmlesc_entities(const char *s, size_t len, struct strbuf *out);

/* Appends s[0..len) with & < > " escaped. */
void htmlesc_xml(const char *s, size_t len, struct strbuf *out);

/* The length of the UTF-8 sequence at s[0..len) and its code point in
 * *cp, as PHP validates it (no overlong form, no surrogate, nothing past
 * U+10FFFF); 0 when the bytes there are not one. */
size_t htmlesc_utf8(const unsigned char *s, size_t len, unsigned *cp);

#endif
