#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws a Rankstep trace (rankstep-cli run ... --json) the way the puzzles notebook's draw()
colors it, as a PNG, for docs/colors.md: each rank a light grey row, forward in the layer's
color, backward the layer's color at 20% opacity, update yellow at 50%, all-reduce, all-gather
and scatter-reduce the layer's color at 50%, pass grey at 50%, the batches written on forward
and backward blocks. Standard library only (no imaging package): rectangles and a small digit
font are all the notebook's picture needs.

Usage: scripts/notebook-drawing.py TRACE.json OUT.png
"""
import colorsys
import json
import struct
import sys
import zlib

STEP = 60  # pixels per simulated step (the notebook's TIME = 2 units, 30 pixels each)
ROW = 40  # pixels per rank
LABEL = 50  # the rank numbers' column
GAP = 2  # between blocks: the notebook's 0.05 units

LIGHTGREY = (0xD3, 0xD3, 0xD3)
ORANGE = (0xFF, 0xA5, 0x00)
YELLOW = (0xFF, 0xFF, 0x00)
GREY = (0x80, 0x80, 0x80)

# 3x5 digits, a row of three bits each, top first.
DIGITS = {
    "0": ["111", "101", "101", "101", "111"], "1": ["010", "110", "010", "010", "111"],
    "2": ["111", "001", "111", "100", "111"], "3": ["111", "001", "111", "001", "111"],
    "4": ["101", "101", "111", "001", "001"], "5": ["111", "100", "111", "001", "111"],
    "6": ["111", "100", "111", "101", "111"], "7": ["111", "001", "010", "010", "010"],
    "8": ["111", "101", "111", "101", "111"], "9": ["111", "101", "111", "001", "111"],
}


def layer_color(layer, layers):
    """colour's Color("green").range_to("red", layers + 1)[layer]: even steps in hue,
    saturation and lightness from green (#008000) to red (#ff0000)."""
    t = 0.0 if layers <= 0 else min(max(layer / layers, 0.0), 1.0)
    green_lightness = 128 / 255 / 2
    r, g, b = colorsys.hls_to_rgb((1 - t) / 3, green_lightness + (0.5 - green_lightness) * t, 1.0)
    return tuple(round(c * 255) for c in (r, g, b))


def fill_of(event, layers):
    """The event's color and opacity in the notebook's draw(), or None where it draws nothing."""
    op, layer = event["op"], event.get("layer", 0)
    if op == "forward":
        return layer_color(layer, layers), 1.0
    if op == "backward":
        return layer_color(layer, layers), 0.2
    if op == "update":
        return YELLOW, 0.5
    if op in ("allreduce", "scatterreduce", "allgather"):
        return layer_color(layer, layers), 0.5
    if op in ("pass_to", "receive"):
        return GREY, 0.5
    return None  # the loss: the notebook draws no block for it


class Canvas:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.pixels = [[(255, 255, 255)] * width for _ in range(height)]

    def fill(self, x0, y0, x1, y1, color, opacity=1.0):
        for y in range(max(0, int(y0)), min(self.height, int(y1))):
            row = self.pixels[y]
            for x in range(max(0, int(x0)), min(self.width, int(x1))):
                old = row[x]
                row[x] = tuple(round(o + (c - o) * opacity) for o, c in zip(old, color))

    def text(self, x, y, text, color, scale=3):
        for ch in text:
            glyph = DIGITS.get(ch)
            if glyph:
                for gy, bits in enumerate(glyph):
                    for gx, bit in enumerate(bits):
                        if bit == "1":
                            self.fill(x + gx * scale, y + gy * scale, x + (gx + 1) * scale,
                                      y + (gy + 1) * scale, color)
            x += 4 * scale

    def png(self):
        raw = b"".join(b"\0" + bytes(c for px in row for c in px) for row in self.pixels)
        chunk = lambda kind, data: (struct.pack(">I", len(data)) + kind + data +
                                    struct.pack(">I", zlib.crc32(kind + data)))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def draw(trace):
    layers = trace["config"]["layers"]
    ranks = trace["ranks"]
    end = max((e["start"] + e["duration"] for r in ranks for e in r["events"]), default=1)
    width = LABEL + int((end + 1) * STEP)
    canvas = Canvas(width, len(ranks) * ROW + 8)
    for row, rank in enumerate(ranks):
        top = 4 + row * ROW
        canvas.fill(LABEL, top, width, top + ROW - 1, LIGHTGREY)
        canvas.text(LABEL // 2 - 6, top + ROW // 2 - 7, str(rank["rank"]), ORANGE)
        for event in rank["events"]:
            fill = fill_of(event, layers)
            if fill is None or event["duration"] <= 0:
                continue
            x0 = LABEL + event["start"] * STEP
            x1 = LABEL + (event["start"] + event["duration"]) * STEP - GAP
            canvas.fill(x0, top + 2, x1, top + ROW - 3, *fill)
            if event["op"] in ("forward", "backward"):
                words = " ".join(str(b) for b in event.get("batches", []))
                if len(words) * 12 <= x1 - x0 - 4:
                    canvas.text((x0 + x1) / 2 - len(words) * 6, top + ROW // 2 - 8, words,
                                (0, 0, 0))
    return canvas


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        trace = json.load(f)
    with open(sys.argv[2], "wb") as f:
        f.write(draw(trace).png())


if __name__ == "__main__":
    main()
