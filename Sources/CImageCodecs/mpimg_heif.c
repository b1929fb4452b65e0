/* HEIF/HEIC decoding through libheif's C API (errors are returned as values: no setjmp). Reading
 * the boxes decodes no pixel; the primary image's size is checked against the caller's budget before
 * heif_decode_image allocates anything. */
#include "mpimg_heif_pictures.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

/* libheif's own limit is 32768 a side, refused while reading the boxes with a message that does
 * not say whose limit it is. Raised to this so that the caller's pixel budget, which names the size
 * and how to raise the limit, decides; nothing is allocated by the size before that check. */
#define MPIMG_HEIF_SIDE_LIMIT (1 << 20)

typedef struct {
    struct heif_context *context;
    struct heif_image_handle *handle;
} mpimg_heif_file;

static void mpimg_heif_close(mpimg_heif_file *file) {
    if (file->handle != NULL) heif_image_handle_release(file->handle);
    if (file->context != NULL) heif_context_free(file->context);
    file->handle = NULL;
    file->context = NULL;
}

/* A libheif error in words; data that ends early says so. */
static int mpimg_heif_error(struct heif_error error, char *message, size_t capacity) {
    char text[MPIMG_MESSAGE_CAPACITY];
    const char *said = error.message != NULL ? error.message : "unknown error";
    if (error.subcode == heif_suberror_End_of_data) {
        snprintf(text, sizeof text, "the file ends early: %s", said);
    } else {
        snprintf(text, sizeof text, "%s", said);
    }
    size_t length = strlen(text);
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == ' ')) text[--length] = '\0';
    mpimg_shared_message(message, capacity, text);
    return error.code == heif_error_Memory_allocation_error && error.subcode != heif_suberror_Security_limit_exceeded
               ? MPIMG_ERROR_MEMORY
               : MPIMG_ERROR_DATA;
}

/* Clears message, reads the boxes and the primary image's handle, fills info and checks the budget: on the
 * size the header claims, then on the real size of every coded picture (libheif 1.15 would decode a picture
 * bigger than its ispe box says). With check_claims (before decoding), a picture whose size is not the one
 * its header says is refused too; the header alone (read_info) still reports what the file claims. */
static int mpimg_heif_open(const uint8_t *data, size_t size, const mpimg_limits *limits, int check_claims,
                           mpimg_info *info, mpimg_heif_file *file, char *message, size_t capacity) {
    mpimg_shared_message(message, capacity, "");
    memset(info, 0, sizeof *info);
    memset(file, 0, sizeof *file);
    if (data == NULL || size < 12) {
        mpimg_shared_message(message, capacity, "HEIF data ends inside the header");
        return MPIMG_ERROR_DATA;
    }
    file->context = heif_context_alloc();
    if (file->context == NULL) {
        mpimg_shared_message(message, capacity, "out of memory");
        return MPIMG_ERROR_MEMORY;
    }
    heif_context_set_maximum_image_size_limit(file->context, MPIMG_HEIF_SIDE_LIMIT);
    /* Tiles are decoded on the calling thread: the caller's pool bounds the work, not libheif's threads. */
    heif_context_set_max_decoding_threads(file->context, 0);
    struct heif_error error = heif_context_read_from_memory_without_copy(file->context, data, size, NULL);
    if (error.code == heif_error_Ok) error = heif_context_get_primary_image_handle(file->context, &file->handle);
    if (error.code != heif_error_Ok) {
        int status = mpimg_heif_error(error, message, capacity);
        mpimg_heif_close(file);
        return status;
    }
    int width = heif_image_handle_get_width(file->handle);
    int height = heif_image_handle_get_height(file->handle);
    if (width <= 0 || height <= 0) {
        mpimg_shared_message(message, capacity, "the HEIF image has no size");
        mpimg_heif_close(file);
        return MPIMG_ERROR_DATA;
    }
    info->width = (uint32_t)width;
    info->height = (uint32_t)height;
    int status = mpimg_shared_budget(info, limits, message, capacity);
    if (status == MPIMG_OK) status = mpimg_heif_check_pictures(data, size, limits, check_claims, message, capacity);
    if (status != MPIMG_OK) {
        mpimg_heif_close(file);
        return status;
    }
    int bits = heif_image_handle_get_luma_bits_per_pixel(file->handle);
    info->bit_depth = bits > 0 ? bits : 8;
    info->has_alpha = heif_image_handle_has_alpha_channel(file->handle) != 0;
    info->color = MPIMG_COLOR_YCBCR;
    info->scale_denom = 1;
    info->output_width = info->width;
    info->output_height = info->height;
    return MPIMG_OK;
}

static uint32_t mpimg_heif_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* The primary image's first Exif block: 4 bytes giving the offset of the TIFF header, then the data. */
static void mpimg_heif_exif(const struct heif_image_handle *handle, uint8_t *exif, size_t capacity,
                            mpimg_info *info) {
    heif_item_id id;
    if (exif == NULL || heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) != 1) return;
    size_t size = heif_image_handle_get_metadata_size(handle, id);
    if (size < 4) return;
    uint8_t *block = malloc(size);
    if (block == NULL) return;
    if (heif_image_handle_get_metadata(handle, id, block).code == heif_error_Ok) {
        uint32_t offset = mpimg_heif_be32(block);
        if ((uint64_t)offset + 4 < size) {
            mpimg_shared_copy_exif(block + 4 + offset, size - 4 - offset, exif, capacity, info);
        }
    }
    free(block);
}

int mpimg_heif_read_info(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                         uint8_t *exif, size_t exif_capacity, char *message, size_t message_capacity) {
    mpimg_heif_file file;
    int status = mpimg_heif_open(data, size, limits, 0, info, &file, message, message_capacity);
    if (status != MPIMG_OK) return status;
    mpimg_heif_exif(file.handle, exif, exif_capacity, info);
    mpimg_heif_close(&file);
    return MPIMG_OK;
}

/* Copies the decoded interleaved plane into the caller's RGB buffer. */
static int mpimg_heif_copy(const struct heif_image *image, const mpimg_info *info, uint8_t *pixels,
                           char *message, size_t capacity) {
    if (heif_image_get_width(image, heif_channel_interleaved) != (int)info->width ||
        heif_image_get_height(image, heif_channel_interleaved) != (int)info->height) {
        mpimg_shared_message(message, capacity, "the decoded image is not the size its header says");
        return MPIMG_ERROR_DATA;
    }
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    if (plane == NULL || stride <= 0) {
        mpimg_shared_message(message, capacity, "libheif returned no pixels");
        return MPIMG_ERROR_DATA;
    }
    if (info->has_alpha) {
        mpimg_shared_over_white(plane, (size_t)stride, info->width, info->height, pixels);
        return MPIMG_OK;
    }
    for (uint32_t y = 0; y < info->height; y++) {
        memcpy(pixels + (size_t)y * info->width * 3, plane + (size_t)y * (size_t)stride, (size_t)info->width * 3);
    }
    return MPIMG_OK;
}

int mpimg_heif_decode(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                      uint8_t *pixels, size_t pixels_size, char *message, size_t message_capacity) {
    mpimg_heif_file file;
    int status = mpimg_heif_open(data, size, limits, 1, info, &file, message, message_capacity);
    if (status != MPIMG_OK) return status;
    if (pixels == NULL || pixels_size != (size_t)info->width * (size_t)info->height * 3) {
        mpimg_shared_message(message, message_capacity, "pixel buffer does not match the image size");
        mpimg_heif_close(&file);
        return MPIMG_ERROR_BUFFER;
    }
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options == NULL) {
        mpimg_shared_message(message, message_capacity, "out of memory");
        mpimg_heif_close(&file);
        return MPIMG_ERROR_MEMORY;
    }
    options->convert_hdr_to_8bit = 1;
    /* Damaged data is an error, not a picture with decoding warnings. */
    options->strict_decoding = 1;
    struct heif_image *image = NULL;
    struct heif_error error = heif_decode_image(file.handle, &image, heif_colorspace_RGB,
                                                info->has_alpha ? heif_chroma_interleaved_RGBA
                                                                : heif_chroma_interleaved_RGB,
                                                options);
    heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) {
        status = mpimg_heif_error(error, message, message_capacity);
    } else {
        status = mpimg_heif_copy(image, info, pixels, message, message_capacity);
    }
    if (image != NULL) heif_image_release(image);
    mpimg_heif_close(&file);
    return status;
}
