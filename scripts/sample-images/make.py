#!/usr/bin/env python3
"""Writes SampleImages/: one file per decoding case and one per kind of broken file.

Standard library only; JPEGs come from cjpeg (libjpeg-turbo-progs) and, for CMYK, the small
jpeg-cases helper. Run through scripts/make-sample-images, which builds the helper first."""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

OUT = sys.argv[1]
JPEG_CASES = sys.argv[2]
TMP = tempfile.mkdtemp(prefix="mp-samples-")

RED, GREEN, BLUE, WHITE = (220, 30, 30), (30, 200, 40), (30, 40, 210), (250, 250, 250)


def quadrants(width, height):
    """An asymmetric picture: red top left, green top right, blue bottom left, white bottom right,
    with a dark stripe along the top edge of the red quadrant so every orientation differs."""
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            left, top = x < width // 2, y < height // 2
            colour = RED if left and top else GREEN if top else BLUE if left else WHITE
            if top and left and y < height // 8:
                colour = (40, 0, 0)
            row.append(colour)
        rows.append(row)
    return rows


def write_ppm(path, rows, gray=False):
    height, width = len(rows), len(rows[0])
    with open(path, "wb") as f:
        if gray:
            f.write(b"P5 %d %d 255\n" % (width, height))
            f.write(bytes(v for row in rows for v in row))
        else:
            f.write(b"P6 %d %d 255\n" % (width, height))
            f.write(bytes(c for row in rows for p in row for c in p))


def cjpeg(name, rows, *flags, gray=False):
    source = os.path.join(TMP, name + (".pgm" if gray else ".ppm"))
    write_ppm(source, rows, gray)
    target = os.path.join(OUT, name)
    subprocess.run(["cjpeg", *flags, "-outfile", target, source], check=True)
    return target


def exif_app1(orientation=None, capture=None, offset=None):
    """APP1 segment with a little-endian TIFF: IFD0 (orientation, Exif IFD pointer) and the Exif IFD."""
    ifd0 = []
    if orientation is not None:
        ifd0.append((0x0112, 3, 1, struct.pack("<HH", orientation, 0)))
    exif_entries = []
    if capture is not None:
        exif_entries.append((0x9003, 2, capture.encode() + b"\0"))
    if offset is not None:
        exif_entries.append((0x9011, 2, offset.encode() + b"\0"))
    has_exif = bool(exif_entries)
    ifd0_count = len(ifd0) + (1 if has_exif else 0)
    ifd0_size = 2 + 12 * ifd0_count + 4
    exif_ifd_offset = 8 + ifd0_size
    exif_size = 2 + 12 * len(exif_entries) + 4
    data_offset = exif_ifd_offset + exif_size
    body = b""
    entries = b""
    for tag, typ, count, value in ifd0:
        entries += struct.pack("<HHI", tag, typ, count) + value
    if has_exif:
        entries += struct.pack("<HHII", 0x8769, 4, 1, exif_ifd_offset)
    tiff = b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", ifd0_count) + entries + struct.pack("<I", 0)
    if has_exif:
        exif = struct.pack("<H", len(exif_entries))
        for tag, typ, value in exif_entries:
            if len(value) <= 4:
                exif += struct.pack("<HHI", tag, typ, len(value)) + value.ljust(4, b"\0")
            else:
                exif += struct.pack("<HHII", tag, typ, len(value), data_offset + len(body))
                body += value
        exif += struct.pack("<I", 0)
        tiff += exif + body
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def insert_after_soi(path, segment):
    data = open(path, "rb").read()
    assert data[:2] == b"\xff\xd8"
    # After SOI and cjpeg's JFIF APP0.
    position = 2
    if data[2:4] == b"\xff\xe0":
        position = 4 + struct.unpack(">H", data[4:6])[0]
    open(path, "wb").write(data[:position] + segment + data[position:])


def stored_for_orientation(display, orientation):
    """The stored picture that EXIF `orientation` turns into `display` (the inverse of the display transform)."""
    dh, dw = len(display), len(display[0])
    swaps = orientation >= 5
    w, h = (dh, dw) if swaps else (dw, dh)
    stored = [[None] * w for _ in range(h)]
    for dy in range(dh):
        for dx in range(dw):
            sx, sy = {
                1: (dx, dy), 2: (w - 1 - dx, dy), 3: (w - 1 - dx, h - 1 - dy), 4: (dx, h - 1 - dy),
                5: (dy, dx), 6: (dy, h - 1 - dx), 7: (w - 1 - dy, h - 1 - dx), 8: (w - 1 - dy, dx),
            }[orientation]
            stored[sy][sx] = display[dy][dx]
    return stored


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def pack_row(samples, bit_depth):
    if bit_depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if bit_depth == 8:
        return bytes(samples)
    per_byte = 8 // bit_depth
    out = bytearray()
    for i in range(0, len(samples), per_byte):
        byte = 0
        group = samples[i:i + per_byte]
        for j, s in enumerate(group):
            byte |= s << (8 - bit_depth * (j + 1))
        out.append(byte)
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def write_png(name, rows, color_type, bit_depth, interlace=False, extra_chunks=(), width=None, height=None):
    """rows: lists of pixels, each pixel a tuple of samples (channels as the colour type needs)."""
    height = height or len(rows)
    width = width or len(rows[0])
    raw = bytearray()
    if interlace:
        for x0, y0, dx, dy in ADAM7:
            if x0 >= width or y0 >= height:
                continue
            for y in range(y0, height, dy):
                samples = [s for x in range(x0, width, dx) for s in rows[y][x]]
                raw += b"\0" + pack_row(samples, bit_depth)
    else:
        for row in rows:
            raw += b"\0" + pack_row([s for p in row for s in p], bit_depth)
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlace else 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    for kind, payload in extra_chunks:
        data += chunk(kind, payload)
    data += chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    path = os.path.join(OUT, name)
    open(path, "wb").write(data)
    return path


def main():
    os.makedirs(OUT, exist_ok=True)
    picture = quadrants(128, 96)

    # JPEG cases.
    baseline = cjpeg("baseline.jpg", picture, "-quality", "90")
    insert_after_soi(baseline, exif_app1(capture="2026:11:18 07:12:05", offset="+01:00"))
    cjpeg("progressive.jpg", picture, "-quality", "90", "-progressive")
    gray_rows = [[(40 if x < 64 else 200) for x in range(128)] for y in range(96)]
    cjpeg("grayscale.jpg", gray_rows, "-quality", "90", "-grayscale", gray=True)
    subprocess.run([JPEG_CASES, "cmyk", os.path.join(OUT, "cmyk-adobe.jpg")], check=True)
    display = quadrants(96, 64)
    for orientation in range(1, 9):
        path = cjpeg("orientation-%d.jpg" % orientation, stored_for_orientation(display, orientation), "-quality", "90")
        insert_after_soi(path, exif_app1(orientation=orientation))

    # PNG cases.
    half = [[(32768, 32768, 32768) if x < 32 else (65535, 0, 0) for x in range(64)] for y in range(32)]
    write_png("rgb16.png", half, color_type=2, bit_depth=16)
    palette = bytes([220, 30, 30, 30, 200, 40, 30, 40, 210])
    trns = bytes([255, 0])  # index 0 opaque red, index 1 fully transparent, index 2 opaque blue
    indexed = [[(0 if x < 20 else 1 if x < 44 else 2,) for x in range(64)] for y in range(32)]
    write_png("palette-trns.png", indexed, color_type=3, bit_depth=8,
              extra_chunks=[(b"PLTE", palette), (b"tRNS", trns)])
    write_png("interlaced.png", quadrants(64, 48), color_type=2, bit_depth=8, interlace=True)
    gray_alpha = [[(0, 255) if y < 16 else (0, 0) for x in range(48)] for y in range(32)]
    write_png("gray-alpha.png", gray_alpha, color_type=4, bit_depth=8)
    checker = [[((x // 8 + y // 8) % 2,) for x in range(64)] for y in range(64)]
    write_png("gray1.png", checker, color_type=0, bit_depth=1)

    # Broken files.
    broken = os.path.join(OUT, "broken")
    os.makedirs(broken, exist_ok=True)
    data = open(baseline, "rb").read()
    open(os.path.join(broken, "truncated.jpg"), "wb").write(data[: len(data) * 6 // 10])
    png = bytearray(open(os.path.join(OUT, "interlaced.png"), "rb").read())
    idat = png.index(b"IDAT")
    length = struct.unpack(">I", png[idat - 4:idat])[0]
    png[idat + 4 + length] ^= 0xFF  # first byte of IDAT's CRC
    open(os.path.join(broken, "bad-crc.png"), "wb").write(bytes(png))
    good_png = open(os.path.join(OUT, "interlaced.png"), "rb").read()
    open(os.path.join(broken, "bad-crc-iend.png"), "wb").write(good_png[:-4] + b"\0\0\0\0")
    open(os.path.join(broken, "truncated.png"), "wb").write(good_png[: len(good_png) // 2])
    open(os.path.join(broken, "empty.jpg"), "wb").write(b"")
    open(os.path.join(broken, "text.jpg"), "w").write("This is not a photo, just a note named like one.\n")
    sof = data.index(b"\xff\xc0")
    huge = bytearray(data)
    huge[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)
    open(os.path.join(broken, "huge-60000.jpg"), "wb").write(bytes(huge))
    ihdr = struct.pack(">IIBBBBB", 60000, 60000, 8, 2, 0, 0, 0)
    huge_png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
                + chunk(b"IEND", b""))
    open(os.path.join(broken, "huge-60000.png"), "wb").write(huge_png)
    # A valid progressive JPEG with 448 scans (the decoder's cap is 100).
    subprocess.run([JPEG_CASES, "many-scans", os.path.join(broken, "many-scans.jpg")], check=True)

main()
