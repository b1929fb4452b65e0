/* libFuzzer target: the JPEG half of the CImageCodecs shim, exactly as ImageDecoder calls it
 * (read_info, then decode into a buffer of the size read_info reported), and the row-by-row
 * channel sums of `image info`. */
#include <stdlib.h>
#include <string.h>

#include "mpimg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* A smaller budget than the app's 100 MP keeps each run fast; the scan cap is the app's. */
    mpimg_limits limits = {.working_long_side = (size & 1) ? 0 : 64, .max_pixels = 4000000, .max_scans = 100};
    mpimg_info info;
    char message[MPIMG_MESSAGE_CAPACITY];
    static uint8_t exif[MPIMG_EXIF_CAPACITY];
    if (mpimg_jpeg_read_info(data, size, &limits, &info, exif, sizeof exif, message, sizeof message) != MPIMG_OK) {
        return 0;
    }
    size_t count = (size_t)info.output_width * info.output_height * 3;
    uint8_t *pixels = malloc(count ? count : 1);
    if (pixels == NULL) return 0;
    mpimg_jpeg_decode(data, size, &limits, &info, pixels, count, message, sizeof message);
    if (memchr(message, 0, sizeof message) == NULL) abort(); /* the message is always terminated */
    free(pixels);
    /* The row-by-row path of `image info`. */
    uint64_t sums[3];
    mpimg_jpeg_channel_sums(data, size, &limits, &info, sums, message, sizeof message);
    return 0;
}
