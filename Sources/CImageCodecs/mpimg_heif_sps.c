/* The picture size in an HEVC sequence parameter set (H.265 7.3.2.2), read without a decoder. */
#include "mpimg_heif_pictures.h"

#include <string.h>

/* The fields up to the conformance window fit in this much RBSP: 2 bytes of NAL header, 12 of the
 * general profile and level, 2 of sub-layer flags, 7 sub-layers of 12 bytes, 8 Exp-Golomb codes. */
#define MPIMG_HEIF_SPS_PREFIX 512
#define MPIMG_HEIF_NAL_SPS 33

typedef struct {
    uint8_t bytes[MPIMG_HEIF_SPS_PREFIX];
    size_t length; /* bytes of RBSP held */
    size_t bit;    /* next bit to read */
    int failed;    /* a read went past the end */
} mpimg_heif_bits;

static uint32_t mpimg_heif_read_bits(mpimg_heif_bits *bits, int count) {
    uint32_t value = 0;
    for (int i = 0; i < count; i++) {
        if (bits->bit >= bits->length * 8) {
            bits->failed = 1;
            return 0;
        }
        value = (value << 1) | ((bits->bytes[bits->bit / 8] >> (7 - bits->bit % 8)) & 1u);
        bits->bit++;
    }
    return value;
}

static void mpimg_heif_skip_bits(mpimg_heif_bits *bits, size_t count) {
    if (count > bits->length * 8 - bits->bit) {
        bits->failed = 1;
        bits->bit = bits->length * 8;
        return;
    }
    bits->bit += count;
}

/* ue(v): at most 31 leading zeros, so the value fits in 32 bits; more is a failed read. */
static uint32_t mpimg_heif_read_ue(mpimg_heif_bits *bits) {
    int zeros = 0;
    while (!bits->failed && mpimg_heif_read_bits(bits, 1) == 0) {
        if (++zeros > 31) {
            bits->failed = 1;
            return 0;
        }
    }
    if (bits->failed) return 0;
    uint64_t value = ((uint64_t)1 << zeros) - 1 + mpimg_heif_read_bits(bits, zeros);
    return value > UINT32_MAX ? (bits->failed = 1, 0) : (uint32_t)value;
}

/* profile_tier_level(1, max_sub_layers_minus1), H.265 7.3.3: only skipped, but its length depends on
 * which sub-layers carry a profile and a level. */
static void mpimg_heif_skip_profile(mpimg_heif_bits *bits, uint32_t max_sub_layers_minus1) {
    mpimg_heif_skip_bits(bits, 96); /* general profile (88 bits) and general_level_idc (8) */
    int profile_present[8] = {0}, level_present[8] = {0};
    for (uint32_t i = 0; i < max_sub_layers_minus1; i++) {
        profile_present[i] = (int)mpimg_heif_read_bits(bits, 1);
        level_present[i] = (int)mpimg_heif_read_bits(bits, 1);
    }
    if (max_sub_layers_minus1 > 0) mpimg_heif_skip_bits(bits, 2 * (8 - max_sub_layers_minus1));
    for (uint32_t i = 0; i < max_sub_layers_minus1; i++) {
        if (profile_present[i]) mpimg_heif_skip_bits(bits, 88);
        if (level_present[i]) mpimg_heif_skip_bits(bits, 8);
    }
}

int mpimg_heif_sps_size(const uint8_t *nal, size_t length, mpimg_heif_picture *picture) {
    memset(picture, 0, sizeof *picture);
    if (nal == NULL || length < 2 || ((nal[0] >> 1) & 0x3f) != MPIMG_HEIF_NAL_SPS) return 0;
    /* The RBSP: every 0x03 after two zero bytes is an emulation-prevention byte, dropped. */
    mpimg_heif_bits bits = {.length = 0, .bit = 0, .failed = 0};
    int zeros = 0;
    for (size_t i = 2; i < length && bits.length < sizeof bits.bytes; i++) {
        if (zeros >= 2 && nal[i] == 0x03) {
            zeros = 0;
            continue;
        }
        zeros = nal[i] == 0 ? zeros + 1 : 0;
        bits.bytes[bits.length++] = nal[i];
    }
    mpimg_heif_skip_bits(&bits, 4); /* sps_video_parameter_set_id */
    uint32_t max_sub_layers_minus1 = mpimg_heif_read_bits(&bits, 3);
    mpimg_heif_skip_bits(&bits, 1); /* sps_temporal_id_nesting_flag */
    if (max_sub_layers_minus1 > 6) return -1;
    mpimg_heif_skip_profile(&bits, max_sub_layers_minus1);
    (void)mpimg_heif_read_ue(&bits); /* sps_seq_parameter_set_id */
    uint32_t chroma_format_idc = mpimg_heif_read_ue(&bits);
    int separate_planes = chroma_format_idc == 3 ? (int)mpimg_heif_read_bits(&bits, 1) : 0;
    uint32_t width = mpimg_heif_read_ue(&bits);
    uint32_t height = mpimg_heif_read_ue(&bits);
    uint32_t window[4] = {0, 0, 0, 0}; /* left, right, top, bottom */
    if (mpimg_heif_read_bits(&bits, 1)) {
        for (int i = 0; i < 4; i++) window[i] = mpimg_heif_read_ue(&bits);
    }
    if (bits.failed || chroma_format_idc > 3 || width == 0 || height == 0 || width > INT32_MAX ||
        height > INT32_MAX) {
        return -1;
    }
    /* Offsets count chroma samples (H.265 Table 6-1): two luma samples across in 4:2:0 and 4:2:2. */
    uint64_t unit_x = (chroma_format_idc == 1 || chroma_format_idc == 2) && !separate_planes ? 2 : 1;
    uint64_t unit_y = chroma_format_idc == 1 && !separate_planes ? 2 : 1;
    uint64_t cut_x = unit_x * ((uint64_t)window[0] + window[1]);
    uint64_t cut_y = unit_y * ((uint64_t)window[2] + window[3]);
    if (cut_x >= width || cut_y >= height) return -1;
    picture->coded_width = width;
    picture->coded_height = height;
    picture->width = width - (uint32_t)cut_x;
    picture->height = height - (uint32_t)cut_y;
    return 1;
}
