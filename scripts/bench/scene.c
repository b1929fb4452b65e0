/* Writes a photo-like PPM (P6) to stdout for the decode benchmarks: a wall with a soft light
 * gradient, a floor, a bed with a patterned, wrinkled cover and a pillow, a lamp, and sensor
 * noise, so the JPEG and PNG encoders face something like a real 12-megapixel photo.
 *   scene WIDTH HEIGHT SEED > photo.ppm */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state;
static uint32_t next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(state >> 11);
}

static unsigned char clamp(double v) { return v < 0 ? 0 : v > 255 ? 255 : (unsigned char)v; }

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: scene WIDTH HEIGHT SEED > out.ppm\n"); return 64; }
    int width = atoi(argv[1]), height = atoi(argv[2]);
    unsigned seed = (unsigned)atoi(argv[3]);
    if (width < 16 || height < 16) { fprintf(stderr, "scene: too small\n"); return 64; }
    state = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed * 0xD1B54A32D192ED03ull);
    double phase = (seed % 97) * 0.37, tilt = ((int)(seed % 11) - 5) * 0.02;
    unsigned char *row = malloc((size_t)width * 3);
    if (!row) return 71;
    printf("P6\n%d %d\n255\n", width, height);
    double floor_y = height * 0.72;
    double bed_x0 = width * 0.12, bed_x1 = width * 0.78, bed_y0 = height * 0.45, bed_y1 = height * 0.86;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            double u = (double)x / width, v = (double)y / height;
            double r, g, b;
            if (y < floor_y) {  /* wall: warm light falling off from the top left */
                double light = 1.0 - 0.35 * hypot(u - 0.2, v - 0.1);
                r = 214 * light; g = 200 * light; b = 178 * light;
            } else {  /* wooden floor boards */
                double board = fmod(u * 9 + (int)(v * 14) * 0.37, 1.0);
                double grain = 0.5 + 0.5 * sin(u * 220 + sin(v * 40) * 3);
                r = 120 + 30 * grain - (board < 0.02 ? 50 : 0);
                g = 84 + 20 * grain - (board < 0.02 ? 35 : 0);
                b = 52 + 10 * grain - (board < 0.02 ? 20 : 0);
            }
            double bx = x + (y - bed_y0) * tilt;
            if (bx > bed_x0 && bx < bed_x1 && y > bed_y0 && y < bed_y1) {  /* the cover */
                double wrinkle = sin(u * 60 + sin(v * 23 + phase) * 4) * sin(v * 35 + u * 9 + phase);
                double check = ((int)(u * 24) + (int)(v * 18)) % 2 ? 1.0 : 0.9;
                double shade = (0.85 + 0.15 * wrinkle) * check;
                r = 70 * shade; g = 96 * shade; b = 150 * shade;
            }
            if (bx > bed_x0 + width * 0.03 && bx < bed_x0 + width * 0.25 && y > bed_y0 - height * 0.07 &&
                y < bed_y0 + height * 0.04) {  /* a pillow */
                double soft = 0.9 + 0.1 * sin(u * 40 + v * 30);
                r = 236 * soft; g = 234 * soft; b = 228 * soft;
            }
            double lx = u - 0.88, ly = v - 0.38;
            if (lx * lx / 0.003 + ly * ly / 0.02 < 1) { r = 250; g = 228; b = 160; }  /* a lamp shade */
            double noise = (double)(next_random() % 17) - 8;
            row[3 * x] = clamp(r + noise);
            row[3 * x + 1] = clamp(g + noise * 0.9 + (double)(next_random() % 5) - 2);
            row[3 * x + 2] = clamp(b + noise * 1.1);
        }
        fwrite(row, 3, (size_t)width, stdout);
    }
    free(row);
    return 0;
}
