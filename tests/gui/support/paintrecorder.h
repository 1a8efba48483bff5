// SPDX-License-Identifier: MIT
// A paint device that draws nothing and remembers what a widget painted with: the widest pen
// that drew a line or outline, and the tallest text. For checks that sizes scale (zoom).
#pragma once

#include <QPaintDevice>
#include <QPaintEngine>

#include <functional>

class QPainter;
class QWidget;

namespace rankstep::gui::testing {

struct PaintSizes {
    double widestPen = 0;   // pixels, of the pens that stroked something
    double tallestText = 0; // pixels, the font height of the largest text drawn
    int texts = 0;          // how many text items were drawn
};

// Paints widget (its paintEvent, at its current size) and returns what it used. A widget that
// paints from a cached pixmap shows no text or pens here: record its painter instead.
PaintSizes recordPaint(QWidget &widget);
// What paint drew on a device of this size.
PaintSizes recordPaint(QSize size, const std::function<void(QPainter &)> &paint);

} // namespace rankstep::gui::testing
