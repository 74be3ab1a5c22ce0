/*
 * libFuzzer target: any bytes as a markdown field's value, through the
 * whole renderer (statamic:// links, the tables mended, cmark-gfm's
 * parse, the Attributes pass, league's HTML), with the field's options
 * taken from the first byte. It must never crash or leak, must render
 * anything under the size cap, and without links must leave the text's
 * statamic:// references as they are.
 */
#include "autoconfig.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "site/markdown.h"
#include "site/statamic_urls.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok)
{
	if (!ok)
		__builtin_trap();
}

/* Names something for refs that start with 'e', nothing otherwise. */
static bool fake_url(const char *ref, struct strbuf *out, const void *ctx)
{
	(void)ctx;
	if (ref[0] != 'e')
		return false;
	strbuf_addstr(out, "/found?x=\"(1)\"");
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct statamic_links links = {fake_url, NULL, NULL};
	uint8_t flags = size ? data[0] : 0;
	const char *md = size ? (const char *)data + 1 : "";
	size_t len = size ? size - 1 : 0;
	struct markdown_options opt = {
		.line_breaks = flags & 1,
		.auto_links = flags & 2,
		.escape_markup = flags & 4,
		.smartypants = flags & 8,
		.links = flags & 16 ? &links : NULL,
	};
	struct strbuf out = STRBUF_INIT;
	strbuf_addstr(&out, "x");
	check(markdown_to_html(md, len, &opt, &out) == 0);
	check(out.len >= 1 && out.ptr[0] == 'x' && strlen(out.ptr) <= out.len);
	strbuf_release(&out);

	struct strbuf same = STRBUF_INIT;
	statamic_urls_resolve(md, len, NULL, &same);
	check(same.len == len && (len == 0 || memcmp(same.ptr, md, len) == 0));
	strbuf_reset(&same);
	statamic_urls_resolve(md, len, &links, &same);
	strbuf_reset(&same);
	markdown_mend_tables(md, len, &same);
	strbuf_release(&same);
	return 0;
}
