/*
 * strbuf: a growable, length-carrying byte buffer.
 *
 * The buffer always keeps a NUL after its last byte, so buf->ptr can be
 * handed to C string functions when the contents hold no NUL. Appends
 * never fail silently: on allocation failure the process aborts, because
 * every caller would otherwise need an error path for an event that a
 * worker cannot recover from anyway.
 */
#ifndef CMS_API_STRBUF_H
#define CMS_API_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *ptr;  /* owned; NUL-terminated; NULL until the first append */
	size_t len; /* bytes used, not counting the terminating NUL */
	size_t cap; /* bytes allocated */
};

#define STRBUF_INIT {NULL, 0, 0}
#define STR_LEN(s) (s), (sizeof(s) - 1)

/* Ensures room for n more bytes (plus the NUL). */
void strbuf_grow(struct strbuf *b, size_t n);
void strbuf_add(struct strbuf *b, const void *data, size_t n);
void strbuf_addstr(struct strbuf *b, const char *s);
void strbuf_addch(struct strbuf *b, char c);
void strbuf_addf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Shortens the contents to len bytes (len <= b->len). */
void strbuf_truncate(struct strbuf *b, size_t len);
void strbuf_reset(struct strbuf *b);
/* Returns the contents as a NUL-terminated string ("" when empty); the
 * caller owns it and the buffer is left empty. */
char *strbuf_detach(struct strbuf *b, size_t *len);
/* Appends the whole file at path. Returns 0, or -1 with errno set (what
 * was read before an error stays appended). */
int strbuf_read_file(struct strbuf *b, const char *path);
void strbuf_release(struct strbuf *b);
/* A strbuf's contents as a C string, "" before the first append. */
const char *strbuf_str(const struct strbuf *b);

/* Allocation helpers that abort on failure (see above). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
