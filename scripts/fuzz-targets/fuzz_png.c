/* libFuzzer target: the PNG half of the CImageCodecs shim, exactly as ImageDecoder calls it. */
#include <stdlib.h>
#include <string.h>

#include "mpimg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    mpimg_limits limits = {.working_long_side = 0, .max_pixels = 4000000, .max_scans = 100};
    mpimg_info info;
    char message[MPIMG_MESSAGE_CAPACITY];
    if (mpimg_png_read_info(data, size, &limits, &info, message, sizeof message) != MPIMG_OK) return 0;
    size_t count = (size_t)info.output_width * info.output_height * 3;
    uint8_t *pixels = malloc(count ? count : 1);
    if (pixels == NULL) return 0;
    mpimg_png_decode(data, size, &limits, &info, pixels, count, message, sizeof message);
    if (memchr(message, 0, sizeof message) == NULL) abort();
    free(pixels);
    return 0;
}
