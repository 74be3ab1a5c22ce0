/* Unit tests: cache entries (cache/cache_entry.h), the stored form of an
 * answer that every driver keeps: round trips, the gzip copy, the
 * checksum, and every way an entry is refused. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache_entry.h"
#include "http/response.h"
#include "lib/gzip.h"
#include "lib/strbuf.h"
#include "unit.h"

static void make_response(struct response *res, int status, const char *body)
{
	response_init(res);
	struct strbuf *out = response_begin(res, status, "application/json");
	response_set_header(res, "X-Extra", "a: b");
	strbuf_addstr(out, body);
}

static void test_entry_round_trip(void)
{
	struct response res, back;
	make_response(&res, 200, "{\"data\":[]}\n\x01binary\0");
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("k?a=1", 1000, &res, &e);
	response_init(&back);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "k?a=1", 999, &back), 0);
	CU_ASSERT_EQUAL(back.status, 200);
	CU_ASSERT_EQUAL(back.nheaders, 2);
	CU_ASSERT_STRING_EQUAL(response_header(&back, "Content-Type"), "application/json");
	CU_ASSERT_STRING_EQUAL(response_header(&back, "X-Extra"), "a: b");
	CU_ASSERT_EQUAL(back.body.len, res.body.len);
	CU_ASSERT_EQUAL(memcmp(back.body.ptr, res.body.ptr, res.body.len), 0);
	/* The body's hash comes along (a hit does not hash again); a body
	 * this short gets no gzip copy. */
	CU_ASSERT_TRUE(back.has_etag);
	CU_ASSERT_EQUAL(back.etag, response_body_hash(&res));
	CU_ASSERT_EQUAL(back.gzip.len, 0);
	CU_ASSERT_EQUAL(back.expires, 1000);
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* A JSON body of n entries, big enough for a gzip copy. */
static void make_list_response(struct response *res, int n)
{
	response_init(res);
	struct strbuf *out = response_begin(res, 200, "application/json");
	strbuf_addstr(out, "{\"data\":[");
	for (int i = 0; i < n; i++)
		strbuf_addf(out, "%s{\"id\":\"entry-%d\",\"title\":\"Entry number %d\","
		            "\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/blog\\/entries\\/entry-%d\"}",
		            i ? "," : "", i, i, i);
	strbuf_addstr(out, "]}");
}

/* A body above CACHE_ENTRY_GZIP_MIN bytes is stored with a gzip copy,
 * made once, that decompresses to exactly the body; the checksum covers
 * it too. */
static void test_entry_round_trip_with_gzip(void)
{
	struct response res, back;
	make_list_response(&res, 25);
	CU_ASSERT(res.body.len > CACHE_ENTRY_GZIP_MIN);
	struct strbuf e = STRBUF_INIT, plain = STRBUF_INIT;
	cache_entry_encode("/api/list", 1000, &res, &e);
	response_init(&back);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "/api/list", 10, &back), 0);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&back.body), strbuf_str(&res.body));
	CU_ASSERT(back.gzip.len > 0 && back.gzip.len < back.body.len);
	CU_ASSERT_EQUAL_FATAL(gzip_decompress(back.gzip.ptr, back.gzip.len, &plain), 0);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&plain), strbuf_str(&res.body));
	CU_ASSERT_EQUAL(back.etag, response_body_hash(&res));
	/* One body, one copy: encoding again makes the same bytes. */
	struct strbuf again = STRBUF_INIT;
	cache_entry_encode("/api/list", 1000, &back, &again);
	CU_ASSERT_EQUAL(again.len, e.len);
	CU_ASSERT_EQUAL(memcmp(again.ptr, e.ptr, e.len), 0);
	/* The gzip copy a decoded answer carries is not sent unless chosen,
	 * and a copy that would not be smaller is not kept: 300 bytes of
	 * noise. */
	CU_ASSERT_EQUAL(back.form, RESPONSE_FORM_BODY);
	response_reset(&res);
	struct strbuf *body = response_begin(&res, 200, "application/json");
	unsigned x = 12345;
	for (int i = 0; i < 300; i++) {
		x = x * 1103515245u + 12345u;
		strbuf_addch(body, (char)(x >> 16));
	}
	strbuf_reset(&e);
	cache_entry_encode("/api/noise", 1000, &res, &e);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "/api/noise", 10, &back), 0);
	CU_ASSERT_EQUAL(back.gzip.len, 0);
	CU_ASSERT_EQUAL(back.body.len, 300);
	strbuf_release(&again);
	strbuf_release(&plain);
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* Any byte of an entry changed, whatever it is (the checksum, the
 * numbers, the key, a header, the body, the gzip copy), makes it a miss:
 * every byte flipped in turn, each one three ways. */
static void test_entry_any_changed_byte_is_refused(void)
{
	struct response res, back;
	make_list_response(&res, 12);
	response_set_header(&res, "X-Extra", "value");
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("/api/list?limit=12", 1000, &res, &e);
	response_init(&back);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "/api/list?limit=12", 10, &back), 0);
	CU_ASSERT_FATAL(back.gzip.len > 0); /* the copy is among the bytes flipped */
	char *copy = xmalloc(e.len);
	static const unsigned char flips[] = {0x01, 0x20, 0xff};
	size_t accepted = 0;
	for (size_t f = 0; f < sizeof flips; f++) {
		for (size_t i = 0; i < e.len; i++) {
			memcpy(copy, e.ptr, e.len);
			copy[i] = (char)(copy[i] ^ flips[f]);
			back.status = 299;
			if (cache_entry_decode(copy, e.len, "/api/list?limit=12", 10, &back) == 0) {
				accepted++;
				fprintf(stderr, "\nbyte %zu ^ 0x%02x accepted\n", i, flips[f]);
			}
			CU_ASSERT_EQUAL(back.status, 299); /* untouched */
		}
	}
	CU_ASSERT_EQUAL(accepted, 0);
	free(copy);
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* A stored 200 edited into a 404 (same length) once served a 404 with
 * the 200's body: refused now; sealed again, the same bytes are read, so
 * it is the checksum that refuses. */
static void test_entry_status_edit_is_refused(void)
{
	struct response res, back;
	make_response(&res, 200, "{\"data\":{\"title\":\"Hello World\"}}");
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("/api/one", 1000, &res, &e);
	char *status = strstr(e.ptr, "\n1000 200 ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(status);
	memcpy(status + 6, "404", 3);
	response_init(&back);
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "/api/one", 10, &back), -1);
	/* The same length, another title: refused too. */
	char *title = strstr(e.ptr, "Hello World");
	memcpy(status + 6, "200", 3);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "/api/one", 10, &back), 0);
	memcpy(title, "Hello Xorld", 11);
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "/api/one", 10, &back), -1);
	memcpy(title, "Hello World", 11);
	memcpy(status + 6, "404", 3);
	CU_ASSERT_EQUAL(cache_entry_seal(e.ptr, e.len), 0);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "/api/one", 10, &back), 0);
	CU_ASSERT_EQUAL(back.status, 404);
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* A hand-made entry with its checksum right, so that what is checked is
 * what follows it. */
static int decode_sealed(const char *text, const char *key, struct response *res)
{
	char *copy = xstrdup(text);
	CU_ASSERT_EQUAL(cache_entry_seal(copy, strlen(copy)), 0);
	int rc = cache_entry_decode(copy, strlen(copy), key, 10, res);
	free(copy);
	return rc;
}

static void test_entry_refused(void)
{
	struct response res, back;
	make_response(&res, 404, "{\"message\":\"Not found.\"}");
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("key", 1000, &res, &e);
	response_init(&back);
	back.status = 299; /* untouched on refusal */
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "kez", 10, &back), -1);  /* other key */
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "key2", 10, &back), -1); /* longer key */
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "key", 1000, &back), -1); /* expired */
	for (size_t cut = 0; cut < e.len; cut++)                                  /* truncated */
		CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, cut, "key", 10, &back), -1);
	strbuf_addch(&e, 'x'); /* trailing bytes */
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "key", 10, &back), -1);
	CU_ASSERT_EQUAL(back.status, 299);
	/* Entries made by hand, checksum right: the rest is checked too. */
#define HEAD "cms-api-cache 2 0000000000000000\n"
#define ETAG " 0123456789abcdef\n"
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 2 0" ETAG "key\n{}", "key", &back), 0);
	CU_ASSERT_EQUAL(back.status, 200);
	CU_ASSERT_EQUAL(back.etag, 0x0123456789abcdefULL);
	back.status = 299;
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 500 0 3 2 0" ETAG "key\n{}", "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 1 3 2 0" ETAG "key\nX-A: a\rSet-Cookie: b\n{}",
	                              "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 17 3 0 0" ETAG "key\n", "key", &back), -1);
	/* A header made per request is never stored: an entry holding one
	 * is not ours (found by fuzz_cache_entry: it would not survive a
	 * re-encode). */
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 1 3 2 0" ETAG "key\nx-ratelimit-remaining: 5\n{}",
	                              "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 1 3 2 0" ETAG "key\nRetry-After: 5\n{}", "key",
	                              &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 1 3 2 0" ETAG "key\nETag: \"x\"\n{}", "key",
	                              &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 1 3 2 0" ETAG "key\nCache-Control: no-store\n{}",
	                              "key", &back), -1);
	/* Lengths that do not add up; numbers and hashes spelt otherwise. */
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 2 1" ETAG "key\n{}", "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 1 1" ETAG "key\n{}", "key", &back), 0);
	back.status = 299;
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 18446744073709551615 3" ETAG "key\n{}", "key",
	                              &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "+99 200 0 3 2 0" ETAG "key\n{}", "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "-99 200 0 3 2 0" ETAG "key\n{}", "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 2 0 0123456789ABCDEF\nkey\n{}", "key", &back),
	                -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99  200 0 3 2 0" ETAG "key\n{}", "key", &back), -1);
	CU_ASSERT_EQUAL(back.status, 299);
	/* The first version's entries are not read. */
	const char *v1 = "cms-api-cache 1 99 200 0 3 2\nkey\n{}";
	CU_ASSERT_EQUAL(cache_entry_decode(v1, strlen(v1), "key", 10, &back), -1);
	CU_ASSERT_EQUAL(cache_entry_seal((char[]){"cms-api-cache 1 x"}, 17), -1);
#undef HEAD
#undef ETAG
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* A 404 comes back a 404, and an empty body an empty body. */
static void test_entry_round_trip_of_a_404_and_an_empty_body(void)
{
	struct response res, back;
	make_response(&res, 404, "{\"message\":\"Not found.\"}");
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("/api/x", 50, &res, &e);
	response_init(&back);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "/api/x", 49, &back), 0);
	CU_ASSERT_EQUAL(back.status, 404);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&back.body), "{\"message\":\"Not found.\"}");
	CU_ASSERT_EQUAL(back.expires, 50);
	response_reset(&res);
	CU_ASSERT_PTR_NOT_NULL(response_begin(&res, 200, NULL));
	strbuf_reset(&e);
	cache_entry_encode("/api/empty", 50, &res, &e);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "/api/empty", 0, &back), 0);
	CU_ASSERT_EQUAL(back.status, 200);
	CU_ASSERT_EQUAL(back.body.len, 0);
	CU_ASSERT_EQUAL(back.nheaders, 0);
	CU_ASSERT_EQUAL(back.gzip.len, 0);
	CU_ASSERT_EQUAL(back.etag, response_body_hash(&res));
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* Decoding replaces whatever the response held: headers, body, the
 * gzip copy, the form it was to go out in. */
static void test_decode_resets_the_response(void)
{
	struct response res, back;
	make_response(&res, 200, "{\"new\":1}");
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("k", 1000, &res, &e);
	make_response(&back, 404, "{\"old\":1}");
	response_set_header(&back, "X-Old", "1");
	strbuf_addstr(&back.gzip, "old gzip");
	back.form = RESPONSE_FORM_NOT_MODIFIED;
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "k", 10, &back), 0);
	CU_ASSERT_EQUAL(back.status, 200);
	CU_ASSERT_PTR_NULL(response_header(&back, "X-Old"));
	CU_ASSERT_EQUAL(back.nheaders, 2);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&back.body), "{\"new\":1}");
	CU_ASSERT_EQUAL(back.gzip.len, 0);
	CU_ASSERT_EQUAL(back.form, RESPONSE_FORM_BODY);
	/* Answered once: it renders as itself, not as a second answer. */
	CU_ASSERT_EQUAL(back.state, RESPONSE_ANSWERED);
	CU_ASSERT_EQUAL(response_sent_status(&back), 200);
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* The headers made per request are never stored (a hit gets its own);
 * neither is one that could not be read back as the same header. */
static void test_per_request_headers_are_not_stored(void)
{
	struct response res, back;
	make_response(&res, 200, "{}");
	static const char *const dropped[][2] = {
		{"ETag", "\"0123\""}, {"Cache-Control", "max-age=60"}, {"Vary", "Accept-Encoding"},
		{"Content-Encoding", "gzip"}, {"X-RateLimit-Limit", "60"},
		{"x-ratelimit-remaining", "59"}, {"Retry-After", "30"}, {"X-Split", "a\r\nSet-Cookie: x"},
		{"X-Line", "a\nb"}, {"X-A:B", "c"},
	};
	for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
		response_set_header(&res, dropped[i][0], dropped[i][1]);
	response_set_header(&res, "Allow", "GET, HEAD");
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("k", 1000, &res, &e);
	CU_ASSERT_PTR_NULL(strstr(e.ptr, "Set-Cookie"));
	response_init(&back);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "k", 10, &back), 0);
	CU_ASSERT_EQUAL(back.nheaders, 3);
	CU_ASSERT_STRING_EQUAL(response_header(&back, "Content-Type"), "application/json");
	CU_ASSERT_STRING_EQUAL(response_header(&back, "X-Extra"), "a: b");
	CU_ASSERT_STRING_EQUAL(response_header(&back, "Allow"), "GET, HEAD");
	for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
		CU_ASSERT_PTR_NULL(response_header(&back, dropped[i][0]));
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* A gzip copy for a body longer than CACHE_ENTRY_GZIP_MIN, never for
 * one of that length or shorter, however well it would compress. */
static void test_gzip_copy_threshold(void)
{
	for (size_t len = CACHE_ENTRY_GZIP_MIN - 1; len <= CACHE_ENTRY_GZIP_MIN + 1; len++) {
		struct response res, back;
		response_init(&res);
		struct strbuf *body = response_begin(&res, 200, "application/json");
		for (size_t i = 0; i < len; i++)
			strbuf_addch(body, 'a');
		struct strbuf e = STRBUF_INIT;
		cache_entry_encode("k", 1000, &res, &e);
		response_init(&back);
		CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "k", 10, &back), 0);
		CU_ASSERT_EQUAL(back.gzip.len > 0, len > CACHE_ENTRY_GZIP_MIN);
		CU_ASSERT_EQUAL(back.body.len, len);
		strbuf_release(&e);
		response_free(&back);
		response_free(&res);
	}
}

/* encode appends: an entry after other bytes is whole on its own. */
static void test_encode_appends(void)
{
	struct response res, back;
	make_response(&res, 200, "{\"a\":1}");
	struct strbuf e = STRBUF_INIT, alone = STRBUF_INIT;
	strbuf_addstr(&e, "prefix");
	cache_entry_encode("k", 1000, &res, &e);
	cache_entry_encode("k", 1000, &res, &alone);
	CU_ASSERT_EQUAL_FATAL(e.len, 6 + alone.len);
	CU_ASSERT_EQUAL(memcmp(e.ptr, "prefix", 6), 0);
	CU_ASSERT_EQUAL(memcmp(e.ptr + 6, alone.ptr, alone.len), 0);
	response_init(&back);
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr + 6, e.len - 6, "k", 10, &back), 0);
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "k", 10, &back), -1);
	strbuf_release(&e);
	strbuf_release(&alone);
	response_free(&back);
	response_free(&res);
}

/* An entry is another key's unless the key is exactly the same, and is
 * good until its expiry, not at it. */
static void test_foreign_keys_and_expiry(void)
{
	struct response res, back;
	make_response(&res, 200, "{}");
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("/api/x?a=1", 1000, &res, &e);
	response_init(&back);
	back.status = 299;
	static const char *const others[] = {"", "/api/x", "/api/x?a=", "/api/x?a=12",
	                                     "/API/x?a=1", "/api/x?a=1\n", " /api/x?a=1"};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
		CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, others[i], 10, &back), -1);
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "/api/x?a=1", 1001, &back), -1);
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "/api/x?a=1", 1LL << 40, &back), -1);
	CU_ASSERT_EQUAL(back.status, 299);
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "/api/x?a=1", 999, &back), 0);
	/* Expired at encoding: never served. */
	strbuf_reset(&e);
	cache_entry_encode("k", 0, &res, &e);
	CU_ASSERT_EQUAL(cache_entry_decode(e.ptr, e.len, "k", 0, &back), -1);
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* seal reaches only what begins like an entry, and makes the checksum
 * that decode checks. */
static void test_seal(void)
{
	char short_one[] = "cms-api-cache 2 0123";
	CU_ASSERT_EQUAL(cache_entry_seal(short_one, strlen(short_one)), -1);
	CU_ASSERT_STRING_EQUAL(short_one, "cms-api-cache 2 0123"); /* untouched */
	char other[] = "not-an-entry 2 0000000000000000\n";
	CU_ASSERT_EQUAL(cache_entry_seal(other, strlen(other)), -1);
	CU_ASSERT_EQUAL(cache_entry_seal(other, 0), -1);
	struct response res, back;
	make_response(&res, 200, "{}");
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("k", 1000, &res, &e);
	char *copy = xstrdup(e.ptr);
	memset(copy + 16, '0', 16); /* the checksum, zeroed */
	response_init(&back);
	CU_ASSERT_EQUAL(cache_entry_decode(copy, e.len, "k", 10, &back), -1);
	CU_ASSERT_EQUAL(cache_entry_seal(copy, e.len), 0);
	CU_ASSERT_EQUAL(memcmp(copy, e.ptr, e.len), 0);
	CU_ASSERT_EQUAL(cache_entry_decode(copy, e.len, "k", 10, &back), 0);
	free(copy);
	strbuf_release(&e);
	response_free(&back);
	response_free(&res);
}

/* The lengths of the head account for every byte after it: bytes left
 * over are another entry's, or a torn write's. */
static void test_every_byte_is_accounted_for(void)
{
	struct response back;
	response_init(&back);
#define HEAD "cms-api-cache 2 0000000000000000\n"
#define ETAG " 0123456789abcdef\n"
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 0 0" ETAG "key\n", "key", &back), 0);
	CU_ASSERT_EQUAL(back.body.len, 0);
	back.status = 299;
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 0 0" ETAG "key\n{", "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 1 0" ETAG "key\n{}", "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 1 0" ETAG "key\n{", "key", &back), 0);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&back.body), "{");
	back.status = 299;
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 3 0 1" ETAG "key\n{}", "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 2 2 0" ETAG "key\n{}", "key", &back), -1);
	CU_ASSERT_EQUAL(decode_sealed(HEAD "99 200 0 4 2 0" ETAG "key\n{}", "key", &back), -1);
	CU_ASSERT_EQUAL(back.status, 299);
#undef HEAD
#undef ETAG
	response_free(&back);
}

void suite_cache_entry(void)
{
	CU_pSuite s = unit_add_suite("cache_entry");
	unit_add_test(s, "entry round trip", test_entry_round_trip);
	unit_add_test(s, "entry refused", test_entry_refused);
	unit_add_test(s, "entry round trip with gzip", test_entry_round_trip_with_gzip);
	unit_add_test(s, "entry: any changed byte is refused", test_entry_any_changed_byte_is_refused);
	unit_add_test(s, "entry: a status edit is refused", test_entry_status_edit_is_refused);
	unit_add_test(s, "a 404 and an empty body", test_entry_round_trip_of_a_404_and_an_empty_body);
	unit_add_test(s, "decode resets the response", test_decode_resets_the_response);
	unit_add_test(s, "per-request headers are not stored", test_per_request_headers_are_not_stored);
	unit_add_test(s, "gzip copy threshold", test_gzip_copy_threshold);
	unit_add_test(s, "encode appends", test_encode_appends);
	unit_add_test(s, "foreign keys and expiry", test_foreign_keys_and_expiry);
	unit_add_test(s, "seal", test_seal);
	unit_add_test(s, "every byte is accounted for", test_every_byte_is_accounted_for);
}
