#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws the pictures of the lessons on the modern parallelisms as SVG files, in English
(NAME.svg) and German (NAME.de.svg), into their lesson folders (lessons/README.md, "Pictures").

The files draw in three colors that stand for the window's and the app swaps for the theme's
(gui/render/lessonpicture.h): INK (the text), MUTED (lines in between), PAPER (the page). Every
other color is the app's palette (gui/render/palette.cpp): the notebook's layer scale from green
to red, the ranks' colors, a message's gray, filled half transparent so that it reads on a light
and a dark page. The words are 14 units high, the size the lesson pane gives its text, and never
smaller than 13; a picture is at most 480 units wide, about the lesson pane's width at 1500x940,
so that the pane draws it at the text's size and its smallest words stay at least 11 pixels high
(tests/gui/app/lessonpicturesizetest.cpp). Only what QtSvg draws (SVG Tiny 1.2): no markers, no
patterns, no CSS.

The pipeline schedules are simulated here, not drawn by hand: each rank runs its operations in
the schedule's order, each as soon as the one it needs has finished, under the papers' unit costs
(a layer's forward 1, its backward 2, or B 1 and W 1; communication free). The script checks the
bubbles against the formulas the lessons quote before it writes anything.

Usage: scripts/lesson_pictures.py [LESSONS_DIR]   (default: lessons/ beside this script)
Standard library only.
"""
import colorsys
import os
import sys
from fractions import Fraction
from xml.sax.saxutils import escape

INK, MUTED, PAPER = "#222222", "#888888", "#ffffff"
RANKS = ["#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
MESSAGE = "#9e9e9e"
FONT = 14  # the text's size in the lesson pane
SMALL = 13  # the smallest words: at the pane's 12-pixel text, 11 pixels
WIDTH = 480  # wider, and the pane at 1500x940 would draw a picture smaller than the text


def layer_color(layer, layers):
    """The notebook's Color("green").range_to("red", layers + 1)[layer] (palette.cpp)."""
    t = layer / layers if layers else 0
    h0, l0, s0 = 1 / 3, 0.25098, 1.0  # green, #008000
    h1, l1, s1 = 0.0, 0.5, 1.0  # red
    r, g, b = colorsys.hls_to_rgb(h0 + (h1 - h0) * t, l0 + (l1 - l0) * t, s0 + (s1 - s0) * t)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


class Svg:
    def __init__(self, width, height):
        self.width, self.height, self.parts = width, height, []

    def rect(self, x, y, w, h, fill="none", opacity=1.0, stroke=None, dash=None, rx=0, sw=1):
        a = f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}"'
        if opacity != 1.0 and fill != "none":
            a += f' fill-opacity="{opacity:g}"'
        if stroke:
            a += f' stroke="{stroke}" stroke-width="{sw:g}"'
        if dash:
            a += f' stroke-dasharray="{dash}"'
        if rx:
            a += f' rx="{rx:g}"'
        self.parts.append(a + "/>")

    def line(self, x1, y1, x2, y2, stroke=INK, sw=1.2, dash=None):
        a = f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" stroke-width="{sw:g}"'
        if dash:
            a += f' stroke-dasharray="{dash}"'
        self.parts.append(a + "/>")

    def polyline(self, points, stroke=INK, sw=1.2, dash=None):
        pts = " ".join(f"{x:g},{y:g}" for x, y in points)
        a = f'<polyline points="{pts}" fill="none" stroke="{stroke}" stroke-width="{sw:g}"'
        if dash:
            a += f' stroke-dasharray="{dash}"'
        self.parts.append(a + "/>")

    def arrow(self, x1, y1, x2, y2, stroke=INK, sw=1.4, head=7, dash=None):
        """A line with a filled head at (x2, y2)."""
        dx, dy = x2 - x1, y2 - y1
        n = (dx * dx + dy * dy) ** 0.5 or 1
        ux, uy = dx / n, dy / n
        bx, by = x2 - ux * head, y2 - uy * head
        self.line(x1, y1, bx, by, stroke, sw, dash)
        px, py = -uy * head * 0.45, ux * head * 0.45
        self.parts.append(
            f'<polygon points="{x2:g},{y2:g} {bx + px:g},{by + py:g} {bx - px:g},{by - py:g}" '
            f'fill="{stroke}"/>')

    def circle(self, cx, cy, r, fill="none", opacity=1.0, stroke=None, sw=1.2):
        a = f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{fill}"'
        if opacity != 1.0 and fill != "none":
            a += f' fill-opacity="{opacity:g}"'
        if stroke:
            a += f' stroke="{stroke}" stroke-width="{sw:g}"'
        self.parts.append(a + "/>")

    def text(self, x, y, words, size=FONT, anchor="start", fill=INK, bold=False, italic=False):
        if size < SMALL:
            raise SystemExit(f"{words!r}: {size} units, smaller than the smallest words ({SMALL})")
        a = f'<text x="{x:g}" y="{y:g}" font-family="DejaVu Sans, sans-serif" font-size="{size}"'
        if anchor != "start":
            a += f' text-anchor="{anchor}"'
        if bold:
            a += ' font-weight="bold"'
        if italic:
            a += ' font-style="italic"'
        self.parts.append(a + f' fill="{fill}">{escape(words)}</text>')

    def para(self, x, y, words, size=SMALL, line=None, right=None):
        """`words` wrapped to end before `right` (the picture's width less 8), a line every
        `line` units; the baseline of the line after the last."""
        right = right or self.width - 8
        line = line or size + 6
        current = ""
        for word in words.split(" "):
            trial = (current + " " + word).strip()
            if current and x + text_width(trial, size) > right:
                self.text(x, y, current, size=size)
                y, current = y + line, word
            else:
                current = trial
        if current:
            self.text(x, y, current, size=size)
            y += line
        return y

    def write(self, path, title):
        if self.width > WIDTH:
            raise SystemExit(f"{path}: {self.width:g} units wide, wider than the pane ({WIDTH})")
        body = "\n".join("  " + p for p in self.parts)
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny" '
               f'width="{self.width:g}" height="{self.height:g}" '
               f'viewBox="0 0 {self.width:g} {self.height:g}">\n'
               f"  <title>{escape(title)}</title>\n{body}\n</svg>\n")
        with open(path, "w", encoding="utf-8") as out:
            out.write(svg)


def text_width(words, size=FONT):
    """About how wide DejaVu Sans sets `words`: for layout only."""
    return len(words) * size * 0.6


# ----- pipeline schedules -----

def order_1f1b(p, m, r):
    warm = min(p - r - 1, m)
    ops = [("F", i, 0) for i in range(warm)]
    for i in range(m - warm):
        ops += [("F", warm + i, 0), ("B", i, 0)]
    return ops + [("B", i, 0) for i in range(m - warm, m)]


def order_interleaved(p, m, v, r):
    """Megatron-LM's interleaved 1F1B: forwards in groups of p micro-batches per chunk."""
    total = m * v

    def forward(k):
        return (k // (p * v)) * p + k % p, (k // p) % v

    def backward(k):
        return (k // (p * v)) * p + k % p, v - 1 - (k // p) % v

    warm = min((p - r - 1) * 2 + (v - 1) * p, total)
    ops = [("F",) + forward(k) for k in range(warm)]
    for i in range(total - warm):
        ops += [("F",) + forward(warm + i), ("B",) + backward(i)]
    return ops + [("B",) + backward(k) for k in range(total - warm, total)]


def order_zbh1(p, m, r):
    """ZB-H1 as the zero_bubble lesson says it: p - r forwards, then for each micro-batch its B,
    the W of the oldest if more than r wait, and the next forward; the W's left at the end."""
    ops = [("F", i, 0) for i in range(min(p - r, m))]
    waiting, nxt = [], min(p - r, m)
    for i in range(m):
        ops.append(("B", i, 0))
        waiting.append(i)
        if len(waiting) > r:
            ops.append(("W", waiting.pop(0), 0))
        if nxt < m:
            ops.append(("F", nxt, 0))
            nxt += 1
    return ops + [("W", i, 0) for i in waiting]


def simulate(p, v, orders, cost):
    """Start and end of every operation: (rank, kind, micro-batch, chunk) -> (start, end).
    Stage k = chunk * p + rank; a forward needs stage k - 1's, a B stage k + 1's (the last
    stage its own forward), a W its own B."""
    done, clock, at = {}, [0] * p, [0] * p
    last = p * v - 1
    while any(at[r] < len(orders[r]) for r in range(p)):
        moved = False
        for r in range(p):
            if at[r] >= len(orders[r]):
                continue
            kind, mb, chunk = orders[r][at[r]]
            k = chunk * p + r
            if kind == "F":
                need = None if k == 0 else ("F", mb, k - 1)
            elif kind == "B":
                need = ("F", mb, k) if k == last else ("B", mb, k + 1)
            else:
                need = ("B", mb, k)
            if need is not None and need not in done:
                continue
            start = max(clock[r], done[need] if need else 0)
            end = start + cost[kind]
            done[(kind, mb, k)] = end
            clock[r] = end
            orders_at = (r, kind, mb, chunk)
            simulate.spans[orders_at] = (start, end)
            at[r] += 1
            moved = True
        if not moved:
            raise SystemExit("the schedule deadlocks")
    return max(clock)


def schedule(p, m, v, orders, cost):
    simulate.spans = {}
    end = simulate(p, v, orders, cost)
    return end, dict(simulate.spans)


def check_bubble(name, end, ideal, expected):
    bubble = Fraction(end - ideal) / ideal
    if bubble != expected:
        raise SystemExit(f"{name}: bubble {bubble}, the formula says {expected}")


def draw_schedule(svg, x0, y0, unit, row, width, p, spans, colors, title, note):
    """One schedule: its title and bubble above, a row per rank, each operation a block in its
    stage's layer color, the micro-batch written where it fits. The bottom of the last row."""
    svg.text(x0, y0 - 24, title, bold=True)
    svg.text(x0, y0 - 7, note, size=SMALL)
    for r in range(p):
        y = y0 + r * row
        svg.text(x0 - 6, y + row * 0.72, f"{r}", size=SMALL, anchor="end")
        svg.rect(x0, y + 1, width, row - 2, fill=MUTED, opacity=0.15)
    for (r, kind, mb, chunk), (start, end) in spans.items():
        color = colors(r, chunk)
        x, w = x0 + start * unit, (end - start) * unit
        y = y0 + r * row
        style = {"F": (0.75, None), "B": (0.3, None), "W": (0.12, "3,2")}[kind]
        svg.rect(x + 0.5, y + 2, w - 1, row - 4, fill=color, opacity=style[0], stroke=color,
                 dash=style[1], sw=1)
        label = str(mb + 1)
        if kind != "W" and w >= text_width(label, SMALL) + 4:  # the W's, dashed, read as a group
            svg.text(x + w / 2, y + row * 0.72, label, size=SMALL, anchor="middle")
    return y0 + p * row


def legend(svg, x, y, items):
    """Swatches with their words, left to right, on as many lines as the picture's width takes:
    (fill, opacity, dash, words). The baseline of the line after the last."""
    left = x
    for fill, opacity, dash, words in items:
        wide = 21 + text_width(words, SMALL)
        if x > left and x + wide > svg.width - 8:
            x, y = left, y + 20
        svg.rect(x, y - 10, 16, 12, fill=fill, opacity=opacity, stroke=fill, dash=dash)
        svg.text(x + 21, y, words, size=SMALL)
        x += wide + 14
    return y + 20


def two_schedules(w, p, first, second, ideal, end):
    """The schedules `first` and `second` ((spans, colors, title, note) each) one above the
    other, the work without a bubble under them. The picture and the baseline below."""
    unit, row, x0 = 6, 20, 24
    width = end * unit
    svg = Svg(x0 + width + 8, 300)
    svg.text(x0 - 18, 14, w["rank"], size=SMALL)
    y = 56
    for spans, colors, title, note in (first, second):
        y = draw_schedule(svg, x0, y, unit, row, width, p, spans, colors, title, note) + 50
    ya = y - 50 + 14
    svg.arrow(x0, ya, x0 + ideal * unit, ya, sw=1)
    svg.arrow(x0 + ideal * unit, ya, x0, ya, sw=1)
    svg.text(x0, ya + 18, w["ideal"], size=SMALL)
    return svg, x0, ya + 46


def interleaved(w):
    p, m, v, layers = 4, 8, 2, 8
    plain_end, plain = schedule(p, m, 1, [order_1f1b(p, m, r) for r in range(p)],
                                {"F": 2, "B": 4})
    inter_end, inter = schedule(p, m, v, [order_interleaved(p, m, v, r) for r in range(p)],
                                {"F": 1, "B": 2})
    ideal = m * 6
    check_bubble("1F1B", plain_end, ideal, Fraction(p - 1, m))
    check_bubble("interleaved 1F1B", inter_end, ideal, Fraction(p - 1, v * m))
    svg, x0, y = two_schedules(
        w, p,
        (plain, lambda r, c: layer_color(2 * r, layers - 1), w["plain"],
         w["bubble"].format("3/8", plain_end)),
        (inter, lambda r, c: layer_color(c * p + r, layers - 1), w["inter"],
         w["bubble"].format("3/16", inter_end)),
        ideal, plain_end)
    y = legend(svg, x0, y, [(layer_color(0, 7), 0.75, None, w["forward"]),
                            (layer_color(0, 7), 0.3, None, w["backward"])])
    svg.height = svg.para(x0, y + 2, w["colors"]) - 8
    return svg


def zero_bubble(w):
    p, m = 4, 8
    plain_end, plain = schedule(p, m, 1, [order_1f1b(p, m, r) for r in range(p)],
                                {"F": 2, "B": 4})
    zb_end, zb = schedule(p, m, 1, [order_zbh1(p, m, r) for r in range(p)],
                          {"F": 2, "B": 2, "W": 2})
    ideal = m * 6
    check_bubble("1F1B", plain_end, ideal, Fraction(p - 1, m))
    check_bubble("ZB-H1", zb_end, ideal, Fraction((p - 1) * (2 + 2 - 2), m * 6))
    color = lambda r, c: layer_color(2 * r, 7)
    svg, x0, y = two_schedules(
        w, p, (plain, color, w["plain"], w["bubble"].format("3/8", plain_end)),
        (zb, color, w["zb"], w["bubble"].format("1/8", zb_end)), ideal, plain_end)
    y = legend(svg, x0, y, [(layer_color(0, 7), 0.75, None, w["forward"]),
                            (layer_color(0, 7), 0.3, None, w["b"]),
                            (layer_color(0, 7), 0.12, "3,2", w["w"])])
    svg.height = y - 12
    return svg


# ----- a layer split across ranks -----

def box(svg, x, y, w, h, words, color, opacity=0.35, dash=None, size=SMALL):
    svg.rect(x, y, w, h, fill=color, opacity=opacity, stroke=color, dash=dash, rx=3)
    if words:
        svg.text(x + w / 2, y + h / 2 + size * 0.36, words, size=size, anchor="middle")


def matrix(svg, x, y, w, h, parts, mine, color, by_columns):
    """A matrix cut into `parts` stripes, this rank's filled."""
    for i in range(parts):
        if by_columns:
            sx, sy, sw_, sh = x + i * w / parts, y, w / parts, h
        else:
            sx, sy, sw_, sh = x, y + i * h / parts, w, h / parts
        svg.rect(sx, sy, sw_, sh, fill=color if i == mine else MUTED,
                 opacity=0.8 if i == mine else 0.1, stroke=MUTED, sw=0.8)
    svg.rect(x, y, w, h, stroke=INK, sw=1)


def tensor_block(w):
    t, row = 4, 50
    top = 62
    svg = Svg(430, top + t * row + 64)
    xa, xA, xy, xB, xp, xr, xo = 54, 90, 150, 190, 240, 288, 312
    # The headings on two lines, so that each may be as wide as its words.
    svg.text(xA + 24, top - 34, w["column"], size=SMALL, anchor="middle")
    svg.text(xB + 18, top - 16, w["row"], size=SMALL, anchor="middle")
    svg.text(xr, top - 34, w["allreduce"], size=SMALL, anchor="middle")
    for r in range(t):
        y = top + r * row
        cy = y + 18
        color = RANKS[r]
        svg.text(xa - 6, cy + 5, w["rank"].format(r), size=SMALL, anchor="end")
        box(svg, xa, cy - 11, 24, 22, "a", layer_color(0, 1), 0.3)
        svg.arrow(xa + 26, cy, xA - 3, cy, sw=1.1)
        matrix(svg, xA, cy - 16, 48, 32, t, r, color, True)
        svg.arrow(xA + 50, cy, xy - 3, cy, sw=1.1)
        box(svg, xy, cy - 11, 26, 22, f"y{r}", color, 0.35)
        svg.arrow(xy + 28, cy, xB - 3, cy, sw=1.1)
        matrix(svg, xB, cy - 16, 36, 32, t, r, color, False)
        svg.arrow(xB + 38, cy, xp - 3, cy, sw=1.1)
        box(svg, xp, cy - 11, 28, 22, f"p{r}", color, 0.15, dash="3,2")
        svg.arrow(xp + 30, cy, xr - 8, cy, sw=1.1)
        svg.arrow(xr + 8, cy, xo - 3, cy, sw=1.1)
        box(svg, xo, cy - 11, 110, 22, "p0+p1+p2+p3", layer_color(1, 1), 0.3)
    svg.rect(xr - 8, top, 16, (t - 1) * row + 36, fill=MESSAGE, opacity=0.5, stroke=MESSAGE,
             rx=4)
    yb = top + t * row + 4
    svg.text(xp + 14, yb, w["partial"], size=SMALL, anchor="middle", fill=MUTED)
    svg.text(xo + 55, yb, w["whole"], size=SMALL, anchor="middle", fill=MUTED)
    svg.height = svg.para(8, svg.para(8, yb + 26, w["note1"]), w["note2"]) - 8
    return svg


def sequence_bar(svg, x, y, w, h, held, colors, dash=None, names=False):
    """The sequence in t quarters, the held ones filled (named s0, s1, ... when asked)."""
    t = len(colors)
    for i in range(t):
        filled = i in held
        svg.rect(x + i * w / t, y, w / t, h, fill=colors[i] if filled else MUTED,
                 opacity=0.55 if filled else 0.06, stroke=MUTED, sw=0.8, dash=dash)
        if filled and names:
            svg.text(x + (i + 0.5) * w / t, y + h * 0.72, f"s{i}", size=SMALL,
                     anchor="middle")
    svg.rect(x, y, w, h, stroke=INK, sw=0.8, dash=dash)


def sequence_shards(w):
    t, row, h = 4, 26, 18
    svg = Svg(400, 420)
    whole = [layer_color(1, 2)] * t
    xp, xc, xk, xg, xn = 54, 146, 168, 276, 298
    bar, kept_bar, last = 72, 88, 94

    def collective(x, y, words):
        svg.rect(x - 7, y - 4, 14, t * row + 2, fill=MESSAGE, opacity=0.5, stroke=MESSAGE, rx=4)
        svg.text(x, y + t * row + 14, words, size=SMALL, anchor="middle")

    def panel(y0, title, first, kept, gather):
        svg.text(8, y0, title, bold=True)
        yh = y0 + 22
        svg.text(xp + bar / 2, yh, w["partials"], size=SMALL, anchor="middle")
        svg.text(xk + kept_bar / 2, yh, w["kept"], size=SMALL, anchor="middle")
        svg.text(xn + last / 2, yh, w["next"], size=SMALL, anchor="middle")
        y = yh + 12
        for r in range(t):
            yr = y + r * row
            svg.text(xp - 6, yr + 14, w["rank"].format(r), size=SMALL, anchor="end")
            sequence_bar(svg, xp, yr + 1, bar, h, set(range(t)), [RANKS[r]] * t, "3,2")
            svg.text(xp + bar / 2, yr + 14, f"p{r}", size=SMALL, anchor="middle")
            svg.arrow(xp + bar + 2, yr + 10, xc - 8, yr + 10, sw=1)
            svg.arrow(xc + 8, yr + 10, xk - 2, yr + 10, sw=1)
            sequence_bar(svg, xk, yr + 1, kept_bar, h, kept(r), whole, names=True)
            if gather:
                svg.arrow(xk + kept_bar + 2, yr + 10, xg - 8, yr + 10, sw=1)
                svg.arrow(xg + 8, yr + 10, xn - 2, yr + 10, sw=1)
            else:
                svg.arrow(xk + kept_bar + 2, yr + 10, xn - 2, yr + 10, sw=1, dash="2,3")
            sequence_bar(svg, xn, yr + 1, last, h, set(range(t)), whole)
        collective(xc, y, first)
        if gather:
            collective(xg, y, gather)
        return y + t * row + 40

    y = panel(22, w["tp"], w["allreduce"], lambda r: set(range(t)), None)
    y = panel(y + 8, w["sp"], w["scatter"], lambda r: {r}, w["gather"])
    svg.height = svg.para(8, svg.para(8, y + 4, w["note1"]), w["note2"]) - 8
    return svg


# ----- the ring, the experts, the grid -----

def chip(svg, x, y, words, color, strong=True):
    svg.rect(x, y, 34, 20, fill=color, opacity=0.6 if strong else 0.2, stroke=color, rx=3)
    svg.text(x + 17, y + 14.5, words, size=SMALL, anchor="middle")


def kv_ring(w):
    c = 4
    svg = Svg(400, 300)
    cx, cy, radius = 200, 130, 78
    places = [(cx, cy - radius), (cx + radius, cy), (cx, cy + radius), (cx - radius, cy)]
    svg.text(8, 22, w["ring"], bold=True)
    for r in range(c):
        (x1, y1), (x2, y2) = places[r], places[(r + 1) % c]
        dx, dy = x2 - x1, y2 - y1
        n = (dx * dx + dy * dy) ** 0.5
        svg.arrow(x1 + dx / n * 34, y1 + dy / n * 34, x2 - dx / n * 34, y2 - dy / n * 34,
                  sw=1.4, head=8)
    for r, (x, y) in enumerate(places):
        svg.circle(x, y, 30, fill=RANKS[r], opacity=0.3, stroke=RANKS[r], sw=1.5)
        svg.text(x, y - 2, w["rank"].format(r), size=SMALL, anchor="middle")
        svg.text(x, y + 14, f"kv{r}", size=SMALL, anchor="middle", fill=MUTED)
    # who holds which keys and values after each pass, under the ring
    x0, col, row = 76, 76, 30
    top = cy + radius + 56
    svg.text(8, top, w["held"], bold=True)
    y0 = top + 38
    for j in range(c):
        svg.text(x0 + j * col + 29, y0 - 12, w["start"] if j == 0 else w["pass"].format(j),
                 size=SMALL, anchor="middle")
    for r in range(c):
        y = y0 + r * row
        svg.text(x0 - 8, y + 14, w["rank"].format(r), size=SMALL, anchor="end")
        for j in range(c):
            new = (r - j) % c
            x = x0 + j * col
            chip(svg, x + 12, y, f"kv{new}", RANKS[new], True)
            if j:
                svg.text(x + 4, y + 14, "+", size=SMALL, anchor="middle", fill=MUTED)
    y = svg.para(8, y0 + c * row + 14, w["after"])
    svg.height = svg.para(8, svg.para(8, y + 8, w["note1"]), w["note2"]) - 8
    return svg


def experts(w):
    svg = Svg(420, 336)
    cols, width = [8, 116, 224, 332], 80
    expert_color = [layer_color(0, 1), layer_color(1, 1)]
    for x, lines in zip(cols, (w["tokens"], w["at"], w["out"], w["home"])):
        for i, words in enumerate(reversed(lines)):  # headings of two lines end on one baseline
            svg.text(x + width / 2, 42 - 16 * i, words, size=SMALL, anchor="middle", bold=True)
    home = {0: [0, 1], 1: [2, 3]}  # each rank's own batches
    at_expert = {0: [0, 2], 1: [1, 3]}  # expert_of(b) = b mod 2
    y_rank = [56, 180]
    labels = [w["dispatch"], w["forward"], w["combine"]]
    for i, words in enumerate(labels):  # under the gaps, alternately lower so that none meet
        x = cols[i] + width + (cols[i + 1] - cols[i] - width) / 2
        svg.text(x, 298 + 16 * (i % 2), words, size=SMALL, anchor="middle", fill=MUTED)

    def token(x, y, b):
        e = b % 2
        svg.rect(x, y, 40, 22, fill=expert_color[e], opacity=0.35, stroke=expert_color[e], rx=3)
        svg.text(x + 20, y + 15, f"b{b}", size=SMALL, anchor="middle")

    def where(col, rank, b, held):
        return cols[col] + width / 2 - 20, y_rank[rank] + 34 + held.index(b) * 28

    for rank in (0, 1):
        y = y_rank[rank]
        for col in range(4):
            svg.rect(cols[col], y, width, 100, stroke=MUTED, rx=6, dash="4,3" if col else None)
        for col, name in enumerate(("rank", "expert", "expert", "rank")):
            svg.text(cols[col] + width / 2, y + 18, w[name].format(rank), size=SMALL,
                     anchor="middle")
        for b in home[rank]:
            token(*where(0, rank, b, home[rank]), b)
            token(*where(3, rank, b, home[rank]), b)
        for b in at_expert[rank]:
            token(*where(1, rank, b, at_expert[rank]), b)
            token(*where(2, rank, b, at_expert[rank]), b)
    for rank in (0, 1):
        for b in at_expert[rank]:
            x1, y1 = where(1, rank, b, at_expert[rank])
            x2, y2 = where(2, rank, b, at_expert[rank])
            svg.arrow(x1 + 42, y1 + 11, x2 - 2, y2 + 11, sw=1.1, stroke=MUTED)
    for b in range(4):
        src, dst = b // 2, b % 2
        x1, y1 = where(0, src, b, home[src])
        x2, y2 = where(1, dst, b, at_expert[dst])
        svg.arrow(x1 + 42, y1 + 11, x2 - 2, y2 + 11, sw=1.1, dash=None if src == dst else "4,2")
        x1, y1 = where(2, dst, b, at_expert[dst])
        x2, y2 = where(3, src, b, home[src])
        svg.arrow(x1 + 42, y1 + 11, x2 - 2, y2 + 11, sw=1.1, dash=None if src == dst else "4,2")
    svg.height = svg.para(8, svg.para(8, 344, w["note1"]), w["note2"]) - 8
    return svg


def grid(w):
    T, P, D = 2, 4, 2
    svg = Svg(432, 330)
    x0, y0, stage_w, gap, lane_h = 56, 56, 84, 12, 96
    focus = 5  # slice 1 of stage 2 of lane 0, as the lesson's text says
    ft, fp, fd = focus % T, (focus // T) % P, focus // (T * P)
    for p in range(P):
        xc = x0 + p * (stage_w + gap) + stage_w / 2
        svg.text(xc, y0 - 26, w["stage"].format(p), size=SMALL, anchor="middle", bold=True)
        svg.text(xc, y0 - 10, w["layers"].format(2 * p, 2 * p + 1), size=SMALL, anchor="middle")
    for d in range(D):
        yl = y0 + d * lane_h
        svg.text(x0 - 8, yl + 42, w["lane"].format(d), size=SMALL, anchor="end")
        for p in range(P):
            x = x0 + p * (stage_w + gap)
            in_tensor = (p == fp and d == fd)
            svg.rect(x, yl, stage_w, 76, fill=layer_color(p, P - 1), opacity=0.12,
                     stroke=INK if in_tensor else MUTED, sw=2 if in_tensor else 1, rx=6)
            for t in range(T):
                rank = t + T * (p + P * d)
                ry = yl + 8 + t * 32
                mark = (rank == focus)
                svg.rect(x + 6, ry, stage_w - 24, 26, fill=RANKS[0] if mark else PAPER,
                         opacity=0.35 if mark else 1, stroke=INK if mark else MUTED,
                         sw=1.6 if mark else 1, rx=4)
                svg.text(x + 6 + (stage_w - 24) / 2, ry + 18, w["rank"].format(rank), size=SMALL,
                         anchor="middle")
            if p + 1 < P:
                ry = yl + 8 + ft * 32 + 13
                strong = d == fd
                svg.arrow(x + stage_w + 1, ry, x + stage_w + gap - 1, ry,
                          stroke=INK if strong else MUTED, sw=1.6 if strong else 1, head=5)
    # the data group of the focused rank: the same slice of the same stage in each lane
    xf = x0 + fp * (stage_w + gap) + stage_w - 9
    ya = y0 + 8 + ft * 32 + 13
    yb = y0 + lane_h + 8 + ft * 32 + 13
    svg.line(x0 + fp * (stage_w + gap) + stage_w - 18, ya, xf, ya, sw=1.6)
    svg.line(x0 + fp * (stage_w + gap) + stage_w - 18, yb, xf, yb, sw=1.6)
    svg.line(xf, ya, xf, yb, sw=1.6)
    y = svg.para(8, y0 + D * lane_h + 8, w["slices"])
    y = svg.para(8, y + 6, w["focus"])
    for axis in ("tensor", "pipeline", "data"):
        y = svg.para(20, y, w[axis])
    svg.height = y - 8
    return svg


# ----- the words, in English and German -----

PICTURES = [
    ("95-interleaved_1f1b", "schedules", interleaved, {
        "en": dict(title="1F1B against interleaved 1F1B at p = 4, m = 8", rank="rank",
                   plain="1F1B", inter="Interleaved 1F1B, v = 2", bubble="bubble {0}: {1} steps",
                   ideal="without bubble: 8 micro-batches × 6 steps = 48",
                   forward="forward", backward="backward",
                   colors="Color: the layers a block runs, green layer 0 to red layer 7. "
                          "Number: the micro-batch."),
        "de": dict(title="1F1B und verschachteltes 1F1B bei p = 4, m = 8", rank="Rank",
                   plain="1F1B", inter="Verschachteltes 1F1B, v = 2",
                   bubble="Blase {0}: {1} Schritte",
                   ideal="ohne Blase: 8 Micro-Batches × 6 Schritte = 48",
                   forward="Vorwärts", backward="Rückwärts",
                   colors="Farbe: die Layer eines Blocks, grün Layer 0 bis rot Layer 7. "
                          "Zahl: der Micro-Batch."),
    }),
    ("96-zero_bubble", "schedules", zero_bubble, {
        "en": dict(title="1F1B against ZB-H1 at p = 4, m = 8", rank="rank", plain="1F1B",
                   zb="ZB-H1", bubble="bubble {0}: {1} steps",
                   ideal="without bubble: 8 micro-batches × 6 steps = 48", forward="F",
                   b="B (in 1F1B: the whole backward)", w="W"),
        "de": dict(title="1F1B und ZB-H1 bei p = 4, m = 8", rank="Rank", plain="1F1B",
                   zb="ZB-H1", bubble="Blase {0}: {1} Schritte",
                   ideal="ohne Blase: 8 Micro-Batches × 6 Schritte = 48", forward="F",
                   b="B (bei 1F1B: der ganze Rückwärtsschritt)", w="W"),
    }),
    ("97-tensor_parallel", "block", tensor_block, {
        "en": dict(title="One block at t = 4, forward", rank="rank {}",
                   column="A: column-parallel", row="B: row-parallel", allreduce="all-reduce",
                   partial="partial", whole="whole",
                   note1="One block forward at t = 4: the all-reduce over the tensor group "
                         "sums the partials, whole on every rank. The backward runs right to "
                         "left.",
                   note2="A layer has two blocks (attention, MLP): 2 all-reduces forward, "
                         "2 backward."),
        "de": dict(title="Ein Block bei t = 4, vorwärts", rank="Rank {}",
                   column="A: spaltenparallel", row="B: zeilenparallel", allreduce="All-Reduce",
                   partial="partiell", whole="ganz",
                   note1="Ein Block vorwärts bei t = 4: das All-Reduce über die Tensor-Gruppe "
                         "summiert die partiellen Ausgaben, ganz auf jedem Rank. Rückwärts läuft "
                         "er von rechts nach links.",
                   note2="Ein Layer hat zwei Blöcke (Attention, MLP): 2 All-Reduces vorwärts, "
                         "2 rückwärts."),
    }),
    ("98-sequence_parallel", "shards", sequence_shards, {
        "en": dict(title="Between two blocks at t = 4", rank="rank {}", tp="Tensor parallel",
                   sp="Sequence parallel", partials="partials", kept="kept",
                   next="next input", allreduce="all-reduce", scatter="reduce-scatter",
                   gather="all-gather",
                   note1="Tensor parallel keeps the whole sequence on every rank: 4 copies.",
                   note2="Sequence parallel keeps a quarter each (s0 to s3) and all-gathers it "
                         "when a block needs it."),
        "de": dict(title="Zwischen zwei Blöcken bei t = 4", rank="Rank {}",
                   tp="Tensorparallel", sp="Sequenzparallel", partials="partiell",
                   kept="gehalten", next="nächste Eingabe",
                   allreduce="All-Reduce", scatter="Reduce-Scatter", gather="All-Gather",
                   note1="Tensorparallel hält die ganze Sequenz auf jedem Rank: 4 Kopien.",
                   note2="Sequenzparallel hält je ein Viertel (s0 bis s3) und sammelt es mit "
                         "All-Gather, wenn ein Block es braucht."),
    }),
    ("99-context_parallel", "ring", kv_ring, {
        "en": dict(title="Keys and values around the ring of a context group of 4",
                   ring="The ring", rank="rank {}", held="What each rank holds", start="start",
                   **{"pass": "pass {}"},
                   after="After C - 1 = 3 passes: the keys and values of every chunk.",
                   note1="Each pass, a rank sends on what it received last and receives its "
                         "neighbour's.",
                   note2="Then forward(layer, a, w, kv=[...]) with all four, each once."),
        "de": dict(title="Keys und Values im Ring einer Kontextgruppe aus 4 Ranks",
                   ring="Der Ring", rank="Rank {}", held="Was jeder Rank hält", start="Start",
                   **{"pass": "Runde {}"},
                   after="Nach C - 1 = 3 Runden: die Keys und Values jedes Abschnitts.",
                   note1="In jeder Runde gibt ein Rank weiter, was er zuletzt bekam, und "
                         "empfängt das seines Nachbarn.",
                   note2="Dann forward(layer, a, w, kv=[...]) mit allen vieren, jedem einmal."),
    }),
    ("99-expert_parallel", "alltoall", experts, {
        "en": dict(title="Tokens dispatched to their experts and combined", tokens=["tokens"],
                   at=["at the", "experts"], out=["expert", "outputs"], home=["home", "again"],
                   dispatch="all-to-all", forward="forward", combine="all-to-all",
                   rank="rank {}", expert="expert {}",
                   note1="Expert 0 is on rank 0, expert 1 on rank 1. Dispatch: b1 and b2 "
                         "travel to their experts, b0 and b3 stay.",
                   note2="Combine: the outputs go home the same way. "
                         "The router: expert_of(b) = b mod 2."),
        "de": dict(title="Tokens zu ihren Experten verteilt und wieder zusammengeführt",
                   tokens=["Tokens"], at=["bei den", "Experten"], out=["Ausgaben"],
                   home=["wieder", "daheim"],
                   dispatch="All-to-All", forward="vorwärts", combine="All-to-All",
                   rank="Rank {}", expert="Experte {}",
                   note1="Experte 0 liegt auf Rank 0, Experte 1 auf Rank 1. Verteilen: b1 und b2 "
                         "reisen zu ihren Experten, b0 und b3 bleiben.",
                   note2="Zusammenführen: die Ausgaben reisen denselben Weg zurück. "
                         "Der Router: expert_of(b) = b mod 2."),
    }),
    ("99-four_d", "grid", grid, {
        "en": dict(title="16 ranks as tensor 2 × pipeline 4 × data 2",
                   stage="stage {}", layers="layers {0}-{1}", lane="lane {}", rank="rank {}",
                   slices="In each stage, the upper rank holds slice 0 of its layers, the "
                          "lower one slice 1.",
                   focus="Rank 5 and its groups:",
                   tensor="tensor: ranks 4 and 5, the two slices of stage 2 (one node)",
                   pipeline="pipeline: ranks 1, 3, 5 and 7, the stages of lane 0",
                   data="data: ranks 5 and 13, the same slice of the same stage in each lane"),
        "de": dict(title="16 Ranks als Tensor 2 × Pipeline 4 × Daten 2",
                   stage="Stufe {}", layers="Layer {0}-{1}", lane="Bahn {}", rank="Rank {}",
                   slices="In jeder Stufe hält der obere Rank Slice 0 ihrer Layer, der untere "
                          "Slice 1.",
                   focus="Rank 5 und seine Gruppen:",
                   tensor="Tensor: Ranks 4 und 5, die zwei Slices der Stufe 2 (ein Knoten)",
                   pipeline="Pipeline: Ranks 1, 3, 5 und 7, die Stufen der Bahn 0",
                   data="Daten: Ranks 5 und 13, derselbe Slice derselben Stufe in jeder Bahn"),
    }),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "lessons")
    for folder, name, draw, languages in PICTURES:
        for language, words in languages.items():
            suffix = "" if language == "en" else "." + language
            path = os.path.join(root, folder, f"{name}{suffix}.svg")
            draw(words).write(path, words["title"])
            print(path)


if __name__ == "__main__":
    main()
