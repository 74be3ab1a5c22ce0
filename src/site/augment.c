/* augment: stored values to delivered values; see augment.h. */
#include "autoconfig.h"

#include "site/augment.h"

#include <string.h>

#include "site/markdown.h"
#include "strbuf.h"

static void markdown_field(value_t v, struct value_builder *out)
{
	size_t len;
	const char *md = value_str(v, &len);
	struct strbuf html = STRBUF_INIT;
	/* Too large or unparsable: deliver the text rather than nothing. */
	if (markdown_to_html(md, len, true, &html) == 0)
		vb_str(out, html.ptr ? html.ptr : "", html.len);
	else
		vb_value(out, v);
	strbuf_release(&html);
}

void augment_field(const char *key, value_t v, struct value_builder *out)
{
	if (strcmp(key, "content") == 0 && value_type(v) == VALUE_STRING)
		markdown_field(v, out);
	else
		vb_value(out, v);
}
