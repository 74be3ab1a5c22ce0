/*
 * md_attrs: league/commonmark's Attributes extension (which Statamic's
 * Markdown turns on) on a document cmark-gfm parsed: the {#id .class
 * key=value} lists of the text become HTML attributes of the element
 * they belong to, and leave the text.
 *
 * Where a list goes is league's rule (AttributesListener): written right
 * after an element (an image, a link, emphasis), to that element;
 * after a space or at the start of a block's text (a heading's, a
 * paragraph's, a table cell's), to the block; on a line of its own, to
 * the next block, or, followed by a blank line, to the block before it
 * (or to its container, after a blank line); a paragraph in a tight list
 * passes its attributes to its list item. A line of attributes ends a
 * paragraph, as in league, where cmark-gfm reads on.
 *
 * Lists escaped with a backslash or an entity are read as lists too
 * (cmark-gfm has decoded them by now); lists that run across other
 * inline elements are not lists (their text stays).
 */
#ifndef CMS_API_MD_ATTRS_H
#define CMS_API_MD_ATTRS_H

#include <stdbool.h>
#include <stddef.h>

#include <cmark-gfm.h>

#include "lib/strbuf.h"

/* One element's attributes in order: name, and its value, or a bare
 * attribute (value NULL, as league's true). */
struct md_attr {
	char *name, *value;
};
struct md_attrs {
	struct md_attr *items;
	size_t n, cap;
};

/* Every attribute list a document's elements were given; they live in
 * the nodes' user data (md_attrs_of) until md_attrs_release. */
struct md_node;
struct md_attrs_pass {
	struct md_node **owned;
	size_t n, cap;
};

/* Moves the attribute lists of doc's text (src[0..len) is the Markdown
 * it was parsed from: block positions are read there) onto the elements
 * they name. Returns -1 (doc as it was) when the pattern cannot be
 * compiled. */
int md_attrs_apply(struct md_attrs_pass *pass, cmark_node *doc, const char *src, size_t len);

/* The attributes node was given, or NULL. */
const struct md_attrs *md_attrs_of(cmark_node *node);

/* Frees every list the pass made (the nodes' user data then dangle: call
 * it once the document is rendered). */
void md_attrs_release(struct md_attrs_pass *pass);

/* Copies a into out (emptied first), for a renderer to add its own. */
void md_attrs_copy(struct md_attrs *out, const struct md_attrs *a);

/* Sets name to value (NULL: bare), where it stands when it is there,
 * else at the end, as PHP arrays keep keys. */
void md_attrs_set(struct md_attrs *a, const char *name, const char *value, size_t len);

/* The value of name, or NULL (also for a bare attribute). */
const char *md_attrs_get(const struct md_attrs *a, const char *name);

/* Adds a word to class, as league's Data::append does ("a" + "b" is "a b"). */
void md_attrs_append_class(struct md_attrs *a, const char *word);

/* Appends ` name="value"` for each, the value with & < > " escaped. */
void md_attrs_write(const struct md_attrs *a, struct strbuf *out);

void md_attrs_free(struct md_attrs *a);

#endif
