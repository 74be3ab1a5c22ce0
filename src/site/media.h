/*
 * media: what an asset's file is, told by its extension and, for an
 * image, by its first bytes: Statamic's kinds of file (Asset::isImage and
 * its siblings, the same extension lists, case-insensitive), the MIME
 * type of the common extensions, and an image's width and height read
 * from its header (png, gif, jpeg, webp, svg). The header is read when
 * the index is built, never while a request is answered.
 */
#ifndef CMS_API_SITE_MEDIA_H
#define CMS_API_SITE_MEDIA_H

#include <stdbool.h>

/* The kinds Statamic tells apart; ext is the extension without its dot. */
bool media_is_image(const char *ext);   /* jpg jpeg png gif webp avif */
bool media_is_svg(const char *ext);     /* svg */
bool media_is_video(const char *ext);   /* h264 mp4 m4v ogv webm mov */
bool media_is_audio(const char *ext);   /* aac flac m4a mp3 ogg wav */
/* Statamic's list of what Google Docs previews (Asset::isPreviewable):
 * office documents, text and code, pdf, tiff, ttf, zip, rar, ... (not the
 * images: a browser shows those itself). */
bool media_is_previewable(const char *ext);
/* Images and svg and videos have a width and a height (hasDimensions). */
bool media_has_dimensions(const char *ext);
/* Audio and videos have a duration (hasDuration). */
bool media_has_duration(const char *ext);

/* The MIME type of a file with that extension, or NULL when it is not
 * one of the common ones. */
const char *media_mime_type(const char *ext);

struct media_size {
	double width, height;
	bool is_float; /* an svg's size (Statamic reads it as a float) */
};

/*
 * The width and height of the image at path (an existing regular file),
 * by its extension: png, gif, jpeg and webp from their headers; an svg
 * from its root element's numeric width and height, else its viewBox,
 * else the 300 x 150 every browser gives an svg without a size (Statamic
 * too). Returns false for any other kind of file, one that cannot be
 * read, and a header that names no size.
 */
bool media_image_size(const char *path, const char *ext, struct media_size *out);

#endif
