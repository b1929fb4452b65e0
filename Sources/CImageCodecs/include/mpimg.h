/* MorningProof's C shim over libjpeg(-turbo), libpng, libheif and libwebp.
 *
 * The only code that includes jpeglib.h, png.h, libheif/heif.h and the webp headers. Every function returns a status, never
 * exits, never longjmps into its caller, and frees everything it allocated on every path.
 * Pixels go into a buffer the caller owns: RGB, 8 bits per channel, row-major, no padding. */
#ifndef MPIMG_H
#define MPIMG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any libjpeg or libpng message (JMSG_LENGTH_MAX is 200). */
#define MPIMG_MESSAGE_CAPACITY 256
/* Largest EXIF payload a JPEG APP1 segment can carry. */
#define MPIMG_EXIF_CAPACITY 65536

typedef enum {
    MPIMG_OK = 0,
    /* The file is damaged, truncated or not what it claims; message says why. */
    MPIMG_ERROR_DATA = 1,
    /* The header claims more pixels than the caller's budget. */
    MPIMG_ERROR_TOO_MANY_PIXELS = 2,
    /* A progressive JPEG with more scans than the caller allows. */
    MPIMG_ERROR_TOO_MANY_SCANS = 3,
    /* The caller's pixel buffer does not match the dimensions reported by the info call. */
    MPIMG_ERROR_BUFFER = 4,
    /* Out of memory inside the library. */
    MPIMG_ERROR_MEMORY = 5,
} mpimg_status;

typedef enum {
    MPIMG_COLOR_UNKNOWN = 0,
    MPIMG_COLOR_GRAY = 1,
    MPIMG_COLOR_GRAY_ALPHA = 2,
    MPIMG_COLOR_RGB = 3,
    MPIMG_COLOR_RGB_ALPHA = 4,
    MPIMG_COLOR_PALETTE = 5,
    MPIMG_COLOR_YCBCR = 6,
    MPIMG_COLOR_CMYK = 7,
    MPIMG_COLOR_YCCK = 8,
} mpimg_color;

/* What the caller allows. */
typedef struct {
    /* Decode at the smallest scale of 1/8, 1/4, 1/2, 1 whose long side is at least this
     * (JPEG only; PNG always decodes at full size). 0 means full size. */
    int working_long_side;
    /* Refuse a header claiming more than this many pixels (width * height). */
    uint64_t max_pixels;
    /* Refuse a progressive JPEG with more scans than this. */
    int max_scans;
} mpimg_limits;

/* What the header says, and the size of the decoded output. */
typedef struct {
    uint32_t width;          /* stored width */
    uint32_t height;         /* stored height */
    int color;               /* mpimg_color of the stored data */
    int bit_depth;           /* bits per sample as stored (8 for JPEG) */
    int progressive;         /* JPEG: progressive (multi-scan) */
    int interlaced;          /* PNG: Adam7 */
    int has_alpha;           /* PNG: alpha channel or tRNS; HEIF, WebP: an alpha channel */
    int adobe_marker;        /* JPEG: Adobe APP14 seen (CMYK values inverted) */
    int scale_denom;         /* JPEG: 1, 2, 4 or 8 */
    uint32_t output_width;   /* width of the pixels the decode call writes */
    uint32_t output_height;  /* height of the pixels the decode call writes */
    size_t exif_length;      /* bytes of TIFF data copied into the exif buffer (0: none) */
} mpimg_info;

/* Reads a JPEG header: fills info and copies the EXIF TIFF data (after "Exif\0\0") of the
 * first APP1 Exif segment into exif (may be NULL). Checks the pixel budget. */
int mpimg_jpeg_read_info(const uint8_t *data, size_t size, const mpimg_limits *limits,
                         mpimg_info *info, uint8_t *exif, size_t exif_capacity,
                         char *message, size_t message_capacity);

/* Decodes a JPEG to RGB8 at the scale read_info chose; pixels must hold exactly
 * output_width * output_height * 3 bytes. Any libjpeg warning (corrupt or truncated data)
 * is an error. */
int mpimg_jpeg_decode(const uint8_t *data, size_t size, const mpimg_limits *limits,
                      mpimg_info *info, uint8_t *pixels, size_t pixels_size,
                      char *message, size_t message_capacity);

/* Decodes a JPEG one row at a time at the scale limits ask for, adding each RGB channel into sums
 * (the image is never held whole): for channel means. Same errors as mpimg_jpeg_decode. */
int mpimg_jpeg_channel_sums(const uint8_t *data, size_t size, const mpimg_limits *limits,
                            mpimg_info *info, uint64_t sums[3],
                            char *message, size_t message_capacity);

/* Reads a PNG header (IHDR) and checks the pixel budget. */
int mpimg_png_read_info(const uint8_t *data, size_t size, const mpimg_limits *limits,
                        mpimg_info *info, char *message, size_t message_capacity);

/* Decodes a PNG at full size to RGB8, 16-bit samples treated as sRGB, alpha composited
 * over white; pixels must hold exactly width * height * 3 bytes. */
int mpimg_png_decode(const uint8_t *data, size_t size, const mpimg_limits *limits,
                     mpimg_info *info, uint8_t *pixels, size_t pixels_size,
                     char *message, size_t message_capacity);

/* Encodes RGBA8 pixels (row-major, no padding, width * height * 4 bytes) as a PNG through libpng's
 * png_image API. With out == NULL it only sets *out_size to the size the PNG needs; then call it
 * again with a buffer of *out_size bytes, and *out_size becomes the bytes written. Returns
 * MPIMG_ERROR_BUFFER when the buffer is too small (*out_size then holds the size needed). */
int mpimg_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height,
                          uint8_t *out, size_t *out_size, char *message, size_t message_capacity);

/* Reads a HEIF/HEIC header (the primary image's size after its rotation and mirroring) and copies
 * the TIFF data of its Exif metadata block into exif (may be NULL). Checks the pixel budget before
 * any pixel is decoded. */
int mpimg_heif_read_info(const uint8_t *data, size_t size, const mpimg_limits *limits,
                         mpimg_info *info, uint8_t *exif, size_t exif_capacity,
                         char *message, size_t message_capacity);

/* Decodes a HEIF/HEIC's primary image at full size to RGB8, rotated and mirrored as the file says
 * (irot, imir), 10-bit samples reduced to 8, alpha composited over white; pixels must hold exactly
 * width * height * 3 bytes. */
int mpimg_heif_decode(const uint8_t *data, size_t size, const mpimg_limits *limits,
                      mpimg_info *info, uint8_t *pixels, size_t pixels_size,
                      char *message, size_t message_capacity);

/* Reads a WebP header (the VP8X canvas, or the VP8/VP8L frame) and copies the TIFF data of its
 * EXIF chunk into exif (may be NULL). Checks the pixel budget before any pixel is decoded, and that
 * the file is whole. An animated WebP is refused. */
int mpimg_webp_read_info(const uint8_t *data, size_t size, const mpimg_limits *limits,
                         mpimg_info *info, uint8_t *exif, size_t exif_capacity,
                         char *message, size_t message_capacity);

/* Decodes a WebP at full size to RGB8, alpha composited over white; pixels must hold exactly
 * width * height * 3 bytes. */
int mpimg_webp_decode(const uint8_t *data, size_t size, const mpimg_limits *limits,
                      mpimg_info *info, uint8_t *pixels, size_t pixels_size,
                      char *message, size_t message_capacity);

#ifdef __cplusplus
}
#endif

#endif
