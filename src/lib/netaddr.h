/*
 * netaddr: IP addresses and ranges as the rate limit needs them: the
 * trusted_proxies list ("10.0.0.0/8, ::1") and the client of a request
 * seen through X-Forwarded-For.
 *
 * An IPv4 address written as IPv6 (::ffff:192.0.2.1) is the IPv4 address,
 * so that one client has one key however a server spells it.
 */
#ifndef CMS_API_NETADDR_H
#define CMS_API_NETADDR_H

#include <stdbool.h>
#include <stddef.h>

#define NETADDR_TEXT_LEN 46 /* INET6_ADDRSTRLEN */

struct netaddr {
	int family;              /* AF_INET or AF_INET6 */
	unsigned char bytes[16]; /* network order; 4 used for AF_INET */
};

/* An address and the number of leading bits that must match. */
struct netrange {
	struct netaddr addr;
	int prefix;
};

/* Parses an address written alone ("192.0.2.1", "2001:db8::1"). */
bool netaddr_parse(const char *s, struct netaddr *out);

/* Writes the address in its usual short form. */
void netaddr_format(const struct netaddr *a, char out[NETADDR_TEXT_LEN]);

/* Parses "ADDRESS" or "ADDRESS/BITS"; bits past the prefix are ignored. */
bool netrange_parse(const char *s, struct netrange *out);

bool netrange_contains(const struct netrange *r, const struct netaddr *a);

/* Whether a is in any of the n ranges. */
bool netrange_any(const struct netrange *ranges, size_t n, const struct netaddr *a);

/*
 * The client address of a request, written into out: remote_addr (the
 * peer the web server saw), unless that peer is a trusted proxy and
 * forwarded_for (the X-Forwarded-For header, NULL when absent) says more.
 * Then the header is read from the right, the end each proxy appends to:
 * the first address that is not a trusted proxy is the client. When every
 * address is trusted the leftmost is, and an entry that is not an address
 * (or is a port-less "unknown") ends the walk at the last trusted address:
 * what lies left of it was written by someone no proxy vouches for.
 * Entries may carry a port ("192.0.2.1:443", "[2001:db8::1]:443").
 * A remote_addr that is not an address is used as it is.
 */
void netaddr_client(const char *remote_addr, const char *forwarded_for,
                    const struct netrange *trusted, size_t ntrusted, char out[NETADDR_TEXT_LEN]);

#endif
