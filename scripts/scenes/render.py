#!/usr/bin/env python3
"""Renders simple synthetic bedroom photos for SampleImages/scenes/: made beds (a flat duvet with
straight edges, plumped pillows, a tidy room) and unmade beds (a crumpled duvet with fine folds at
slanted angles, clothes and objects scattered around), with what a camera adds (uneven light,
surface texture, lens blur, sensor noise), since the verifier refuses flat drawings.

Needs python3 with numpy (Debian: python3-numpy) and cjpeg (libjpeg-turbo-progs); run it through
scripts/make-scenes. Deterministic: the same seeds give the same pixels."""
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

OUT = sys.argv[1]
W, H = 640, 480
TMP = tempfile.mkdtemp(prefix="mp-scenes-")


def room(rng, wall, floor, horizon):
    """Wall above the horizon with a soft vertical light falloff, floorboards below."""
    img = np.zeros((H, W, 3))
    y = np.arange(H)[:, None, None] / H
    x = np.arange(W)[None, :, None] / W
    light = rng.uniform(0.2, 0.8)  # a window off to one side: light falls off away from it
    img[:] = np.array(wall) * (1.0 - 0.12 * y) * (1.0 - 0.35 * np.abs(x - light))
    img[horizon:] = np.array(floor)
    boards = (np.arange(W) // 80) % 2
    img[horizon:] *= (0.96 + 0.04 * boards)[None, :, None]
    # a window or a picture frame on the wall: a plain rectangle with a straight frame
    x0 = int(rng.integers(40, W - 220))
    img[40:150, x0 : x0 + 150] = np.array(wall) * 0.55
    img[48:142, x0 + 8 : x0 + 142] = [0.82, 0.88, 0.95]
    return img


def rect(img, x0, y0, x1, y1, colour):
    img[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = colour


def ellipse(img, cx, cy, rx, ry, colour, angle=0.0):
    yy, xx = np.mgrid[0:H, 0:W]
    c, s = np.cos(angle), np.sin(angle)
    u = ((xx - cx) * c + (yy - cy) * s) / rx
    v = (-(xx - cx) * s + (yy - cy) * c) / ry
    img[u * u + v * v <= 1] = colour


def bed(img, rng, left, width, top, duvet, made):
    """Headboard, mattress, pillows and the duvet; `made` decides flat versus crumpled."""
    bottom = min(H - 10, top + 250)
    rect(img, left - 10, top - 110, left + width + 10, top + 10, [0.42, 0.30, 0.20])  # headboard
    rect(img, left, top, left + width, bottom, [0.92, 0.92, 0.90])  # sheet
    for k in range(2):
        px = left + 20 + k * (width // 2)
        ellipse(img, px + width // 4 - 20, top + 35, width // 4 - 15, 28, [0.97, 0.97, 0.95],
                angle=0 if made else rng.uniform(-0.5, 0.5))
    yy, xx = np.mgrid[0:H, 0:W]
    region = (xx >= left) & (xx < left + width) & (yy >= top + 70) & (yy < bottom)
    if made:
        # flat duvet, a folded-back band and a soft shading across: straight edges, few gradients
        shade = 1.0 - 0.06 * (yy - top) / 250.0
        colour = np.array(duvet)[None, None, :] * shade[:, :, None]
        img[region] = colour[region]
        band = region & (yy < top + 100)
        img[band] = np.array(duvet) * 0.85 + 0.1
    else:
        # crumpled: many folds at random angles and scales, and the duvet edge kicked askew
        folds = np.zeros((H, W))
        for _ in range(28):
            angle = rng.uniform(0, np.pi)
            freq = rng.uniform(0.05, 0.22)
            phase = rng.uniform(0, 2 * np.pi)
            cx, cy = rng.uniform(left, left + width), rng.uniform(top, bottom)
            envelope = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rng.uniform(30, 90) ** 2)))
            folds += envelope * np.sin(freq * (np.cos(angle) * xx + np.sin(angle) * yy) + phase)
        skew = (xx - left) * rng.uniform(-0.35, 0.35) + (yy - top) * rng.uniform(-0.4, 0.4)
        region = region & (yy > top + 60 + skew * 0.3)
        colour = np.array(duvet)[None, None, :] * (0.75 + 0.35 * np.tanh(1.5 * folds))[:, :, None]
        img[region] = colour[region]
        # a patterned throw half off the bed
        check = ((xx // 14 + yy // 14) % 2)[:, :, None] * np.array([0.5, 0.1, 0.1]) + np.array([0.3, 0.3, 0.6])
        throw = region & ((xx - left - width * 0.6) * 0.8 + (yy - top - 150) > 0)
        img[throw] = check[throw]


def clutter(img, rng, count):
    """Clothes, books, posters and cups in many saturated colours, with folds, at slanted angles, all
    over the frame (floor, bed and walls)."""
    yy, xx = np.mgrid[0:H, 0:W]
    for _ in range(count):
        colour = np.array(rng.uniform(0.05, 0.95, 3))
        colour[int(rng.integers(3))] = rng.uniform(0.0, 0.2)  # keep it saturated
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        rx, ry, angle = rng.uniform(10, 50), rng.uniform(6, 25), rng.uniform(0, np.pi)
        c, s_ = np.cos(angle), np.sin(angle)
        u = ((xx - cx) * c + (yy - cy) * s_) / rx
        v = (-(xx - cx) * s_ + (yy - cy) * c) / ry
        inside = u * u + v * v <= 1
        folds = 0.8 + 0.25 * np.sin(rng.uniform(0.2, 0.6) * (xx * s_ - yy * c))
        img[inside] = (colour[None, None, :] * folds[:, :, None])[inside]


def smooth(field, radius):
    """A box blur of `radius` pixels, three passes (close to a Gaussian), along both axes."""
    for _ in range(3):
        for axis in (0, 1):
            padded = np.concatenate([np.take(field, [0] * radius, axis), field, np.take(field, [-1] * radius, axis)], axis)
            c = np.cumsum(padded, axis, dtype=float)
            c = np.concatenate([np.zeros_like(np.take(c, [0], axis)), c], axis)
            n = field.shape[axis]
            field = (np.take(c, range(2 * radius + 1, 2 * radius + 1 + n), axis) - np.take(c, range(0, n), axis)) / (2 * radius + 1)
    return field


def finish(img, rng):
    """What a camera adds to the drawn room: uneven light, surface texture, lens blur, sensor noise."""
    y = np.arange(H)[:, None] / H
    x = np.arange(W)[None, :] / W
    light = 1 + sum(rng.uniform(0.02, 0.05) * np.sin(rng.uniform(1, 4) * np.pi * (x * np.cos(a) + y * np.sin(a)) + rng.uniform(0, 6))
                    for a in rng.uniform(0, np.pi, 3))
    texture = smooth(rng.normal(0, 1, (H, W)), 2)
    texture *= 0.03 / texture.std()
    img = img * (light * (1 + texture))[:, :, None]
    img = np.stack([smooth(img[:, :, c], 1) for c in range(3)], -1)  # the lens: edges a pixel or two wide
    img = img + rng.normal(0, 0.01, img.shape)  # sensor noise
    return (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)


def exif_segment(date_time, offset):
    """A minimal APP1 Exif segment holding DateTimeOriginal (and OffsetTimeOriginal), little-endian."""
    entries = [(0x9003, date_time.encode() + b"\0")]
    if offset:
        entries.append((0x9011, offset.encode() + b"\0"))
    # IFD0 with one entry (ExifIFD pointer) at offset 8; the Exif IFD right after it, then its values.
    exif_ifd = 8 + 2 + 12 + 4
    values_at = exif_ifd + 2 + 12 * len(entries) + 4
    ifd0 = struct.pack("<H", 1) + struct.pack("<HHII", 0x8769, 4, 1, exif_ifd) + struct.pack("<I", 0)
    body, values = struct.pack("<H", len(entries)), b""
    for tag, value in entries:
        body += struct.pack("<HHII", tag, 2, len(value), values_at + len(values))
        values += value
    body += struct.pack("<I", 0)
    tiff = b"II*\0" + struct.pack("<I", 8) + ifd0 + body + values
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def write_jpeg(pixels, name, quality=90, exif=None):
    ppm = os.path.join(TMP, name + ".ppm")
    h, w, _ = pixels.shape
    with open(ppm, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h))
        f.write(pixels.tobytes())
    data = subprocess.run(["cjpeg", "-quality", str(quality), ppm], check=True, capture_output=True).stdout
    if exif:
        data = data[:2] + exif_segment(*exif) + data[2:]
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def resized(pixels, factor):
    """Box-filter downscale by an integer factor (a stand-in for a phone's "smaller copy")."""
    h, w, _ = pixels.shape
    h2, w2 = h // factor * factor, w // factor * factor
    return pixels[:h2, :w2].reshape(h2 // factor, factor, w2 // factor, factor, 3).mean((1, 3)).astype(np.uint8)


SCENES = [
    # name, seed, wall, floor, duvet, bed left, bed width, made
    ("made-1", 1, [0.86, 0.84, 0.78], [0.55, 0.40, 0.28], [0.80, 0.82, 0.86], 150, 340, True),
    ("made-2", 2, [0.70, 0.78, 0.74], [0.48, 0.36, 0.26], [0.93, 0.90, 0.82], 40, 300, True),
    ("made-3", 3, [0.88, 0.80, 0.80], [0.60, 0.46, 0.32], [0.55, 0.62, 0.72], 290, 320, True),
    ("unmade-1", 11, [0.86, 0.84, 0.78], [0.55, 0.40, 0.28], [0.80, 0.82, 0.86], 150, 340, False),
    ("unmade-2", 12, [0.70, 0.78, 0.74], [0.48, 0.36, 0.26], [0.93, 0.90, 0.82], 40, 300, False),
    ("unmade-3", 13, [0.88, 0.80, 0.80], [0.60, 0.46, 0.32], [0.55, 0.62, 0.72], 290, 320, False),
]

os.makedirs(OUT, exist_ok=True)
rendered = {}
for name, seed, wall, floor, duvet, left, width, made in SCENES:
    rng = np.random.default_rng(seed)
    img = room(rng, wall, floor, horizon=250)
    bed(img, rng, left, width, top=200, duvet=duvet, made=made)
    if not made:
        clutter(img, rng, 110)
    rendered[name] = finish(img, rng)
    write_jpeg(rendered[name], name + ".jpg")

# The same made bed as a smaller, re-encoded copy (perceptual-hash duplicate), and made beds with
# an EXIF capture time: with an offset, and without one (read in the configured zone).
write_jpeg(resized(rendered["made-1"], 2), "made-1-smaller-copy.jpg", quality=70)
# The same made bed mirrored, cropped to its middle 96%, darkened and re-encoded: a copy that the
# perceptual hash does not see, which the scene check of earlier proofs refuses (issue 39).
copy = rendered["made-1"][H // 50 : H - H // 50, W // 50 : W - W // 50, :][:, ::-1, :]
write_jpeg(np.clip(copy.astype(np.float64) * 0.85, 0, 255).astype(np.uint8), "made-1-mirrored-copy.jpg", quality=75)
write_jpeg(rendered["made-2"], "made-2-exif-2026-11-18.jpg", exif=("2026:11:18 07:45:00", "+01:00"))
write_jpeg(rendered["made-3"], "made-3-exif-local-2026-11-20.jpg", exif=("2026:11:20 06:30:00", None))
