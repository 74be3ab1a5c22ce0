/* netaddr: addresses, ranges and X-Forwarded-For; see netaddr.h. */
#include "autoconfig.h"

#include "lib/netaddr.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const unsigned char v4_mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

bool netaddr_parse(const char *s, struct netaddr *out)
{
	memset(out, 0, sizeof *out);
	if (inet_pton(AF_INET, s, out->bytes) == 1) {
		out->family = AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, s, out->bytes) != 1)
		return false;
	out->family = AF_INET6;
	if (memcmp(out->bytes, v4_mapped_prefix, sizeof v4_mapped_prefix) == 0) {
		memmove(out->bytes, out->bytes + 12, 4);
		memset(out->bytes + 4, 0, 12);
		out->family = AF_INET;
	}
	return true;
}

void netaddr_format(const struct netaddr *a, char out[NETADDR_TEXT_LEN])
{
	if (!inet_ntop(a->family, a->bytes, out, NETADDR_TEXT_LEN))
		out[0] = '\0';
}

static int family_bits(int family)
{
	return family == AF_INET ? 32 : 128;
}

bool netrange_parse(const char *s, struct netrange *out)
{
	const char *slash = strchr(s, '/');
	char addr[NETADDR_TEXT_LEN];
	size_t len = slash ? (size_t)(slash - s) : strlen(s);
	if (len == 0 || len >= sizeof addr)
		return false;
	memcpy(addr, s, len);
	addr[len] = '\0';
	if (!netaddr_parse(addr, &out->addr))
		return false;
	out->prefix = family_bits(out->addr.family);
	if (!slash)
		return true;
	/* Bits count in the family the address was written in:
	 * "::ffff:10.0.0.0/104" is 10.0.0.0/8. */
	bool written_v6 = strchr(addr, ':') != NULL;
	const char *digits = slash + 1;
	char *end;
	long prefix = strtol(digits, &end, 10);
	if (end == digits || *end || digits[0] < '0' || digits[0] > '9' ||
	    prefix > (written_v6 ? 128 : 32))
		return false;
	if (written_v6 && out->addr.family == AF_INET) {
		if (prefix < 96)
			return false;
		prefix -= 96;
	}
	out->prefix = (int)prefix;
	return true;
}

bool netrange_contains(const struct netrange *r, const struct netaddr *a)
{
	if (r->addr.family != a->family)
		return false;
	int whole = r->prefix / 8, rest = r->prefix % 8;
	if (memcmp(r->addr.bytes, a->bytes, (size_t)whole) != 0)
		return false;
	if (rest == 0)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (r->addr.bytes[whole] & mask) == (a->bytes[whole] & mask);
}

bool netrange_any(const struct netrange *ranges, size_t n, const struct netaddr *a)
{
	for (size_t i = 0; i < n; i++)
		if (netrange_contains(&ranges[i], a))
			return true;
	return false;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* One X-Forwarded-For entry, s[0..len): an address, maybe with a port
 * ("192.0.2.1:443", "[2001:db8::1]:443", "[2001:db8::1]"). */
static bool parse_entry(const char *s, size_t len, struct netaddr *out)
{
	while (len > 0 && is_blank(*s)) {
		s++;
		len--;
	}
	while (len > 0 && is_blank(s[len - 1]))
		len--;
	if (len > 0 && s[0] == '[') {
		const char *close = memchr(s, ']', len);
		if (!close)
			return false;
		size_t after = len - (size_t)(close + 1 - s);
		if (after > 0 && close[1] != ':')
			return false;
		s++;
		len = (size_t)(close - s);
	} else {
		const char *colon = memchr(s, ':', len);
		/* One colon: IPv4 with a port. More: IPv6 without brackets. */
		if (colon && !memchr(colon + 1, ':', len - (size_t)(colon + 1 - s)))
			len = (size_t)(colon - s);
	}
	char text[NETADDR_TEXT_LEN];
	if (len == 0 || len >= sizeof text)
		return false;
	memcpy(text, s, len);
	text[len] = '\0';
	return netaddr_parse(text, out);
}

static void copy_text(const char *s, char out[NETADDR_TEXT_LEN])
{
	size_t n = strlen(s);
	if (n >= NETADDR_TEXT_LEN)
		n = NETADDR_TEXT_LEN - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

void netaddr_client(const char *remote_addr, const char *forwarded_for,
                    const struct netrange *trusted, size_t ntrusted, char out[NETADDR_TEXT_LEN])
{
	struct netaddr client;
	if (!netaddr_parse(remote_addr, &client)) {
		copy_text(remote_addr, out);
		return;
	}
	if (netrange_any(trusted, ntrusted, &client) && forwarded_for) {
		const char *end = forwarded_for + strlen(forwarded_for);
		while (end > forwarded_for) {
			const char *start = end;
			while (start > forwarded_for && start[-1] != ',')
				start--;
			struct netaddr hop;
			if (!parse_entry(start, (size_t)(end - start), &hop))
				break;
			client = hop;
			if (!netrange_any(trusted, ntrusted, &hop))
				break;
			end = start > forwarded_for ? start - 1 : start;
		}
	}
	netaddr_format(&client, out);
}
