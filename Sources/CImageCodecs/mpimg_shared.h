/* What the PNG, HEIF and WebP halves of the shim share (not part of the public header). */
#ifndef MPIMG_SHARED_H
#define MPIMG_SHARED_H

#include "mpimg.h"

/* Copies text into message, cut to its capacity and always terminated. */
void mpimg_shared_message(char *message, size_t capacity, const char *text);

/* MPIMG_ERROR_TOO_MANY_PIXELS, with "WxH is N pixels, over the limit of M", when info's size is over
 * the caller's budget; MPIMG_OK otherwise. */
int mpimg_shared_budget(const mpimg_info *info, const mpimg_limits *limits, char *message, size_t capacity);

/* Writes width * height RGBA8 pixels as RGB8 over a white background. */
void mpimg_shared_over_white(const uint8_t *rgba, size_t rgba_stride, uint32_t width, uint32_t height,
                             uint8_t *rgb);

/* Copies EXIF TIFF data (after an optional "Exif\0\0") into exif, cut to its capacity; sets
 * info->exif_length. EXIF is advisory: anything that is not TIFF data is left out, not an error. */
void mpimg_shared_copy_exif(const uint8_t *bytes, size_t length, uint8_t *exif, size_t capacity,
                            mpimg_info *info);

#endif
