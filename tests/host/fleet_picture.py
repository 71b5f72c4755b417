#!/usr/bin/env python3
"""Reads a `report merge --format svg` picture the way a person would, for the
bats tests: the SVG must parse as XML, and its PNG rendering (rsvg-convert) is
sampled at the centre of every matrix cell. Prints one JSON document:

  svg, png      [width, height] of the SVG and of the PNG
  legend        {label: colour} from the legend swatches
  rows          node names of the pair matrix rows, top down (row tooltips)
  matrix        one string a row, a character a cell, from the PNG's pixels:
                '.' pass, '1' '2' '3' slower passes, 'W' warn, 'F' fail,
                '-' not tested, '\\' white (the diagonal), '?' anything else
  pairs         the cells with a tooltip: from, to, verdict, stage, fill
  checks        the check panel's cells with a tooltip: node, id, verdict, fill, pixel
  texts         every <text> of the picture

Usage: fleet_picture.py SVG PNG [--no-pixels]   (--no-pixels: PNG size only)
No PIL here: the PNG (8-bit RGB or RGBA, not interlaced, as rsvg-convert
writes it) is decoded with zlib.
"""
import json
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
LETTER = {"pass": ".", "pass, 75-90% of the median": "1", "pass, 50-75%": "2", "pass, below 50%": "3",
          "warn": "W", "fail": "F", "not tested": "-"}


def png_chunks(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("fleet_picture: %s is not a PNG" % path)
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(raw, width, height, bpp):
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            line = bytearray((x + y) & 255 for x, y in zip(line, prev))
        elif ftype == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif ftype == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                upleft = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + paeth(left, prev[i], upleft)) & 255
        elif ftype != 0:
            sys.exit("fleet_picture: PNG filter type %d" % ftype)
        rows.append(line)
        prev = line
    return rows


def read_png(path, pixels):
    idat, width = b"", 0
    for kind, body in png_chunks(path):
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                sys.exit("fleet_picture: PNG depth %d colour type %d interlace %d not read here"
                         % (depth, ctype, interlace))
            if not pixels:
                return width, height, None, 0
        elif kind == b"IDAT":
            idat += body
    bpp = 3 if ctype == 2 else 4
    return width, height, unfilter(zlib.decompress(idat), width, height, bpp), bpp


def title_of(el):
    t = el.find(NS + "title")
    return t.text if t is not None else None


def num(el, key):
    return int(float(el.get(key)))


def legend(root):
    out, kids = {}, list(root)
    for i, el in enumerate(kids[:-1]):
        if el.tag == NS + "rect" and el.get("stroke") and kids[i + 1].tag == NS + "text":
            out[kids[i + 1].text] = el.get("fill")
    return out


def main():
    svg_path, png_path = sys.argv[1], sys.argv[2]
    pixels = "--no-pixels" not in sys.argv
    root = ET.parse(svg_path).getroot()
    if root.tag != NS + "svg":
        sys.exit("fleet_picture: the root element is %s, not svg" % root.tag)
    width, height, rows, bpp = read_png(png_path, pixels)
    leg = legend(root)
    colour_letter = {c: LETTER.get(label, "?") for label, c in leg.items()}
    colour_letter["#ffffff"] = "\\"

    def pixel(x, y):
        line = rows[y]
        return "#%02x%02x%02x" % tuple(line[x * bpp:x * bpp + 3])

    out = {"svg": [num(root, "width"), num(root, "height")], "png": [width, height], "legend": leg,
           "rows": [], "matrix": [], "pairs": [], "checks": [],
           "texts": ["".join(t.itertext()) for t in root.iter(NS + "text")]}
    pairs = root.find(NS + "g[@id='pairs']")
    for el in (pairs if pairs is not None else []):
        t = title_of(el)
        m = re.match(r"^(\S+) \u2192 (\S+): (\w+)(?: at (\S+?))?(?:,|$| \()", t or "")
        if m:
            out["pairs"].append({"from": m[1], "to": m[2], "verdict": m[3], "stage": m[4], "fill": el.get("fill")})
            continue
        m = re.match(r"^(\d+): (\S+): ", t or "")
        if not m:
            continue
        out["rows"].append(m[2])
        if pixels:
            cell, x0, y0 = num(el, "height"), num(el, "x"), num(el, "y")
            out["matrix"].append("".join(colour_letter.get(pixel(x0 + c * cell + cell // 2, y0 + cell // 2), "?")
                                         for c in range(num(el, "width") // cell)))
    checks = root.find(NS + "g[@id='checks']")
    for el in (checks if checks is not None else []):
        m = re.match(r"^(\S+): (\S+) (fail|warn)$", title_of(el) or "")
        if m:
            c = {"node": m[1], "id": m[2], "verdict": m[3], "fill": el.get("fill")}
            if pixels:
                c["pixel"] = pixel(num(el, "x") + num(el, "width") // 2, num(el, "y") + num(el, "height") // 2)
            out["checks"].append(c)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
