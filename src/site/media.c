/* media: kinds of file, MIME types and image sizes; see media.h. */
#include "autoconfig.h"

#include "site/media.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/ascii.h"
#include "lib/strbuf.h"

/* No extension in the lists below is longer. */
#define MAX_EXT 8

/* Whether ext, lowercased, is one of the space-separated words of list. */
static bool ext_in(const char *ext, const char *list)
{
	char lower[MAX_EXT + 1];
	size_t n = strlen(ext);
	if (n == 0 || n > MAX_EXT)
		return false;
	for (size_t i = 0; i <= n; i++)
		lower[i] = ascii_lower(ext[i]);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, " ");
		if (len == n && memcmp(p, lower, n) == 0)
			return true;
		p += len + (p[len] == ' ');
	}
	return false;
}

bool media_is_image(const char *ext)
{
	return ext_in(ext, "jpg jpeg png gif webp avif");
}

bool media_is_svg(const char *ext)
{
	return ext_in(ext, "svg");
}

bool media_is_video(const char *ext)
{
	return ext_in(ext, "h264 mp4 m4v ogv webm mov");
}

bool media_is_audio(const char *ext)
{
	return ext_in(ext, "aac flac m4a mp3 ogg wav");
}

bool media_is_previewable(const char *ext)
{
	return ext_in(ext, "doc docx pages txt ai psd eps ps css html php c cpp h hpp js ppt pptx "
	                   "flv tiff ttf dxf xps zip rar xls xlsx pdf");
}

bool media_has_dimensions(const char *ext)
{
	return media_is_image(ext) || media_is_svg(ext) || media_is_video(ext);
}

bool media_has_duration(const char *ext)
{
	return media_is_audio(ext) || media_is_video(ext);
}

/* --- MIME types --- */

/* The names the IANA registry (and Flysystem's extension map) gives the
 * common kinds of file a site keeps. */
static const struct {
	const char *ext, *type;
} mime_types[] = {
	{"aac", "audio/aac"},
	{"avif", "image/avif"},
	{"bmp", "image/bmp"},
	{"css", "text/css"},
	{"csv", "text/csv"},
	{"doc", "application/msword"},
	{"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
	{"eps", "application/postscript"},
	{"flac", "audio/flac"},
	{"gif", "image/gif"},
	{"gz", "application/gzip"},
	{"htm", "text/html"},
	{"html", "text/html"},
	{"ico", "image/vnd.microsoft.icon"},
	{"jpeg", "image/jpeg"},
	{"jpg", "image/jpeg"},
	{"js", "text/javascript"},
	{"json", "application/json"},
	{"m4a", "audio/mp4"},
	{"m4v", "video/mp4"},
	{"md", "text/markdown"},
	{"mov", "video/quicktime"},
	{"mp3", "audio/mpeg"},
	{"mp4", "video/mp4"},
	{"oga", "audio/ogg"},
	{"ogg", "audio/ogg"},
	{"ogv", "video/ogg"},
	{"otf", "font/otf"},
	{"pdf", "application/pdf"},
	{"png", "image/png"},
	{"ppt", "application/vnd.ms-powerpoint"},
	{"pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"},
	{"psd", "image/vnd.adobe.photoshop"},
	{"rar", "application/vnd.rar"},
	{"rtf", "application/rtf"},
	{"svg", "image/svg+xml"},
	{"tif", "image/tiff"},
	{"tiff", "image/tiff"},
	{"ttf", "font/ttf"},
	{"txt", "text/plain"},
	{"wav", "audio/wav"},
	{"webm", "video/webm"},
	{"webp", "image/webp"},
	{"woff", "font/woff"},
	{"woff2", "font/woff2"},
	{"xls", "application/vnd.ms-excel"},
	{"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
	{"xml", "application/xml"},
	{"zip", "application/zip"},
};

const char *media_mime_type(const char *ext)
{
	for (size_t i = 0; i < sizeof mime_types / sizeof mime_types[0]; i++)
		if (ext_in(ext, mime_types[i].ext))
			return mime_types[i].type;
	return NULL;
}

/* --- image sizes --- */

/* What is read of a header; an svg's root element is in its first bytes. */
#define HEAD_BYTES 4096
#define SVG_BYTES 65536
/* A jpeg's size is in its frame header, after any number of other
 * segments (metadata, thumbnails); this many are looked at. */
#define MAX_JPEG_SEGMENTS 1024

static bool read_at(int fd, off_t at, unsigned char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(fd, buf + got, n - got, at + (off_t)got);
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

static uint32_t be16(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le16(const unsigned char *p)
{
	return (uint32_t)p[1] << 8 | p[0];
}

static uint32_t le24(const unsigned char *p)
{
	return (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static bool found(struct media_size *out, uint32_t width, uint32_t height)
{
	*out = (struct media_size){width, height, false};
	return true;
}

static bool png_size(const unsigned char *h, size_t n, struct media_size *out)
{
	if (n < 24 || memcmp(h, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(h + 12, "IHDR", 4) != 0)
		return false;
	return found(out, be32(h + 16), be32(h + 20));
}

static bool gif_size(const unsigned char *h, size_t n, struct media_size *out)
{
	if (n < 10 || (memcmp(h, "GIF87a", 6) != 0 && memcmp(h, "GIF89a", 6) != 0))
		return false;
	return found(out, le16(h + 6), le16(h + 8));
}

/* The first chunk of a webp names its format: lossy (VP8), lossless
 * (VP8L) or extended (VP8X), each with the size in its own layout. */
static bool webp_size(const unsigned char *h, size_t n, struct media_size *out)
{
	if (n < 30 || memcmp(h, "RIFF", 4) != 0 || memcmp(h + 8, "WEBP", 4) != 0)
		return false;
	if (memcmp(h + 12, "VP8 ", 4) == 0 && memcmp(h + 23, "\x9d\x01\x2a", 3) == 0)
		return found(out, le16(h + 26) & 0x3fff, le16(h + 28) & 0x3fff);
	if (memcmp(h + 12, "VP8L", 4) == 0 && h[20] == 0x2f)
		return found(out, 1 + (((uint32_t)h[22] & 0x3f) << 8 | h[21]),
		             1 + (((uint32_t)h[24] & 0x0f) << 10 | (uint32_t)h[23] << 2 | h[22] >> 6));
	if (memcmp(h + 12, "VP8X", 4) == 0)
		return found(out, 1 + le24(h + 24), 1 + le24(h + 27));
	return false;
}

/* Start of frame: C0 to CF, but for C4 (Huffman tables), C8 (reserved)
 * and CC (arithmetic coding). */
static bool is_frame_marker(unsigned char m)
{
	return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc;
}

/* Walks the segments up to the frame header: FF marker, then (for all but
 * the standalone markers) a two-byte length that counts itself. */
static bool jpeg_size(int fd, const unsigned char *h, size_t n, struct media_size *out)
{
	if (n < 4 || h[0] != 0xff || h[1] != 0xd8)
		return false;
	off_t at = 2;
	unsigned char seg[9];
	for (int i = 0; i < MAX_JPEG_SEGMENTS; i++) {
		if (!read_at(fd, at, seg, 2) || seg[0] != 0xff)
			return false;
		unsigned char marker = seg[1];
		if (marker == 0xff) { /* fill byte */
			at++;
			continue;
		}
		if (marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
			at += 2;
			continue;
		}
		if (marker == 0xd9 || marker == 0xda) /* end of image, start of scan */
			return false;
		if (!read_at(fd, at + 2, seg + 2, 7) || be16(seg + 2) < 2)
			return false;
		if (is_frame_marker(marker))
			return found(out, be16(seg + 7), be16(seg + 5));
		at += 2 + (off_t)be16(seg + 2);
	}
	return false;
}

/* PHP's is_numeric: optional blanks around a decimal number. */
static bool php_numeric(const char *s, size_t len, double *out)
{
	char buf[64];
	if (len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	const char *p = buf + strspn(buf, " \t\n\r\v\f");
	const char *digits = p + (*p == '+' || *p == '-');
	bool whole = *digits >= '0' && *digits <= '9';
	bool fraction = *digits == '.' && digits[1] >= '0' && digits[1] <= '9';
	if (!whole && !fraction)
		return false; /* also refuses strtod's hex, inf and nan */
	char *end;
	*out = strtod(p, &end);
	return end[strspn(end, " \t\n\r\v\f")] == '\0';
}

/* The value of the attribute name in the tag [tag, end), or NULL. */
static const char *attribute(const char *tag, const char *end, const char *name, size_t *len)
{
	size_t n = strlen(name);
	for (const char *p = tag; p + n < end; p++) {
		if (*p == '"' || *p == '\'') { /* a value: skip it whole */
			const char *close = memchr(p + 1, *p, (size_t)(end - p - 1));
			if (!close)
				return NULL;
			p = close;
			continue;
		}
		if (!strchr(" \t\r\n", *p) || strncmp(p + 1, name, n) != 0)
			continue;
		const char *q = p + 1 + n;
		q += strspn(q, " \t\r\n");
		if (*q != '=')
			continue;
		q += 1 + strspn(q + 1, " \t\r\n");
		if (*q != '"' && *q != '\'')
			return NULL;
		const char *close = memchr(q + 1, *q, (size_t)(end - q - 1));
		if (!close)
			return NULL;
		*len = (size_t)(close - q - 1);
		return q + 1;
	}
	return NULL;
}

/* The third and fourth numbers of a viewBox ("min-x min-y width height",
 * blanks or commas between). */
static bool viewbox_size(const char *v, size_t len, struct media_size *out)
{
	double n[4];
	size_t count = 0;
	const char *p = v, *end = v + len;
	while (p < end && count < 4) {
		p += strspn(p, " \t\r\n,");
		size_t word = strcspn(p, " \t\r\n,\"'");
		if (word == 0 || p + word > end || !php_numeric(p, word, &n[count]))
			return false;
		count++;
		p += word;
	}
	if (count < 4)
		return false;
	*out = (struct media_size){n[2], n[3], true};
	return true;
}

/* The root element's start tag: the first '<' that does not open a
 * comment, a processing instruction (<?xml ...?>) or a declaration
 * (<!DOCTYPE ...>); NULL when there is none. */
static const char *root_element(const char *text)
{
	const char *p = text;
	while ((p = strchr(p, '<')) != NULL) {
		const char *close = strncmp(p, "<!--", 4) == 0 ? strstr(p + 4, "-->")
		                    : p[1] == '?'              ? strstr(p + 2, "?>")
		                    : p[1] == '!'              ? strchr(p + 2, '>')
		                                               : p;
		if (close == p)
			return p;
		if (!close)
			return NULL;
		p = close + 1;
	}
	return NULL;
}

/* Statamic's reading (SimpleXML): the root's width and height when both
 * are numbers, else its viewBox's, else 300 x 150. */
static bool svg_size(const char *text, struct media_size *out)
{
	const char *tag = root_element(text);
	const char *end = tag ? strchr(tag, '>') : NULL;
	const char *w, *h, *box;
	size_t wlen, hlen, boxlen;
	if (end) {
		w = attribute(tag, end, "width", &wlen);
		h = attribute(tag, end, "height", &hlen);
		if (w && h && php_numeric(w, wlen, &out->width) && php_numeric(h, hlen, &out->height)) {
			out->is_float = true;
			return true;
		}
		box = attribute(tag, end, "viewBox", &boxlen);
		if (box && viewbox_size(box, boxlen, out))
			return true;
	}
	*out = (struct media_size){300, 150, false};
	return true;
}

bool media_image_size(const char *path, const char *ext, struct media_size *out)
{
	bool svg = media_is_svg(ext);
	if (!svg && !ext_in(ext, "png gif jpg jpeg webp"))
		return false;
	/* Non-blocking: a fifo put in the file's place must not stall the read. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return false;
	size_t cap = svg ? SVG_BYTES : HEAD_BYTES;
	unsigned char *head = xmalloc(cap + 1);
	ssize_t n = pread(fd, head, cap, 0);
	bool ok = false;
	if (n >= 0) {
		head[n] = '\0';
		size_t len = (size_t)n;
		if (svg) /* even an empty or broken one: it still has the default size */
			ok = svg_size((const char *)head, out);
		else
			ok = png_size(head, len, out) || gif_size(head, len, out) ||
			     webp_size(head, len, out) || jpeg_size(fd, head, len, out);
	}
	free(head);
	close(fd);
	return ok;
}
