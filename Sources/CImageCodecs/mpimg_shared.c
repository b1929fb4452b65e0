/* Helpers of the HEIF and WebP halves of the shim: messages, the pixel budget, alpha, EXIF. */
#include "mpimg_shared.h"

#include <stdio.h>
#include <string.h>

void mpimg_shared_message(char *message, size_t capacity, const char *text) {
    if (message == NULL || capacity == 0) return;
    snprintf(message, capacity, "%s", text == NULL ? "" : text);
}

int mpimg_shared_budget(const mpimg_info *info, const mpimg_limits *limits, char *message, size_t capacity) {
    uint64_t pixels = (uint64_t)info->width * (uint64_t)info->height;
    if (limits->max_pixels > 0 && pixels > limits->max_pixels) {
        char text[MPIMG_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "%ux%u is %llu pixels, over the limit of %llu", info->width, info->height,
                 (unsigned long long)pixels, (unsigned long long)limits->max_pixels);
        mpimg_shared_message(message, capacity, text);
        return MPIMG_ERROR_TOO_MANY_PIXELS;
    }
    return MPIMG_OK;
}

void mpimg_shared_over_white(const uint8_t *rgba, size_t rgba_stride, uint32_t width, uint32_t height,
                             uint8_t *rgb) {
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *in = rgba + (size_t)y * rgba_stride;
        uint8_t *out = rgb + (size_t)y * width * 3;
        for (uint32_t x = 0; x < width; x++) {
            unsigned alpha = in[4 * x + 3];
            for (int c = 0; c < 3; c++) {
                out[3 * x + c] = (uint8_t)((in[4 * x + c] * alpha + 255 * (255 - alpha) + 127) / 255);
            }
        }
    }
}

void mpimg_shared_copy_exif(const uint8_t *bytes, size_t length, uint8_t *exif, size_t capacity,
                            mpimg_info *info) {
    info->exif_length = 0;
    if (exif == NULL || bytes == NULL) return;
    if (length >= 6 && memcmp(bytes, "Exif\0\0", 6) == 0) {
        bytes += 6;
        length -= 6;
    }
    if (length < 8 || !(memcmp(bytes, "II*\0", 4) == 0 || memcmp(bytes, "MM\0*", 4) == 0)) return;
    size_t copied = length < capacity ? length : capacity;
    memcpy(exif, bytes, copied);
    info->exif_length = copied;
}
