#!/usr/bin/python3
"""mkpng.py WIDTH HEIGHT FILE [--bomb]: writes a PNG for the image tests.

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


def main():
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
