#!/usr/bin/env python3
"""Writes SampleImages/not-photos/: pictures that are not camera photos of a room, which the bed
verifier must refuse (a flat colour, noise, flat colour blocks, a gradient, a screenshot).

Standard library only; JPEGs come from cjpeg (libjpeg-turbo-progs). Deterministic: a fixed seed.
Run through scripts/make-sample-images."""
import os
import random
import subprocess
import sys
import tempfile

OUT = os.path.join(sys.argv[1], "not-photos")
TMP = tempfile.mkdtemp(prefix="mp-not-photos-")
W, H = 1000, 750


def jpeg(name, width, height, pixel, quality=90):
    """Encodes pixel(x, y) -> (r, g, b) as a JPEG through cjpeg."""
    source = os.path.join(TMP, name + ".ppm")
    with open(source, "wb") as f:
        f.write(b"P6 %d %d 255\n" % (width, height))
        f.write(bytes(c for y in range(height) for x in range(width) for c in pixel(x, y)))
    subprocess.run(["cjpeg", "-quality", str(quality), "-outfile", os.path.join(OUT, name), source], check=True)


def blocks(size, seed):
    """Flat blocks of random colours, size x size pixels: the pattern that passed six days running."""
    rng = random.Random(seed)
    colours = [[tuple(rng.randrange(256) for _ in range(3)) for _ in range(W // size + 1)] for _ in range(H // size + 1)]
    return lambda x, y: colours[y // size][x // size]


def screenshot():
    """A light page: a coloured title bar, a grey sidebar with flat buttons, lines of dark glyphs."""
    rng = random.Random(7)
    ink = set()
    for line in range(24):
        top, x = 90 + line * 26, 230
        while x < W - 80:
            for _ in range(rng.randrange(2, 9)):
                for gy in range(11):
                    for gx in range(6):
                        if rng.random() < 0.35:
                            ink.add((x + gx, top + gy))
                x += 8
            x += 8

    def pixel(x, y):
        if y < 60:
            return (40, 90, 200)
        if (x, y) in ink:
            return (20, 20, 20)
        if x < 200:
            button = (y - 80) % 40 < 14 and 20 <= x < 170
            return (90, 90, 100) if button else (240, 240, 245)
        return (255, 255, 255)

    return pixel


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    jpeg("black.jpg", W, H, lambda x, y: (0, 0, 0))
    jpeg("gray.jpg", W, H, lambda x, y: (128, 128, 128))
    jpeg("white.jpg", W, H, lambda x, y: (255, 255, 255))
    rng = random.Random(1)
    jpeg("noise.jpg", 320, 240, lambda x, y: (rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    jpeg("blocks-8.jpg", W, H, blocks(8, 8))
    jpeg("blocks-50.jpg", W, H, blocks(50, 50))
    jpeg("gradient.jpg", W, H, lambda x, y: (x * 255 // (W - 1),) * 3)
    jpeg("screenshot.jpg", W, H, screenshot())


main()
