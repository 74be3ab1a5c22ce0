/* strbuf: growable byte buffer; see strbuf.h for the contract. */
#include "autoconfig.h"

#include "lib/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t n)
{
	fprintf(stderr, "cms-api: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void strbuf_grow(struct strbuf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + n + 1)
		cap *= 2;
	b->ptr = xrealloc(b->ptr, cap);
	b->cap = cap;
}

void strbuf_add(struct strbuf *b, const void *data, size_t n)
{
	strbuf_grow(b, n);
	if (n)
		memcpy(b->ptr + b->len, data, n);
	b->len += n;
	b->ptr[b->len] = '\0';
}

void strbuf_addstr(struct strbuf *b, const char *s)
{
	strbuf_add(b, s, strlen(s));
}

void strbuf_addch(struct strbuf *b, char c)
{
	strbuf_grow(b, 1);
	b->ptr[b->len++] = c;
	b->ptr[b->len] = '\0';
}

void strbuf_vaddf(struct strbuf *b, const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	strbuf_grow(b, (size_t)n);
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(b, fmt, ap);
	va_end(ap);
}

void strbuf_truncate(struct strbuf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->ptr[len] = '\0';
	}
}

void strbuf_reset(struct strbuf *b)
{
	strbuf_truncate(b, 0);
}

char *strbuf_detach(struct strbuf *b, size_t *len)
{
	char *p = b->ptr ? b->ptr : xstrdup("");
	if (len)
		*len = b->len;
	b->ptr = NULL;
	b->len = b->cap = 0;
	return p;
}

void strbuf_release(struct strbuf *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
}

const char *strbuf_str(const struct strbuf *b)
{
	return b->ptr ? b->ptr : "";
}

int strbuf_read_file(struct strbuf *b, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char buf[8192];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(b, buf, got);
	int failed = ferror(f);
	fclose(f);
	if (failed)
		errno = EIO;
	return failed ? -1 : 0;
}
