/* Reading a HEIF's boxes without libheif: bounded spans, box headers, item properties and item data
 * (not part of the public header; used by mpimg_heif_pictures.c). */
#ifndef MPIMG_HEIF_BOXES_H
#define MPIMG_HEIF_BOXES_H

#include "mpimg_shared.h"

#define MPIMG_FOURCC(a, b, c, d) \
    (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

typedef struct {
    const uint8_t *bytes;
    size_t length;
} mpimg_span;

/* What the checks read, and where they report. */
typedef struct {
    mpimg_span file, iloc, ipco, ipma, idat, iinf, pitm;
    mpimg_span *properties; /* ipco's children, in order (ipma counts them from 1) */
    uint32_t *property_types;
    size_t property_count;
    const mpimg_limits *limits;
    int check_claims;
    char *message;
    size_t capacity;
} mpimg_heif_boxes;


/* Takes count bytes off the front of span into out (may be NULL); 0 when span is shorter. */
int mpimg_heif_take(mpimg_span *span, uint64_t count, mpimg_span *out);

/* A big-endian unsigned integer of count bytes (0 to 8). */
int mpimg_heif_be(mpimg_span *span, unsigned count, uint64_t *value);

/* The next box's type and body; 0 at the end or when the box does not fit in span. */
int mpimg_heif_box(mpimg_span *span, uint32_t *type, mpimg_span *body);

/* The bodies of meta's children that the checks read (each stays empty when absent). */
void mpimg_heif_find_boxes(mpimg_heif_boxes *boxes);

/* Writes text to the caller's message and returns status. */
int mpimg_heif_fail(mpimg_heif_boxes *boxes, int status, const char *text);

/* ipco's children, indexed. */
int mpimg_heif_index_properties(mpimg_heif_boxes *boxes);

/* The bytes of item id (*data NULL when it has no iloc entry). */
int mpimg_heif_item_data(mpimg_heif_boxes *boxes, uint32_t id, uint8_t **data, size_t *length);

#endif
