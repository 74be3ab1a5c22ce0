/*
 * libFuzzer target: any bytes as what a web server sends on a FastCGI
 * connection (fcgi.h's record parser). The first byte chooses a chunk
 * size; the rest is the stream. It is parsed twice, all at once and in
 * chunks of that size (as reads may split it anywhere), and both must see
 * the same requests, the same parameters and queue the same answers,
 * with every parameter a "NAME=value" string; never crash.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <string.h>

#include "core/log.h"
#include "server/fcgi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the parser made of the input: each request's parameters and
 * verdict, how the stream ended, and the records it queued. */
static void note_request(const struct fcgi_conn *c, struct strbuf *seen)
{
	strbuf_addf(seen, "request %u bad=%d keep=%d\n", c->id, (int)c->bad, (int)c->keep_conn);
	for (char **e = c->env; e && *e; e++) {
		if (!strchr(*e, '='))
			__builtin_trap();
		strbuf_addstr(seen, *e);
		strbuf_addch(seen, '\n');
	}
}

/* Parses what c holds; returns false once the stream has ended (closed or
 * broken). */
static bool drain(struct fcgi_conn *c, struct strbuf *seen)
{
	for (;;) {
		enum fcgi_parsed r = fcgi_parse(c);
		if (c->in_start > c->in_end || c->in_end > c->in_cap)
			__builtin_trap();
		if (r == FCGI_PARSE_MORE)
			return true;
		if (r != FCGI_PARSE_REQUEST) {
			strbuf_addf(seen, "end %d\n", (int)r);
			return false;
		}
		note_request(c, seen);
		fcgi_request_done(c);
	}
}

static void parse(const uint8_t *data, size_t size, size_t chunk, struct strbuf *seen,
                  struct strbuf *out)
{
	struct fcgi_conn c;
	fcgi_conn_init(&c, -1, NULL);
	for (size_t at = 0; at < size; at += chunk) {
		fcgi_feed(&c, data + at, size - at < chunk ? size - at : chunk);
		if (!drain(&c, seen))
			break;
	}
	strbuf_add(out, c.out.ptr, c.out.len);
	fcgi_conn_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	log_threshold = LOG_LEVEL_ERROR; /* the parser's warnings are expected here */
	if (size < 1)
		return 0;
	size_t chunk = data[0] % 17 + 1;
	struct strbuf seen_whole = STRBUF_INIT, out_whole = STRBUF_INIT;
	struct strbuf seen_split = STRBUF_INIT, out_split = STRBUF_INIT;
	parse(data + 1, size - 1, size, &seen_whole, &out_whole);
	parse(data + 1, size - 1, chunk, &seen_split, &out_split);
	if (seen_whole.len != seen_split.len || out_whole.len != out_split.len ||
	    memcmp(strbuf_str(&seen_whole), strbuf_str(&seen_split), seen_whole.len) != 0 ||
	    memcmp(strbuf_str(&out_whole), strbuf_str(&out_split), out_whole.len) != 0)
		__builtin_trap();
	strbuf_release(&seen_whole);
	strbuf_release(&out_whole);
	strbuf_release(&seen_split);
	strbuf_release(&out_split);
	return 0;
}
