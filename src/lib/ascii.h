/*
 * ascii: character tests of the C locale that do not depend on the
 * process's locale, shared by the parsers and the query code.
 */
#ifndef CMS_API_ASCII_H
#define CMS_API_ASCII_H

/* The value of a hexadecimal digit (either case), or -1. */
static inline int ascii_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* c with A-Z lowercased; every other byte as it is. */
static inline char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

#endif
