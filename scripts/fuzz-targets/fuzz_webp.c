/* libFuzzer target: the WebP half of the CImageCodecs shim (see fuzz_with_exif.h). */
#define MPIMG_FUZZ_READ_INFO mpimg_webp_read_info
#define MPIMG_FUZZ_DECODE mpimg_webp_decode
#include "fuzz_with_exif.h"
