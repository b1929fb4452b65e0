/* PNG decoding and encoding through libpng's simplified png_image API (no setjmp needed here). */
#include "mpimg_shared.h"

#include <stdio.h>
#include <string.h>

#include <png.h>

static void mpimg_png_message(char *message, size_t capacity, const char *text) {
    if (message == NULL || capacity == 0) return;
    snprintf(message, capacity, "%s", text);
}

static uint32_t mpimg_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* Reads IHDR straight from the bytes: colour type, bit depth and interlace are not in png_image. */
static int mpimg_png_ihdr(const uint8_t *data, size_t size, mpimg_info *info, char *message, size_t capacity) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (size < 33 || memcmp(data, signature, 8) != 0) {
        mpimg_png_message(message, capacity, size < 33 ? "PNG data ends inside the header" : "not a PNG signature");
        return MPIMG_ERROR_DATA;
    }
    if (mpimg_be32(data + 8) != 13 || memcmp(data + 12, "IHDR", 4) != 0) {
        mpimg_png_message(message, capacity, "the first chunk is not IHDR");
        return MPIMG_ERROR_DATA;
    }
    memset(info, 0, sizeof *info);
    info->width = mpimg_be32(data + 16);
    info->height = mpimg_be32(data + 20);
    info->bit_depth = data[24];
    int color_type = data[25];
    info->interlaced = data[28] == 1;
    switch (color_type) {
    case 0: info->color = MPIMG_COLOR_GRAY; break;
    case 2: info->color = MPIMG_COLOR_RGB; break;
    case 3: info->color = MPIMG_COLOR_PALETTE; break;
    case 4: info->color = MPIMG_COLOR_GRAY_ALPHA; break;
    case 6: info->color = MPIMG_COLOR_RGB_ALPHA; break;
    default:
        mpimg_png_message(message, capacity, "unknown PNG colour type");
        return MPIMG_ERROR_DATA;
    }
    info->has_alpha = color_type == 4 || color_type == 6;
    info->scale_denom = 1;
    info->output_width = info->width;
    info->output_height = info->height;
    return MPIMG_OK;
}

static uint32_t mpimg_crc32(const uint8_t *bytes, size_t length) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < length; i++) {
        crc ^= bytes[i];
        for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xFFFFFFFFu;
}

/* Walks the chunks to IEND. libpng's simplified API stops reading after the image data, so a file
 * cut after its last IDAT, or a damaged chunk after it, would pass; this refuses both. IDAT CRCs are
 * left to libpng; every other chunk's CRC is checked here (they are small). */
static int mpimg_png_check_chunks(const uint8_t *data, size_t size, char *message, size_t capacity) {
    size_t offset = 8;
    while (offset + 12 <= size) {
        uint32_t length = mpimg_be32(data + offset);
        if ((uint64_t)length + 12 > size - offset) break;
        const uint8_t *type = data + offset + 4;
        if (memcmp(type, "IDAT", 4) != 0 &&
            mpimg_crc32(type, (size_t)length + 4) != mpimg_be32(data + offset + 8 + length)) {
            char text[64];
            snprintf(text, sizeof text, "%c%c%c%c: CRC error", type[0], type[1], type[2], type[3]);
            mpimg_png_message(message, capacity, text);
            return MPIMG_ERROR_DATA;
        }
        if (memcmp(type, "IEND", 4) == 0) return MPIMG_OK;
        offset += (size_t)length + 12;
    }
    mpimg_png_message(message, capacity, "the file ends before its IEND chunk");
    return MPIMG_ERROR_DATA;
}

/* libpng reports some damage as warnings (a bad CRC on an ancillary chunk, extra image data).
 * Those are errors for us; warnings about colour profiles are not. */
static int mpimg_png_warning_is_damage(const char *text) {
    static const char *const damage[] = {"CRC", "image data", "compressed data", "truncat", "Extra", "extra"};
    for (size_t i = 0; i < sizeof damage / sizeof damage[0]; i++) {
        if (strstr(text, damage[i]) != NULL && strstr(text, "iCCP") == NULL && strstr(text, "profile") == NULL) {
            return 1;
        }
    }
    return 0;
}

static int mpimg_png_begin(png_image *image, const uint8_t *data, size_t size, mpimg_info *info,
                           const mpimg_limits *limits, char *message, size_t capacity) {
    int status = mpimg_png_ihdr(data, size, info, message, capacity);
    if (status != MPIMG_OK) return status;
    status = mpimg_shared_budget(info, limits, message, capacity);
    if (status != MPIMG_OK) return status;
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(image, data, size)) {
        mpimg_png_message(message, capacity, image->message);
        png_image_free(image);
        return MPIMG_ERROR_DATA;
    }
    if (image->width != info->width || image->height != info->height) {
        mpimg_png_message(message, capacity, "IHDR and libpng disagree on the size");
        png_image_free(image);
        return MPIMG_ERROR_DATA;
    }
    if ((image->format & PNG_FORMAT_FLAG_ALPHA) != 0) info->has_alpha = 1;
    return MPIMG_OK;
}

int mpimg_png_read_info(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                        char *message, size_t message_capacity) {
    png_image image;
    mpimg_png_message(message, message_capacity, "");
    if (data == NULL) return MPIMG_ERROR_DATA;
    int status = mpimg_png_begin(&image, data, size, info, limits, message, message_capacity);
    if (status != MPIMG_OK) return status;
    png_image_free(&image);
    return MPIMG_OK;
}

int mpimg_png_decode(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                     uint8_t *pixels, size_t pixels_size, char *message, size_t message_capacity) {
    png_image image;
    mpimg_png_message(message, message_capacity, "");
    if (data == NULL) return MPIMG_ERROR_DATA;
    int status = mpimg_png_begin(&image, data, size, info, limits, message, message_capacity);
    if (status != MPIMG_OK) return status;
    if ((uint64_t)info->width * 3 > (uint64_t)INT32_MAX) {
        mpimg_png_message(message, message_capacity, "PNG rows are too wide");
        png_image_free(&image);
        return MPIMG_ERROR_TOO_MANY_PIXELS;
    }
    if (pixels == NULL || pixels_size != (size_t)info->width * (size_t)info->height * 3) {
        mpimg_png_message(message, message_capacity, "pixel buffer does not match the image size");
        png_image_free(&image);
        return MPIMG_ERROR_BUFFER;
    }
    if (mpimg_png_check_chunks(data, size, message, message_capacity) != MPIMG_OK) {
        png_image_free(&image);
        return MPIMG_ERROR_DATA;
    }
    /* 16-bit files without gAMA/sRGB are sRGB-encoded (mid grey 32768 -> 128), not linear. */
    image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
    image.format = PNG_FORMAT_RGB;
    png_color white = {255, 255, 255};
    if (!png_image_finish_read(&image, &white, pixels, (png_int_32)(info->width * 3), NULL)) {
        mpimg_png_message(message, message_capacity, image.message);
        png_image_free(&image);
        return MPIMG_ERROR_DATA;
    }
    if ((image.warning_or_error & PNG_IMAGE_WARNING) != 0 && mpimg_png_warning_is_damage(image.message)) {
        mpimg_png_message(message, message_capacity, image.message);
        png_image_free(&image);
        return MPIMG_ERROR_DATA;
    }
    png_image_free(&image);
    return MPIMG_OK;
}

int mpimg_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, uint8_t *out, size_t *out_size,
                          char *message, size_t message_capacity) {
    mpimg_png_message(message, message_capacity, "");
    if (pixels == NULL || out_size == NULL || width == 0 || height == 0 || (uint64_t)width * 4 > (uint64_t)INT32_MAX) {
        mpimg_png_message(message, message_capacity, "no pixels to encode");
        return MPIMG_ERROR_BUFFER;
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    png_alloc_size_t capacity = out == NULL ? 0 : (png_alloc_size_t)*out_size;
    png_alloc_size_t size = capacity;
    int written = png_image_write_to_memory(&image, out, &size, 0, pixels, (png_int_32)(width * 4), NULL);
    int status = MPIMG_OK;
    if (!written) {
        /* Too small a buffer: libpng says how much it needs. Otherwise a real failure. */
        if (out != NULL && size > capacity) {
            status = MPIMG_ERROR_BUFFER;
        } else {
            mpimg_png_message(message, message_capacity, image.message[0] ? image.message : "PNG encoding failed");
            status = MPIMG_ERROR_MEMORY;
        }
    }
    /* With no buffer, a success only reports the size the PNG needs. */
    *out_size = (size_t)size;
    png_image_free(&image);
    return status;
}
