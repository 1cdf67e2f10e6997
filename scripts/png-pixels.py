#!/usr/bin/env python3
"""Prints the colours of pixels of a PNG (8-bit RGB or RGBA, not interlaced) as JSON.

Usage: scripts/png-pixels.py FILE [--count RRGGBB[/TOLERANCE] ...] [X,Y ...]
Output: {"width": W, "height": H, "pixels": [[R, G, B, A], ...], "counts": {"RRGGBB": N, ...}}:
the pixels in the order given, and for each --count how many pixels of the image are that
colour (each channel within TOLERANCE, 0 by default).
The tests use it to check where rsvg-convert drew the map snapshot's pins, and how much of a
map is sea.
"""
import json
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise SystemExit(f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs are supported")
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + predictor) & 255
        rows.append(line)
        previous = line
    return width, height, channels, rows


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    width, height, channels, rows = read_png(sys.argv[1])
    args, counts = sys.argv[2:], {}
    while args and args[0] == "--count":
        colour, _, tolerance = args[1].partition("/")
        target, tolerance = bytes.fromhex(colour), int(tolerance or 0)
        n = 0
        for row in rows:
            for x in range(0, width * channels, channels):
                if all(abs(row[x + i] - target[i]) <= tolerance for i in range(3)):
                    n += 1
        counts[colour] = n
        args = args[2:]
    pixels = []
    for spec in args:
        x, y = (int(round(float(v))) for v in spec.split(","))
        if not (0 <= x < width and 0 <= y < height):
            pixels.append(None)
            continue
        px = list(rows[y][x * channels:(x + 1) * channels])
        pixels.append(px if channels == 4 else px + [255])
    print(json.dumps({"width": width, "height": height, "pixels": pixels, "counts": counts}))


if __name__ == "__main__":
    main()
