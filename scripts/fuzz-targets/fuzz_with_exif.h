/* The body of the HEIF and WebP libFuzzer targets: one half of the CImageCodecs shim exactly as
 * ImageDecoder calls it (read_info with the EXIF buffer, then decode into a buffer of the size
 * read_info reported). The including file defines MPIMG_FUZZ_READ_INFO and MPIMG_FUZZ_DECODE. */
#include <stdlib.h>
#include <string.h>

#include "mpimg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    mpimg_limits limits = {.working_long_side = 0, .max_pixels = 4000000, .max_scans = 100};
    mpimg_info info;
    char message[MPIMG_MESSAGE_CAPACITY];
    static uint8_t exif[MPIMG_EXIF_CAPACITY];
    if (MPIMG_FUZZ_READ_INFO(data, size, &limits, &info, exif, sizeof exif, message, sizeof message) != MPIMG_OK) {
        return 0;
    }
    if (info.exif_length > sizeof exif) abort();
    size_t count = (size_t)info.output_width * info.output_height * 3;
    uint8_t *pixels = malloc(count ? count : 1);
    if (pixels == NULL) return 0;
    MPIMG_FUZZ_DECODE(data, size, &limits, &info, pixels, count, message, sizeof message);
    if (memchr(message, 0, sizeof message) == NULL) abort(); /* the message is always terminated */
    free(pixels);
    return 0;
}
