/* Reading a HEIF's boxes without libheif (see mpimg_heif_boxes.h): every length is checked against the
 * box that holds it. */
#include "mpimg_heif_boxes.h"

#include <stdlib.h>
#include <string.h>

/* More properties than this in one file is not a photo (an iPhone's has about a hundred). */
#define MPIMG_HEIF_MAX_PROPERTIES 65536

/* An iloc entry: where an item's bytes are. */
typedef struct {
    unsigned version, offset_size, length_size, base_size, index_size;
    uint64_t count;
    mpimg_span entries;
} mpimg_iloc;

/* Takes count bytes off the front of span into out (may be NULL); 0 when span is shorter. */
int mpimg_heif_take(mpimg_span *span, uint64_t count, mpimg_span *out) {
    if (span->length < count) return 0;
    if (out != NULL) *out = (mpimg_span){span->bytes, (size_t)count};
    span->bytes += count;
    span->length -= (size_t)count;
    return 1;
}

/* A big-endian unsigned integer of count bytes (0 to 8). */
int mpimg_heif_be(mpimg_span *span, unsigned count, uint64_t *value) {
    mpimg_span field;
    if (count > 8 || !mpimg_heif_take(span, count, &field)) return 0;
    *value = 0;
    for (size_t i = 0; i < count; i++) *value = (*value << 8) | field.bytes[i];
    return 1;
}

/* The next box's type and body; 0 at the end or when the box does not fit in span. */
int mpimg_heif_box(mpimg_span *span, uint32_t *type, mpimg_span *body) {
    uint64_t size, kind, header = 8;
    if (!mpimg_heif_be(span, 4, &size) || !mpimg_heif_be(span, 4, &kind)) return 0;
    if (size == 1) {
        if (!mpimg_heif_be(span, 8, &size)) return 0;
        header = 16;
    } else if (size == 0) {
        size = span->length + header;
    }
    if (size < header || size - header > span->length) return 0;
    *type = (uint32_t)kind;
    return mpimg_heif_take(span, size - header, body);
}

/* The bodies of meta's children that the checks read (each stays empty when absent). */
void mpimg_heif_find_boxes(mpimg_heif_boxes *boxes) {
    mpimg_span top = boxes->file, body, meta = {NULL, 0}, iprp = {NULL, 0};
    uint32_t type;
    while (mpimg_heif_box(&top, &type, &body)) {
        if (type == MPIMG_FOURCC('m', 'e', 't', 'a') && meta.bytes == NULL && mpimg_heif_take(&body, 4, NULL)) meta = body;
    }
    while (mpimg_heif_box(&meta, &type, &body)) {
        if (type == MPIMG_FOURCC('i', 'l', 'o', 'c')) boxes->iloc = body;
        if (type == MPIMG_FOURCC('i', 'p', 'r', 'p')) iprp = body;
        if (type == MPIMG_FOURCC('i', 'd', 'a', 't')) boxes->idat = body;
        if (type == MPIMG_FOURCC('i', 'i', 'n', 'f')) boxes->iinf = body;
        if (type == MPIMG_FOURCC('p', 'i', 't', 'm')) boxes->pitm = body;
    }
    while (mpimg_heif_box(&iprp, &type, &body)) {
        if (type == MPIMG_FOURCC('i', 'p', 'c', 'o') && boxes->ipco.bytes == NULL) boxes->ipco = body;
        if (type == MPIMG_FOURCC('i', 'p', 'm', 'a') && boxes->ipma.bytes == NULL) boxes->ipma = body;
    }
}

int mpimg_heif_fail(mpimg_heif_boxes *boxes, int status, const char *text) {
    mpimg_shared_message(boxes->message, boxes->capacity, text);
    return status;
}

/* ipco's children, indexed. */
int mpimg_heif_index_properties(mpimg_heif_boxes *boxes) {
    size_t most = boxes->ipco.length / 8;
    if (most > MPIMG_HEIF_MAX_PROPERTIES) return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, "too many item properties");
    boxes->properties = calloc(most + 1, sizeof *boxes->properties);
    boxes->property_types = calloc(most + 1, sizeof *boxes->property_types);
    if (boxes->properties == NULL || boxes->property_types == NULL) {
        return mpimg_heif_fail(boxes, MPIMG_ERROR_MEMORY, "out of memory");
    }
    mpimg_span ipco = boxes->ipco;
    while (boxes->property_count < most &&
           mpimg_heif_box(&ipco, &boxes->property_types[boxes->property_count], &boxes->properties[boxes->property_count])) {
        boxes->property_count++;
    }
    return MPIMG_OK;
}


static int mpimg_iloc_open(mpimg_span body, mpimg_iloc *iloc) {
    uint64_t version, sizes, more;
    if (!mpimg_heif_be(&body, 1, &version) || version > 2 || !mpimg_heif_take(&body, 3, NULL)) return 0;
    if (!mpimg_heif_be(&body, 1, &sizes) || !mpimg_heif_be(&body, 1, &more)) return 0;
    *iloc = (mpimg_iloc){(unsigned)version, (unsigned)(sizes >> 4), (unsigned)(sizes & 15), (unsigned)(more >> 4),
                         version > 0 ? (unsigned)(more & 15) : 0, 0, {NULL, 0}};
    unsigned all[4] = {iloc->offset_size, iloc->length_size, iloc->base_size, iloc->index_size};
    for (int i = 0; i < 4; i++) {
        if (all[i] != 0 && all[i] != 4 && all[i] != 8) return 0;
    }
    if (!mpimg_heif_be(&body, version < 2 ? 2 : 4, &iloc->count)) return 0;
    iloc->entries = body;
    return 1;
}

/* The bytes of the item whose iloc entry is next, gathered from its extents into a buffer the caller frees.
 * Returns the status; *found is 0 when the entry is not item id (the entry is skipped either way). */
static int mpimg_iloc_next(mpimg_heif_boxes *boxes, mpimg_iloc *iloc, uint32_t id, int *found, uint8_t **data,
                           size_t *length) {
    uint64_t item, method = 0, base, count, index, offset, size;
    *found = 0;
    if (!mpimg_heif_be(&iloc->entries, iloc->version < 2 ? 2 : 4, &item)) goto damaged;
    if (iloc->version > 0 && !mpimg_heif_be(&iloc->entries, 2, &method)) goto damaged;
    if (!mpimg_heif_take(&iloc->entries, 2, NULL) || !mpimg_heif_be(&iloc->entries, iloc->base_size, &base)) goto damaged;
    if (!mpimg_heif_be(&iloc->entries, 2, &count)) goto damaged;
    size_t each = iloc->index_size + iloc->offset_size + iloc->length_size;
    mpimg_span extents;
    if (!mpimg_heif_take(&iloc->entries, count * each, &extents)) goto damaged;
    if (item != id) return MPIMG_OK;
    *found = 1;
    mpimg_span source = (method & 15) == 0 ? boxes->file : (method & 15) == 1 ? boxes->idat : (mpimg_span){NULL, 0};
    if (source.bytes == NULL) return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, "an item's data is in no place it can be read from");
    for (int pass = 0; pass < 2; pass++) {
        mpimg_span walk = extents;
        uint64_t total = 0;
        for (uint64_t i = 0; i < count; i++) {
            mpimg_heif_be(&walk, iloc->index_size, &index);
            mpimg_heif_be(&walk, iloc->offset_size, &offset);
            mpimg_heif_be(&walk, iloc->length_size, &size);
            if (base > source.length || offset > source.length - base) goto damaged;
            uint64_t start = base + offset;
            if (size == 0) size = source.length - start;
            if (size > source.length - start || size > boxes->file.length - total) goto damaged;
            if (pass == 1) memcpy(*data + total, source.bytes + start, (size_t)size);
            total += size;
        }
        if (pass == 0) {
            *data = malloc(total > 0 ? (size_t)total : 1);
            if (*data == NULL) return mpimg_heif_fail(boxes, MPIMG_ERROR_MEMORY, "out of memory");
        }
        *length = (size_t)total;
    }
    return MPIMG_OK;
damaged:
    return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, "the item locations (iloc) point outside the file");
}

/* The bytes of item id (*data NULL when it has no iloc entry). */
int mpimg_heif_item_data(mpimg_heif_boxes *boxes, uint32_t id, uint8_t **data, size_t *length) {
    *data = NULL;
    *length = 0;
    mpimg_iloc iloc;
    if (boxes->iloc.bytes == NULL) return MPIMG_OK;
    if (!mpimg_iloc_open(boxes->iloc, &iloc)) return mpimg_heif_fail(boxes, MPIMG_ERROR_DATA, "the iloc box is damaged");
    for (uint64_t i = 0; i < iloc.count; i++) {
        int found = 0;
        int status = mpimg_iloc_next(boxes, &iloc, id, &found, data, length);
        if (status != MPIMG_OK || found) return status;
    }
    return MPIMG_OK;
}

