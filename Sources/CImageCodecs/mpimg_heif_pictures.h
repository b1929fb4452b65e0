/* The real size of a HEIF's coded pictures, read from the file's bytes (not part of the public header). */
#ifndef MPIMG_HEIF_PICTURES_H
#define MPIMG_HEIF_PICTURES_H

#include "mpimg_shared.h"

/* Reads every HEVC item's sequence parameter sets (in its hvcC property and in its own data) and every
 * grid's canvas, before libheif decodes anything: libheif 1.15 checks its limits against the ispe box
 * (what the file claims) and then decodes whatever picture the HEVC stream holds.
 * MPIMG_ERROR_TOO_MANY_PIXELS when a picture is over the caller's budget; with check_claims, MPIMG_ERROR_DATA
 * when a picture's size is not the one its ispe box says (beyond the conformance window), or when the
 * boxes those sizes are read from are damaged. */
int mpimg_heif_check_pictures(const uint8_t *data, size_t size, const mpimg_limits *limits, int check_claims,
                              char *message, size_t capacity);

/* A picture's size as its HEVC sequence parameter set gives it. */
typedef struct {
    uint32_t coded_width;   /* pic_width_in_luma_samples */
    uint32_t coded_height;  /* pic_height_in_luma_samples */
    uint32_t width;         /* after the conformance window: the size libde265 returns */
    uint32_t height;
} mpimg_heif_picture;

/* Reads the size from one SPS NAL unit (its 2-byte header first, emulation-prevention bytes still in):
 * H.265 7.3.2.2, with profile_tier_level per 7.3.3 and its sub-layers. 1 with picture filled; 0 when the
 * NAL is not an SPS; -1 when it ends before the size or its size is impossible. */
int mpimg_heif_sps_size(const uint8_t *nal, size_t length, mpimg_heif_picture *picture);

#endif
