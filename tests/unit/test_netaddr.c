/* Tests for netaddr: addresses, ranges and the client behind X-Forwarded-For. */
#include "autoconfig.h"

#include <string.h>

#include "lib/netaddr.h"
#include "unit.h"

static struct netrange range(const char *text)
{
	struct netrange r;
	CU_ASSERT_TRUE_FATAL(netrange_parse(text, &r));
	return r;
}

static bool in(const char *range_text, const char *addr_text)
{
	struct netrange r = range(range_text);
	struct netaddr a;
	CU_ASSERT_TRUE_FATAL(netaddr_parse(addr_text, &a));
	return netrange_contains(&r, &a);
}

static void test_addresses(void)
{
	struct netaddr a;
	char text[NETADDR_TEXT_LEN];
	CU_ASSERT_TRUE(netaddr_parse("192.0.2.1", &a));
	netaddr_format(&a, text);
	CU_ASSERT_STRING_EQUAL(text, "192.0.2.1");
	/* One client, one spelling. */
	CU_ASSERT_TRUE(netaddr_parse("2001:DB8:0:0::1", &a));
	netaddr_format(&a, text);
	CU_ASSERT_STRING_EQUAL(text, "2001:db8::1");
	CU_ASSERT_TRUE(netaddr_parse("::ffff:192.0.2.1", &a));
	netaddr_format(&a, text);
	CU_ASSERT_STRING_EQUAL(text, "192.0.2.1");
	CU_ASSERT_FALSE(netaddr_parse("", &a));
	CU_ASSERT_FALSE(netaddr_parse("unknown", &a));
	CU_ASSERT_FALSE(netaddr_parse("192.0.2.1:80", &a));
	CU_ASSERT_FALSE(netaddr_parse("192.0.2.256", &a));
	CU_ASSERT_FALSE(netaddr_parse("[::1]", &a));
}

static void test_ranges(void)
{
	struct netrange r;
	CU_ASSERT_TRUE(in("10.0.0.0/8", "10.255.0.1"));
	CU_ASSERT_FALSE(in("10.0.0.0/8", "11.0.0.1"));
	CU_ASSERT_TRUE(in("192.0.2.0/25", "192.0.2.127"));
	CU_ASSERT_FALSE(in("192.0.2.0/25", "192.0.2.128"));
	CU_ASSERT_TRUE(in("192.0.2.7", "192.0.2.7"));
	CU_ASSERT_FALSE(in("192.0.2.7", "192.0.2.8"));
	CU_ASSERT_TRUE(in("0.0.0.0/0", "203.0.113.9"));
	CU_ASSERT_FALSE(in("0.0.0.0/0", "::1"));
	CU_ASSERT_TRUE(in("fd00::/8", "fdab::1"));
	CU_ASSERT_FALSE(in("fd00::/8", "fe80::1"));
	CU_ASSERT_TRUE(in("::1", "::1"));
	/* Bits past the prefix do not matter. */
	CU_ASSERT_TRUE(in("10.1.2.3/8", "10.9.9.9"));
	/* An IPv4 range written as IPv6 counts its bits as IPv6 does. */
	CU_ASSERT_TRUE(in("::ffff:10.0.0.0/104", "10.3.2.1"));
	CU_ASSERT_FALSE(in("::ffff:10.0.0.0/104", "11.3.2.1"));
	CU_ASSERT_FALSE(netrange_parse("::ffff:10.0.0.0/64", &r));
	CU_ASSERT_FALSE(netrange_parse("10.0.0.0/33", &r));
	CU_ASSERT_FALSE(netrange_parse("::/129", &r));
	CU_ASSERT_FALSE(netrange_parse("10.0.0.0/", &r));
	CU_ASSERT_FALSE(netrange_parse("10.0.0.0/-1", &r));
	CU_ASSERT_FALSE(netrange_parse("10.0.0.0/8x", &r));
	CU_ASSERT_FALSE(netrange_parse("/8", &r));
	CU_ASSERT_FALSE(netrange_parse("proxy.example", &r));
}

/* The client of remote_addr and forwarded_for, with trusted the comma
 * list of trusted ranges. */
static void expect_client(const char *trusted_list, const char *remote, const char *forwarded,
                          const char *want)
{
	struct netrange trusted[4];
	size_t n = 0;
	char list[128];
	snprintf(list, sizeof list, "%s", trusted_list);
	for (char *save = NULL, *item = strtok_r(list, ",", &save); item;
	     item = strtok_r(NULL, ",", &save))
		trusted[n++] = range(item);
	char got[NETADDR_TEXT_LEN];
	netaddr_client(remote, forwarded, trusted, n, got);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n  %s via %s [%s]: %s, not %s\n", remote, forwarded ? forwarded : "-",
		        trusted_list, got, want);
}

static void test_forwarded_for(void)
{
	/* Without a trusted proxy the header is the client's own word. */
	expect_client("", "192.0.2.1", "203.0.113.5", "192.0.2.1");
	expect_client("10.0.0.0/8", "192.0.2.1", "203.0.113.5", "192.0.2.1");
	/* From a trusted proxy: the rightmost address it does not vouch for. */
	expect_client("10.0.0.0/8", "10.0.0.2", "203.0.113.5", "203.0.113.5");
	expect_client("10.0.0.0/8", "10.0.0.2", "198.51.100.7, 203.0.113.5", "203.0.113.5");
	expect_client("10.0.0.0/8", "10.0.0.2", "198.51.100.7,203.0.113.5, 10.0.0.9", "203.0.113.5");
	expect_client("10.0.0.0/8,192.0.2.0/24", "10.0.0.2", "198.51.100.7, 192.0.2.4",
	              "198.51.100.7");
	/* A proxy but no header, or an empty one: the proxy. */
	expect_client("10.0.0.0/8", "10.0.0.2", NULL, "10.0.0.2");
	expect_client("10.0.0.0/8", "10.0.0.2", "", "10.0.0.2");
	/* Every hop trusted: the leftmost. */
	expect_client("10.0.0.0/8", "10.0.0.2", "10.0.0.7, 10.0.0.8", "10.0.0.7");
	/* Something that is not an address ends the walk at the last
	 * trusted hop: what lies left of it nobody vouches for. */
	expect_client("10.0.0.0/8", "10.0.0.2", "203.0.113.5, unknown", "10.0.0.2");
	expect_client("10.0.0.0/8", "10.0.0.2", "203.0.113.5, unknown, 10.0.0.3", "10.0.0.3");
	expect_client("10.0.0.0/8", "10.0.0.2", "203.0.113.5,,10.0.0.3", "10.0.0.3");
	/* Ports and brackets. */
	expect_client("10.0.0.0/8", "10.0.0.2", "203.0.113.5:4711", "203.0.113.5");
	expect_client("10.0.0.0/8", "10.0.0.2", "[2001:db8::5]:443", "2001:db8::5");
	expect_client("10.0.0.0/8", "10.0.0.2", "[2001:db8::5]", "2001:db8::5");
	expect_client("10.0.0.0/8", "10.0.0.2", " 2001:DB8::5 ", "2001:db8::5");
	expect_client("10.0.0.0/8", "10.0.0.2", "[2001:db8::5", "10.0.0.2");
	expect_client("10.0.0.0/8", "10.0.0.2", "[2001:db8::5]x", "10.0.0.2");
	/* An IPv6 proxy, and IPv4 written as IPv6. */
	expect_client("::1", "::1", "203.0.113.5", "203.0.113.5");
	expect_client("127.0.0.1", "::ffff:127.0.0.1", "::ffff:203.0.113.5", "203.0.113.5");
	/* A remote address that is not one is used as it is. */
	expect_client("", "unix:/run/x", "203.0.113.5", "unix:/run/x");
	expect_client("", "", NULL, "");
}

void suite_netaddr(void)
{
	CU_pSuite s = unit_add_suite("netaddr");
	unit_add_test(s, "addresses parse and print in one form", test_addresses);
	unit_add_test(s, "ranges hold what their prefix says", test_ranges);
	unit_add_test(s, "X-Forwarded-For is believed from trusted proxies only", test_forwarded_for);
}
