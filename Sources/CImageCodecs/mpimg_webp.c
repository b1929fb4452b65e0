/* WebP decoding through libwebp's decode API, and its EXIF chunk through libwebpdemux. libwebp
 * returns status codes (no setjmp). The canvas size is checked against the caller's budget before
 * libwebp sees the file: libwebp refuses a canvas over 2^32 pixels as a bitstream error, which would
 * not name the size. */
#include "mpimg_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

static uint32_t mpimg_webp_le24(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16); }

static uint32_t mpimg_webp_le32(const uint8_t *p) { return mpimg_webp_le24(p) | ((uint32_t)p[3] << 24); }

/* A libwebp status in words; a file that ends early says so. */
static int mpimg_webp_status(VP8StatusCode status, char *message, size_t capacity) {
    switch (status) {
    case VP8_STATUS_OK: return MPIMG_OK;
    case VP8_STATUS_OUT_OF_MEMORY: mpimg_shared_message(message, capacity, "out of memory"); return MPIMG_ERROR_MEMORY;
    case VP8_STATUS_NOT_ENOUGH_DATA: mpimg_shared_message(message, capacity, "the image data ends early"); break;
    case VP8_STATUS_UNSUPPORTED_FEATURE: mpimg_shared_message(message, capacity, "a WebP feature libwebp does not decode"); break;
    case VP8_STATUS_INVALID_PARAM: mpimg_shared_message(message, capacity, "invalid WebP parameters"); break;
    default: mpimg_shared_message(message, capacity, "bitstream error"); break;
    }
    return MPIMG_ERROR_DATA;
}

/* Clears message; the RIFF header, the canvas size (VP8X's, or the frame's through WebPGetFeatures), the budget. */
static int mpimg_webp_header(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                             char *message, size_t capacity) {
    mpimg_shared_message(message, capacity, "");
    memset(info, 0, sizeof *info);
    if (data == NULL || size < 12) {
        mpimg_shared_message(message, capacity, "WebP data ends inside the header");
        return MPIMG_ERROR_DATA;
    }
    if (memcmp(data, "RIFF", 4) != 0 || memcmp(data + 8, "WEBP", 4) != 0) {
        mpimg_shared_message(message, capacity, "not a WebP signature");
        return MPIMG_ERROR_DATA;
    }
    uint64_t declared = (uint64_t)mpimg_webp_le32(data + 4) + 8;
    if (declared > size) {
        char text[MPIMG_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "the file ends early: its RIFF header says %llu bytes, the file has %zu",
                 (unsigned long long)declared, size);
        mpimg_shared_message(message, capacity, text);
        return MPIMG_ERROR_DATA;
    }
    if (size >= 30 && memcmp(data + 12, "VP8X", 4) == 0) {
        info->width = mpimg_webp_le24(data + 24) + 1;
        info->height = mpimg_webp_le24(data + 27) + 1;
        int status = mpimg_shared_budget(info, limits, message, capacity);
        if (status != MPIMG_OK) return status;
    }
    WebPBitstreamFeatures features;
    int status = mpimg_webp_status(WebPGetFeatures(data, size, &features), message, capacity);
    if (status != MPIMG_OK) return status;
    if (features.width <= 0 || features.height <= 0) {
        mpimg_shared_message(message, capacity, "the WebP header has no size");
        return MPIMG_ERROR_DATA;
    }
    info->width = (uint32_t)features.width;
    info->height = (uint32_t)features.height;
    status = mpimg_shared_budget(info, limits, message, capacity);
    if (status != MPIMG_OK) return status;
    if (features.has_animation) {
        mpimg_shared_message(message, capacity, "an animated WebP is not a photo");
        return MPIMG_ERROR_DATA;
    }
    info->has_alpha = features.has_alpha != 0;
    info->color = features.format == 2 ? (info->has_alpha ? MPIMG_COLOR_RGB_ALPHA : MPIMG_COLOR_RGB)
                                       : MPIMG_COLOR_YCBCR;
    info->bit_depth = 8;
    info->scale_denom = 1;
    info->output_width = info->width;
    info->output_height = info->height;
    return MPIMG_OK;
}

int mpimg_webp_read_info(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                         uint8_t *exif, size_t exif_capacity, char *message, size_t message_capacity) {
    int status = mpimg_webp_header(data, size, limits, info, message, message_capacity);
    if (status != MPIMG_OK) return status;
    /* The demuxer checks every chunk's size against the file: a damaged chunk list is refused here. */
    WebPData whole = {data, size};
    WebPDemuxer *demuxer = WebPDemux(&whole);
    if (demuxer == NULL) {
        mpimg_shared_message(message, message_capacity, "the WebP chunks are damaged or the file ends early");
        return MPIMG_ERROR_DATA;
    }
    WebPChunkIterator chunk;
    if (WebPDemuxGetChunk(demuxer, "EXIF", 1, &chunk)) {
        mpimg_shared_copy_exif(chunk.chunk.bytes, chunk.chunk.size, exif, exif_capacity, info);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demuxer);
    return MPIMG_OK;
}

int mpimg_webp_decode(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                      uint8_t *pixels, size_t pixels_size, char *message, size_t message_capacity) {
    int status = mpimg_webp_header(data, size, limits, info, message, message_capacity);
    if (status != MPIMG_OK) return status;
    if (pixels == NULL || pixels_size != (size_t)info->width * (size_t)info->height * 3) {
        mpimg_shared_message(message, message_capacity, "pixel buffer does not match the image size");
        return MPIMG_ERROR_BUFFER;
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        mpimg_shared_message(message, message_capacity, "libwebp version mismatch");
        return MPIMG_ERROR_DATA;
    }
    size_t channels = info->has_alpha ? 4 : 3;
    uint8_t *target = pixels;
    if (info->has_alpha) {
        target = malloc((size_t)info->width * info->height * 4);
        if (target == NULL) {
            mpimg_shared_message(message, message_capacity, "out of memory");
            return MPIMG_ERROR_MEMORY;
        }
    }
    config.output.colorspace = info->has_alpha ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = target;
    config.output.u.RGBA.stride = (int)(info->width * channels);
    config.output.u.RGBA.size = (size_t)info->width * info->height * channels;
    status = mpimg_webp_status(WebPDecode(data, size, &config), message, message_capacity);
    WebPFreeDecBuffer(&config.output);
    if (status == MPIMG_OK && info->has_alpha) {
        mpimg_shared_over_white(target, (size_t)info->width * 4, info->width, info->height, pixels);
    }
    if (target != pixels) free(target);
    return status;
}
