#!/usr/bin/python3
"""mkpng.py WIDTH HEIGHT FILE [--bomb]: writes a PNG for the image tests;
mkpng.py --size FILE: prints the type and size of a PNG, JPEG, GIF or WebP
("png 300x300"), as its header says.

An RGB picture with gradients and a seeded pattern (so that resized copies
differ from each other and compress like a photo, a little), or with
--bomb a decompression bomb: a file of a few hundred bytes whose header
claims WIDTH x HEIGHT pixels, holding only the first rows.
"""
import random
import struct
import sys
import zlib


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def size_of(data):
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png %dx%d" % struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif %dx%d" % struct.unpack("<HH", data[6:10])
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        kind = data[12:16]
        if kind == b"VP8 ":
            w, h = struct.unpack("<HH", data[26:30])
            return "webp %dx%d" % (w & 0x3FFF, h & 0x3FFF)
        if kind == b"VP8L":
            b = struct.unpack("<I", data[21:25])[0]
            return "webp %dx%d" % ((b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1)
        if kind == b"VP8X":
            w = int.from_bytes(data[24:27], "little") + 1
            h = int.from_bytes(data[27:30], "little") + 1
            return "webp %dx%d" % (w, h)
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2):
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return "jpeg %dx%d" % (w, h)
            i += 2 + length
    return "unknown"


def main():
    if sys.argv[1] == "--size":
        with open(sys.argv[2], "rb") as f:
            print(size_of(f.read()))
        return
    width, height, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    bomb = "--bomb" in sys.argv[4:]
    rng = random.Random(23)
    rows = []
    for y in range(min(height, 4) if bomb else height):
        row = bytearray([0])
        for x in range(width if not bomb else min(width, 16)):
            noise = rng.randrange(32)
            row += bytes(((x * 255 // max(width - 1, 1)) ^ noise, (y * 255 // max(height - 1, 1)),
                          ((x + y) % 256) ^ noise))
        rows.append(bytes(row))
    data = zlib.compress(b"".join(rows), 9)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(out, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) +
                chunk(b"IEND", b""))


if __name__ == "__main__":
    main()
