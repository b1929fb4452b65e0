/* libFuzzer target: the HEIF half of the CImageCodecs shim (see fuzz_with_exif.h). */
#define MPIMG_FUZZ_READ_INFO mpimg_heif_read_info
#define MPIMG_FUZZ_DECODE mpimg_heif_decode
#include "fuzz_with_exif.h"
