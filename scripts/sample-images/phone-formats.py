#!/usr/bin/env python3
"""Writes the HEIC and WebP samples: the formats a phone sends (an iPhone's HEIC, Android's WebP).

SampleImages/phone/: three bed scenes (SampleImages/scenes/, made by scripts/make-scenes) encoded
with Debian's own encoders, heif-enc (libheif-examples, x265) and cwebp (webp), their EXIF copied
from the JPEG (so made-2's capture time is in the HEIF Exif block and in the WebP EXIF chunk).
SampleImages/broken/: each format cut short, and each with a header claiming 100000x100000; a HEIC whose
header says 100x100 while its HEVC picture is 2000x2000 (the picture's own size must be checked before
libheif decodes it).

Standard library only. Run through scripts/make-sample-images."""
import os
import struct
import subprocess
import sys

OUT = sys.argv[1]
SCENES = os.path.join(OUT, "scenes")
PHONE = os.path.join(OUT, "phone")
BROKEN = os.path.join(OUT, "broken")
# Which scenes: one made, one unmade, and one with an EXIF capture time.
NAMES = ["made-1", "unmade-1", "made-2-exif-2026-11-18"]


def encode(name):
    source = os.path.join(SCENES, name + ".jpg")
    heic = os.path.join(PHONE, name + ".heic")
    webp = os.path.join(PHONE, name + ".webp")
    subprocess.run(["heif-enc", "-q", "50", "-o", heic, source], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cwebp", "-quiet", "-q", "80", "-metadata", "exif", source, "-o", webp], check=True)
    return heic, webp


def boxes(data, start, end):
    """(type, offset, header size, size) of each ISO BMFF box between start and end."""
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[offset + 8:offset + 16])[0], 16
        if size < header or offset + size > end:
            break
        yield kind, offset, header, size
        offset += size


def claimed_heic(source, target, width, height):
    """Every ispe box (meta > iprp > ipco > ispe) set to width x height: the image's declared size."""
    data = bytearray(open(source, "rb").read())
    containers = {b"meta": 4, b"iprp": 0, b"ipco": 0}  # meta is a full box: 4 bytes of version and flags

    def walk(start, end):
        for kind, offset, header, size in boxes(data, start, end):
            if kind in containers:
                walk(offset + header + containers[kind], offset + size)
            elif kind == b"ispe":
                data[offset + header + 4:offset + header + 12] = struct.pack(">II", width, height)

    walk(0, len(data))
    open(target, "wb").write(bytes(data))


def lying_heic(target, side):
    """A flat grey side x side picture (a PGM through cjpeg, as heif-enc reads JPEG) whose ispe says 100x100."""
    pgm = os.path.join(os.path.dirname(target), "lie.pgm")
    jpeg, heic = pgm + ".jpg", pgm + ".heic"
    with open(pgm, "wb") as out:
        out.write(b"P5 %d %d 255\n" % (side, side) + bytes([128]) * (side * side))
    try:
        with open(jpeg, "wb") as out:
            subprocess.run(["cjpeg", "-quality", "90", pgm], check=True, stdout=out)
        subprocess.run(["heif-enc", "-q", "50", "-o", heic, jpeg], check=True, stdout=subprocess.DEVNULL)
        claimed_heic(heic, target, 100, 100)
    finally:
        for path in (pgm, jpeg, heic):
            if os.path.exists(path):
                os.remove(path)


def huge_webp(source, target):
    """The VP8X canvas set to 100000x100000 (stored as width - 1 and height - 1, 24 bits each)."""
    data = bytearray(open(source, "rb").read())
    if data[12:16] != b"VP8X":
        sys.exit("phone-formats: cwebp wrote no VP8X chunk (the EXIF chunk needs one)")
    data[24:30] = (100000 - 1).to_bytes(3, "little") + (100000 - 1).to_bytes(3, "little")
    open(target, "wb").write(bytes(data))


def main():
    os.makedirs(PHONE, exist_ok=True)
    for name in os.listdir(PHONE):
        os.remove(os.path.join(PHONE, name))
    # The one with EXIF: its WebP has the VP8X chunk (and canvas size) that the huge one changes.
    made = [encode(name) for name in NAMES][-1]
    for path, extension in zip(made, ["heic", "webp"]):
        data = open(path, "rb").read()
        open(os.path.join(BROKEN, "truncated." + extension), "wb").write(data[: len(data) * 6 // 10])
    claimed_heic(made[0], os.path.join(BROKEN, "huge-100000.heic"), 100000, 100000)
    lying_heic(os.path.join(BROKEN, "ispe-lie-2000-as-100.heic"), 2000)
    huge_webp(made[1], os.path.join(BROKEN, "huge-100000.webp"))


main()
