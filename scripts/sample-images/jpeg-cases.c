/* Writes the two JPEG cases cjpeg cannot:
 *   jpeg-cases cmyk OUT.jpg        a CMYK JPEG with an Adobe marker (inverted values, as Photoshop writes
 *                                  them): left half cyan ink, right half magenta+yellow (red), bottom
 *                                  quarter pure black ink.
 *   jpeg-cases many-scans OUT.jpg  a valid progressive grayscale JPEG with 448 scans (cjpeg -scans stops
 *                                  at 100): every AC coefficient alone, refined one bit at a time.
 * scripts/make-sample-images compiles and runs this. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

static int many_scans(FILE *out) {
    enum { SIZE = 16, FIRST_AL = 6 };
    static jpeg_scan_info scans[(FIRST_AL + 1) * 64];
    int n = 0;
    for (int al = FIRST_AL; al >= 0; al--) {
        for (int k = 0; k < 64; k++) {
            jpeg_scan_info *scan = &scans[n++];
            scan->comps_in_scan = 1;
            scan->component_index[0] = 0;
            scan->Ss = k;
            scan->Se = k;
            scan->Ah = al == FIRST_AL ? 0 : al + 1;
            scan->Al = al;
        }
    }
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    cinfo.err = jpeg_std_error(&jerr);
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, out);
    cinfo.image_width = SIZE;
    cinfo.image_height = SIZE;
    cinfo.input_components = 1;
    cinfo.in_color_space = JCS_GRAYSCALE;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, 95, TRUE);
    cinfo.scan_info = scans;
    cinfo.num_scans = n;
    jpeg_start_compress(&cinfo, TRUE);
    unsigned char row[SIZE];
    while (cinfo.next_scanline < cinfo.image_height) {
        for (int x = 0; x < SIZE; x++) row[x] = (unsigned char)((x * 16 + cinfo.next_scanline * 7) & 0xFF);
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return 0;
}

static int cmyk(FILE *out) {
    const int width = 64, height = 48;
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    cinfo.err = jpeg_std_error(&jerr);
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, out);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&cinfo);
    jpeg_set_colorspace(&cinfo, JCS_YCCK); /* writes the Adobe marker with transform 2 */
    jpeg_set_quality(&cinfo, 95, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    unsigned char row[64 * 4];
    while (cinfo.next_scanline < cinfo.image_height) {
        int y = (int)cinfo.next_scanline;
        for (int x = 0; x < width; x++) {
            int c = 0, m = 0, ye = 0, k = 0;
            if (y >= height * 3 / 4) k = 255;
            else if (x < width / 2) c = 255;
            else { m = 255; ye = 255; }
            /* Adobe convention: stored value = 255 - ink. */
            row[4 * x] = (unsigned char)(255 - c);
            row[4 * x + 1] = (unsigned char)(255 - m);
            row[4 * x + 2] = (unsigned char)(255 - ye);
            row[4 * x + 3] = (unsigned char)(255 - k);
        }
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: jpeg-cases cmyk|many-scans OUT.jpg\n"); return 64; }
    FILE *out = fopen(argv[2], "wb");
    if (!out) { perror(argv[2]); return 74; }
    int status = strcmp(argv[1], "cmyk") == 0 ? cmyk(out) : strcmp(argv[1], "many-scans") == 0 ? many_scans(out) : 64;
    fclose(out);
    return status;
}
