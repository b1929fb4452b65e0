/* Finds in a HEIF's boxes the pictures libheif would decode and checks their real sizes (see
 * mpimg_heif_pictures.h). Every length is checked against the box that holds it; nothing is decoded. */
#include "mpimg_heif_pictures.h"
#include "mpimg_heif_boxes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More coded pictures than this in one file is not a photo (an iPhone's has about a hundred); the bound
 * keeps the search for each picture's data (a pass over iloc) short. */
#define MPIMG_HEIF_MAX_PICTURES 4096

/* A picture's real size against its ispe box's claim (has_claim 0: none) and the caller's budget. HEVC codes
 * a picture padded to its coding blocks (an honest 7071x7071 is a 7072x7072 tile): the budget allows one
 * 64-sample coding tree block a side over it, and a conformance window cutting more than that is refused. */
static int mpimg_heif_judge(mpimg_heif_boxes *boxes, const mpimg_heif_picture *picture, int has_claim,
                            uint32_t claimed_width, uint32_t claimed_height) {
    char text[MPIMG_MESSAGE_CAPACITY];
    if (picture->coded_width - picture->width >= 64 || picture->coded_height - picture->height >= 64) {
        snprintf(text, sizeof text, "the coded picture is %ux%u but shows only %ux%u", picture->coded_width,
                 picture->coded_height, picture->width, picture->height);
        return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, text);
    }
    uint64_t pixels = (uint64_t)picture->coded_width * picture->coded_height;
    uint64_t padding = 64 * ((uint64_t)picture->coded_width + picture->coded_height);
    int lies = has_claim && (claimed_width < picture->width || claimed_width > picture->coded_width ||
                             claimed_height < picture->height || claimed_height > picture->coded_height);
    int prefix = lies ? snprintf(text, sizeof text, "the header says %ux%u but the picture is %ux%u", claimed_width,
                                 claimed_height, picture->width, picture->height)
                      : snprintf(text, sizeof text, "the picture is %ux%u", picture->width, picture->height);
    if (boxes->limits->max_pixels > 0 && pixels > boxes->limits->max_pixels + padding && prefix > 0 &&
        (size_t)prefix < sizeof text) {
        snprintf(text + prefix, sizeof text - (size_t)prefix, ": %llu pixels, over the limit of %llu pixels",
                 (unsigned long long)pixels, (unsigned long long)boxes->limits->max_pixels);
        return mpimg_heif_fail(boxes, MPIMG_ERROR_TOO_MANY_PIXELS, text);
    }
    if (lies && boxes->check_claims) return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, text);
    return MPIMG_OK;
}

/* Every SPS among the NAL units in bytes: nal_length-byte lengths (hvcC's arrays are handled by the caller). */
static int mpimg_heif_judge_stream(mpimg_heif_boxes *boxes, mpimg_span stream, int has_claim, uint32_t width,
                                   uint32_t height) {
    uint64_t length;
    mpimg_span nal;
    /* libheif's libde265 plugin reads 4-byte lengths, whatever hvcC says; a NAL that overruns stops it. */
    while (mpimg_heif_be(&stream, 4, &length) && mpimg_heif_take(&stream, length, &nal)) {
        mpimg_heif_picture picture;
        int found = mpimg_heif_sps_size(nal.bytes, nal.length, &picture);
        if (found < 0) return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, "an HEVC sequence parameter set is damaged");
        int status = found ? mpimg_heif_judge(boxes, &picture, has_claim, width, height) : MPIMG_OK;
        if (status != MPIMG_OK) return status;
    }
    return MPIMG_OK;
}

/* The SPS units of an hvcC box (ISO/IEC 14496-15 8.3.3.1.2: 22 bytes, then arrays of NAL units). */
static int mpimg_heif_judge_hvcc(mpimg_heif_boxes *boxes, mpimg_span hvcc, int has_claim, uint32_t width,
                                 uint32_t height) {
    uint64_t arrays, count, length;
    mpimg_span nal;
    if (!mpimg_heif_take(&hvcc, 22, NULL) || !mpimg_heif_be(&hvcc, 1, &arrays)) goto damaged;
    for (uint64_t a = 0; a < arrays; a++) {
        if (!mpimg_heif_take(&hvcc, 1, NULL) || !mpimg_heif_be(&hvcc, 2, &count)) goto damaged;
        for (uint64_t n = 0; n < count; n++) {
            if (!mpimg_heif_be(&hvcc, 2, &length) || !mpimg_heif_take(&hvcc, length, &nal)) goto damaged;
            mpimg_heif_picture picture;
            int found = mpimg_heif_sps_size(nal.bytes, nal.length, &picture);
            if (found < 0) goto damaged;
            int status = found ? mpimg_heif_judge(boxes, &picture, has_claim, width, height) : MPIMG_OK;
            if (status != MPIMG_OK) return status;
        }
    }
    return MPIMG_OK;
damaged:
    return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, "the HEVC configuration (hvcC) is damaged");
}

/* The primary item's id and type (0 when the file names none). */
static void mpimg_heif_primary(const mpimg_heif_boxes *boxes, uint64_t *id, uint32_t *type) {
    mpimg_span pitm = boxes->pitm, iinf = boxes->iinf, infe;
    uint64_t version, count, item, kind;
    uint32_t box;
    *id = 0;
    *type = 0;
    if (!mpimg_heif_be(&pitm, 1, &version) || !mpimg_heif_take(&pitm, 3, NULL) || !mpimg_heif_be(&pitm, version == 0 ? 2 : 4, id)) {
        return;
    }
    if (!mpimg_heif_be(&iinf, 1, &version) || !mpimg_heif_take(&iinf, 3, NULL) || !mpimg_heif_be(&iinf, version == 0 ? 2 : 4, &count)) {
        return;
    }
    while (mpimg_heif_box(&iinf, &box, &infe)) {
        if (box != MPIMG_FOURCC('i', 'n', 'f', 'e') || !mpimg_heif_be(&infe, 1, &version) || version < 2) continue;
        if (!mpimg_heif_take(&infe, 3, NULL) || !mpimg_heif_be(&infe, version == 2 ? 2 : 4, &item)) continue;
        if (item == *id && mpimg_heif_take(&infe, 2, NULL) && mpimg_heif_be(&infe, 4, &kind)) {
            *type = (uint32_t)kind;
            return;
        }
    }
}

/* The canvas of a primary grid or overlay (ISO/IEC 23008-12 6.6.2.3 and 6.6.2.2) against its ispe. */
static int mpimg_heif_judge_canvas(mpimg_heif_boxes *boxes, uint64_t id, uint32_t type, int has_claim,
                                   uint32_t width, uint32_t height) {
    uint8_t *data = NULL;
    size_t length = 0;
    int status = mpimg_heif_item_data(boxes, (uint32_t)id, &data, &length);
    if (status != MPIMG_OK || data == NULL) return status;
    mpimg_span canvas = {data, length};
    uint64_t flags, canvas_width, canvas_height;
    size_t skip = type == MPIMG_FOURCC('g', 'r', 'i', 'd') ? 2 : 8; /* rows and columns, or 4 fill values */
    if (!mpimg_heif_take(&canvas, 1, NULL) || !mpimg_heif_be(&canvas, 1, &flags) || !mpimg_heif_take(&canvas, skip, NULL) ||
        !mpimg_heif_be(&canvas, (flags & 1) ? 4 : 2, &canvas_width) || !mpimg_heif_be(&canvas, (flags & 1) ? 4 : 2, &canvas_height)) {
        status = mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, "the grid's description ends early");
    } else {
        mpimg_heif_picture picture = {(uint32_t)canvas_width, (uint32_t)canvas_height, (uint32_t)canvas_width,
                                      (uint32_t)canvas_height};
        status = mpimg_heif_judge(boxes, &picture, has_claim, width, height);
    }
    free(data);
    return status;
}

/* Every item with an hvcC property (its SPS units, in hvcC and in its data), then a primary grid's canvas. */
static int mpimg_heif_judge_items(mpimg_heif_boxes *boxes) {
    mpimg_span ipma = boxes->ipma;
    uint64_t header, count, primary, id, associations, entry, claimed_width, claimed_height;
    uint32_t primary_type, primary_width = 0, primary_height = 0;
    int primary_claim = 0, pictures = 0;
    mpimg_heif_primary(boxes, &primary, &primary_type);
    if (ipma.bytes == NULL) return MPIMG_OK;
    if (!mpimg_heif_be(&ipma, 4, &header) || !mpimg_heif_be(&ipma, 4, &count)) goto damaged;
    int wide = (header & 1) != 0;
    for (uint64_t i = 0; i < count; i++) {
        if (!mpimg_heif_be(&ipma, header >> 24 < 1 ? 2 : 4, &id) || !mpimg_heif_be(&ipma, 1, &associations)) goto damaged;
        mpimg_span hvcc = {NULL, 0};
        int has_claim = 0;
        uint32_t width = 0, height = 0;
        for (uint64_t a = 0; a < associations; a++) {
            if (!mpimg_heif_be(&ipma, wide ? 2 : 1, &entry)) goto damaged;
            uint64_t index = entry & (wide ? 0x7fff : 0x7f);
            if (index == 0 || index > boxes->property_count) continue;
            mpimg_span property = boxes->properties[index - 1];
            uint32_t type = boxes->property_types[index - 1];
            if (type == MPIMG_FOURCC('h', 'v', 'c', 'C')) hvcc = property;
            if (type == MPIMG_FOURCC('i', 's', 'p', 'e') && mpimg_heif_take(&property, 4, NULL) &&
                mpimg_heif_be(&property, 4, &claimed_width) && mpimg_heif_be(&property, 4, &claimed_height)) {
                has_claim = 1;
                width = (uint32_t)claimed_width;
                height = (uint32_t)claimed_height;
            }
        }
        if (id == primary) {
            primary_claim = has_claim;
            primary_width = width;
            primary_height = height;
        }
        if (hvcc.bytes == NULL) continue;
        if (++pictures > MPIMG_HEIF_MAX_PICTURES) {
            return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, "more coded pictures than a photo has (over 4096)");
        }
        int status = mpimg_heif_judge_hvcc(boxes, hvcc, has_claim, width, height);
        uint8_t *data = NULL;
        size_t length = 0;
        if (status == MPIMG_OK) status = mpimg_heif_item_data(boxes, (uint32_t)id, &data, &length);
        if (status == MPIMG_OK && data != NULL) {
            status = mpimg_heif_judge_stream(boxes, (mpimg_span){data, length}, has_claim, width, height);
        }
        free(data);
        if (status != MPIMG_OK) return status;
    }
    if (primary_type == MPIMG_FOURCC('g', 'r', 'i', 'd') || primary_type == MPIMG_FOURCC('i', 'o', 'v', 'l')) {
        return mpimg_heif_judge_canvas(boxes, primary, primary_type, primary_claim, primary_width, primary_height);
    }
    return MPIMG_OK;
damaged:
    return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, "the item property associations (ipma) are damaged");
}

int mpimg_heif_check_pictures(const uint8_t *data, size_t size, const mpimg_limits *limits, int check_claims,
                              char *message, size_t capacity) {
    mpimg_heif_boxes boxes;
    memset(&boxes, 0, sizeof boxes);
    boxes.file = (mpimg_span){data, data == NULL ? 0 : size};
    boxes.limits = limits;
    boxes.check_claims = check_claims;
    boxes.message = message;
    boxes.capacity = capacity;
    mpimg_heif_find_boxes(&boxes);
    int status = mpimg_heif_index_properties(&boxes);
    if (status == MPIMG_OK) status = mpimg_heif_judge_items(&boxes);
    free(boxes.properties);
    free(boxes.property_types);
    return status;
}
