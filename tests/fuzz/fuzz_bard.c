/*
 * libFuzzer target: any bytes as a Bard field's stored value (YAML, of
 * which JSON is a part), through the renderer with links resolved and
 * sets cut out. It must never crash or leak.
 */
#include "autoconfig.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "site/bard.h"
#include "site/yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool fake_url(const char *ref, struct strbuf *out, const void *ctx)
{
	(void)ctx;
	if (ref[0] == 'a')
		return false;
	strbuf_addstr(out, "/u?a=1&b=\"2\"");
	return true;
}

static bool fake_alt(const char *id, struct strbuf *out, const void *ctx)
{
	(void)ctx;
	strbuf_addstr(out, id);
	return id[0] != '\0';
}

static void cut(value_t set, struct strbuf *html, void *ctx)
{
	(void)set;
	(void)ctx;
	strbuf_reset(html);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct statamic_links links = {fake_url, fake_alt, NULL};
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	if (yaml_parse((const char *)data, size, 0, &b, &err) == 0) {
		struct strbuf html = STRBUF_INIT;
		bard_render(vb_result(&b), &links, cut, NULL, &html);
		strbuf_reset(&html);
		bard_render(vb_result(&b), NULL, NULL, NULL, &html);
		strbuf_release(&html);
	}
	vb_release(&b);
	return 0;
}
