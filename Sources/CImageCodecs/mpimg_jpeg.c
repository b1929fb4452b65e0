/* JPEG decoding through libjpeg(-turbo): the setjmp, the error manager and the cleanup. */
#include "mpimg.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    int status;  /* mpimg_status to return after the longjmp */
    char *message;
    size_t message_capacity;
} mpimg_jpeg_error;

typedef struct {
    struct jpeg_progress_mgr base;
    int max_scans;
} mpimg_jpeg_progress;

static void mpimg_copy_message(char *message, size_t capacity, const char *text) {
    if (message == NULL || capacity == 0) return;
    snprintf(message, capacity, "%s", text);
}

/* libjpeg's fatal errors: keep the message, jump back to the shim function. */
static void mpimg_jpeg_error_exit(j_common_ptr cinfo) {
    mpimg_jpeg_error *err = (mpimg_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    mpimg_copy_message(err->message, err->message_capacity, text);
    if (err->status == MPIMG_OK) {
        err->status = (cinfo->err->msg_code == JERR_OUT_OF_MEMORY) ? MPIMG_ERROR_MEMORY : MPIMG_ERROR_DATA;
    }
    longjmp(err->escape, 1);
}

/* Warnings (level -1) mean corrupt or truncated data: a truncated file would otherwise decode
 * "successfully" with grey rows. Treat every warning as an error. Trace messages are dropped. */
static void mpimg_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level < 0) {
        mpimg_jpeg_error_exit(cinfo);
    }
}

static void mpimg_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* Called between chunks of input; refuses a progressive file with too many scans. */
static void mpimg_jpeg_progress_monitor(j_common_ptr cinfo) {
    mpimg_jpeg_progress *progress = (mpimg_jpeg_progress *)cinfo->progress;
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (progress->max_scans > 0 && dinfo->input_scan_number > progress->max_scans) {
        mpimg_jpeg_error *err = (mpimg_jpeg_error *)cinfo->err;
        char text[MPIMG_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "more than %d scans", progress->max_scans);
        mpimg_copy_message(err->message, err->message_capacity, text);
        err->status = MPIMG_ERROR_TOO_MANY_SCANS;
        longjmp(err->escape, 1);
    }
}

static int mpimg_jpeg_color(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return MPIMG_COLOR_GRAY;
    case JCS_RGB: return MPIMG_COLOR_RGB;
    case JCS_YCbCr: return MPIMG_COLOR_YCBCR;
    case JCS_CMYK: return MPIMG_COLOR_CMYK;
    case JCS_YCCK: return MPIMG_COLOR_YCCK;
    default: return MPIMG_COLOR_UNKNOWN;
    }
}

/* Smallest of 1/8, 1/4, 1/2, 1 whose long side still covers the working size. */
static int mpimg_jpeg_scale_denom(uint32_t width, uint32_t height, int working_long_side) {
    if (working_long_side <= 0) return 1;
    uint64_t long_side = width > height ? width : height;
    for (int denom = 8; denom > 1; denom /= 2) {
        uint64_t scaled = (long_side + (uint64_t)denom - 1) / (uint64_t)denom;
        if (scaled >= (uint64_t)working_long_side) return denom;
    }
    return 1;
}

static void mpimg_jpeg_copy_exif(j_decompress_ptr cinfo, mpimg_info *info, uint8_t *exif, size_t capacity) {
    info->exif_length = 0;
    if (exif == NULL || capacity == 0) return;
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < 6) continue;
        if (memcmp(marker->data, "Exif\0\0", 6) != 0) continue;
        size_t length = marker->data_length - 6;
        if (length > capacity) length = capacity;
        memcpy(exif, marker->data + 6, length);
        info->exif_length = length;
        return;
    }
}

/* Runs read_header and fills info; shared by both entry points. Must be called after setjmp. */
static int mpimg_jpeg_header(j_decompress_ptr cinfo, mpimg_jpeg_error *err, const mpimg_limits *limits,
                             mpimg_info *info) {
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    if (jpeg_read_header(cinfo, TRUE) != JPEG_HEADER_OK) {
        mpimg_copy_message(err->message, err->message_capacity, "no image in the JPEG data");
        return MPIMG_ERROR_DATA;
    }
    memset(info, 0, sizeof *info);
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->color = mpimg_jpeg_color(cinfo->jpeg_color_space);
    info->bit_depth = cinfo->data_precision;
    info->progressive = cinfo->progressive_mode ? 1 : 0;
    info->adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    uint64_t pixels = (uint64_t)cinfo->image_width * (uint64_t)cinfo->image_height;
    if (limits->max_pixels > 0 && pixels > limits->max_pixels) {
        char text[MPIMG_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "%ux%u is %llu pixels, over the limit of %llu", cinfo->image_width,
                 cinfo->image_height, (unsigned long long)pixels, (unsigned long long)limits->max_pixels);
        mpimg_copy_message(err->message, err->message_capacity, text);
        return MPIMG_ERROR_TOO_MANY_PIXELS;
    }
    if (info->color == MPIMG_COLOR_UNKNOWN) {
        mpimg_copy_message(err->message, err->message_capacity, "unsupported JPEG colour space");
        return MPIMG_ERROR_DATA;
    }
    int denom = mpimg_jpeg_scale_denom(cinfo->image_width, cinfo->image_height, limits->working_long_side);
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)denom;
    if (info->color == MPIMG_COLOR_CMYK || info->color == MPIMG_COLOR_YCCK) {
        cinfo->out_color_space = JCS_CMYK;
    } else {
        cinfo->out_color_space = JCS_RGB;
    }
    jpeg_calc_output_dimensions(cinfo);
    info->scale_denom = denom;
    info->output_width = cinfo->output_width;
    info->output_height = cinfo->output_height;
    return MPIMG_OK;
}

static void mpimg_jpeg_setup(j_decompress_ptr cinfo, mpimg_jpeg_error *err, mpimg_jpeg_progress *progress,
                             const mpimg_limits *limits, char *message, size_t message_capacity) {
    memset(err, 0, sizeof *err);
    memset(progress, 0, sizeof *progress);
    cinfo->err = jpeg_std_error(&err->base);
    err->base.error_exit = mpimg_jpeg_error_exit;
    err->base.emit_message = mpimg_jpeg_emit_message;
    err->base.output_message = mpimg_jpeg_output_message;
    err->status = MPIMG_OK;
    err->message = message;
    err->message_capacity = message_capacity;
    progress->base.progress_monitor = mpimg_jpeg_progress_monitor;
    progress->max_scans = limits->max_scans;
}

/* Adobe CMYK stores inverted values: each stored byte is 255 minus the ink. */
static void mpimg_cmyk_row_to_rgb(const JSAMPLE *cmyk, uint8_t *rgb, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++) {
        unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        rgb[3 * x] = (uint8_t)((c * k + 127) / 255);
        rgb[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
        rgb[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
    }
}

/* The one place that drives libjpeg, in three modes: with pixels and sums both NULL it reads the
 * header only (copying EXIF into exif when given); with pixels it decodes into them; with sums it
 * decodes one row at a time into a pool buffer, adding each channel into sums (for channel means
 * at full size without holding the image). */
static int mpimg_jpeg_run(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                          uint8_t *pixels, size_t pixels_size, uint64_t *sums, uint8_t *exif,
                          size_t exif_capacity, char *message, size_t message_capacity) {
    struct jpeg_decompress_struct cinfo;
    mpimg_jpeg_error err;
    mpimg_jpeg_progress progress;
    mpimg_copy_message(message, message_capacity, "");
    if (data == NULL || size == 0) {
        mpimg_copy_message(message, message_capacity, "empty JPEG data");
        return MPIMG_ERROR_DATA;
    }
    mpimg_jpeg_setup(&cinfo, &err, &progress, limits, message, message_capacity);
    if (setjmp(err.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return err.status == MPIMG_OK ? MPIMG_ERROR_DATA : err.status;
    }
    jpeg_create_decompress(&cinfo);
    cinfo.progress = &progress.base;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    int status = mpimg_jpeg_header(&cinfo, &err, limits, info);
    if (status != MPIMG_OK || (pixels == NULL && sums == NULL)) {
        if (status == MPIMG_OK && exif != NULL) mpimg_jpeg_copy_exif(&cinfo, info, exif, exif_capacity);
        jpeg_destroy_decompress(&cinfo);
        return status;
    }
    size_t row_bytes = (size_t)info->output_width * 3;
    if (pixels != NULL ? pixels_size != row_bytes * (size_t)info->output_height : sums == NULL) {
        mpimg_copy_message(message, message_capacity, "pixel buffer does not match the image size");
        jpeg_destroy_decompress(&cinfo);
        return MPIMG_ERROR_BUFFER;
    }
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_width != info->output_width || cinfo.output_height != info->output_height) {
        mpimg_copy_message(message, message_capacity, "decoded size differs from the header");
        jpeg_destroy_decompress(&cinfo);
        return MPIMG_ERROR_BUFFER;
    }
    int cmyk = cinfo.out_color_space == JCS_CMYK;
    /* Row buffers from libjpeg's pool: freed by jpeg_destroy_decompress on every path. */
    JSAMPARRAY cmyk_row = NULL;
    if (cmyk) cmyk_row = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE, cinfo.output_width * 4, 1);
    JSAMPARRAY sum_row = NULL;
    if (pixels == NULL) sum_row = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE, (JDIMENSION)row_bytes, 1);
    while (cinfo.output_scanline < cinfo.output_height) {
        uint8_t *row = pixels != NULL ? pixels + row_bytes * cinfo.output_scanline : sum_row[0];
        if (cmyk) {
            if (jpeg_read_scanlines(&cinfo, cmyk_row, 1) != 1) break;
            mpimg_cmyk_row_to_rgb(cmyk_row[0], row, cinfo.output_width, cinfo.saw_Adobe_marker);
        } else {
            JSAMPROW rows[1] = {row};
            if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) break;
        }
        if (pixels == NULL) {
            uint64_t r = 0, g = 0, b = 0;
            for (size_t i = 0; i < row_bytes; i += 3) {
                r += row[i];
                g += row[i + 1];
                b += row[i + 2];
            }
            sums[0] += r;
            sums[1] += g;
            sums[2] += b;
        }
    }
    if (cinfo.output_scanline < cinfo.output_height) {
        mpimg_copy_message(message, message_capacity, "JPEG data ends early");
        jpeg_destroy_decompress(&cinfo);
        return MPIMG_ERROR_DATA;
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return MPIMG_OK;
}

int mpimg_jpeg_decode(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                      uint8_t *pixels, size_t pixels_size, char *message, size_t message_capacity) {
    if (pixels == NULL) {
        mpimg_copy_message(message, message_capacity, "no pixel buffer");
        return MPIMG_ERROR_BUFFER;
    }
    return mpimg_jpeg_run(data, size, limits, info, pixels, pixels_size, NULL, NULL, 0, message, message_capacity);
}

int mpimg_jpeg_channel_sums(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                            uint64_t sums[3], char *message, size_t message_capacity) {
    sums[0] = sums[1] = sums[2] = 0;
    return mpimg_jpeg_run(data, size, limits, info, NULL, 0, sums, NULL, 0, message, message_capacity);
}

int mpimg_jpeg_read_info(const uint8_t *data, size_t size, const mpimg_limits *limits, mpimg_info *info,
                         uint8_t *exif, size_t exif_capacity, char *message, size_t message_capacity) {
    return mpimg_jpeg_run(data, size, limits, info, NULL, 0, NULL, exif, exif_capacity, message, message_capacity);
}
