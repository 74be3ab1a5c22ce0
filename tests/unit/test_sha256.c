/* Unit tests: SHA-256 against the NIST (FIPS 180-4 / CAVP) vectors. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sha256.h"
#include "unit.h"

static void assert_hex(const char *data, size_t len, const char *want)
{
	char hex[SHA256_HEX_LEN + 1];
	sha256_hex(data, len, hex);
	CU_ASSERT_STRING_EQUAL(hex, want);
}

/* RFC 4231's test cases 1, 2, 3 and 6 (a key longer than a block). */
static void test_hmac_vectors(void)
{
	char hex[SHA256_HEX_LEN + 1];
	unsigned char key[131];
	memset(key, 0x0b, 20);
	hmac_sha256_hex(key, 20, "Hi There", 8, hex);
	CU_ASSERT_STRING_EQUAL(hex, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	const char *what = "what do ya want for nothing?";
	hmac_sha256_hex("Jefe", 4, what, strlen(what), hex);
	CU_ASSERT_STRING_EQUAL(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	unsigned char dd[50];
	memset(key, 0xaa, 20);
	memset(dd, 0xdd, sizeof dd);
	hmac_sha256_hex(key, 20, dd, sizeof dd, hex);
	CU_ASSERT_STRING_EQUAL(hex, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
	memset(key, 0xaa, sizeof key);
	const char *big = "Test Using Larger Than Block-Size Key - Hash Key First";
	hmac_sha256_hex(key, sizeof key, big, strlen(big), hex);
	CU_ASSERT_STRING_EQUAL(hex, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

/* The examples of FIPS 180-4's appendix (NIST's "SHA256.pdf"). */
static void test_nist_vectors(void)
{
	assert_hex("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	assert_hex("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	assert_hex(two, strlen(two),
	           "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	const char *four = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
	                   "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	assert_hex(four, strlen(four),
	           "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

/* One million 'a', fed in pieces of every size up to 1000. */
static void test_million_a(void)
{
	char *chunk = malloc(1000);
	memset(chunk, 'a', 1000);
	struct sha256 ctx;
	unsigned char digest[SHA256_DIGEST_LEN];
	sha256_init(&ctx);
	size_t fed = 0;
	for (size_t n = 1; fed < 1000000; n = n % 1000 + 1) {
		size_t take = fed + n > 1000000 ? 1000000 - fed : n;
		sha256_update(&ctx, chunk, take);
		fed += take;
	}
	sha256_final(&ctx, digest);
	static const unsigned char want[SHA256_DIGEST_LEN] = {
		0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92, 0x81, 0xa1, 0xc7,
		0xe2, 0x84, 0xd7, 0x3e, 0x67, 0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97,
		0x20, 0x0e, 0x04, 0x6d, 0x39, 0xcc, 0xc7, 0x11, 0x2c, 0xd0};
	CU_ASSERT_EQUAL(memcmp(digest, want, sizeof want), 0);
	free(chunk);
}

/* The lengths around a block's end, where the padding takes a second
 * block (values from Python's hashlib). */
static void test_padding_boundaries(void)
{
	static const struct {
		size_t n;
		const char *hex;
	} cases[] = {
		{55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
		{56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
		{63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
		{64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
		{65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
		{119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
		{120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
	};
	char a[128];
	memset(a, 'a', sizeof a);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_hex(a, cases[i].n, cases[i].hex);
}

void suite_sha256(void)
{
	CU_pSuite s = unit_add_suite("sha256");
	unit_add_test(s, "NIST vectors", test_nist_vectors);
	unit_add_test(s, "a million a, in pieces", test_million_a);
	unit_add_test(s, "padding boundaries", test_padding_boundaries);
	unit_add_test(s, "HMAC-SHA256, RFC 4231", test_hmac_vectors);
}
