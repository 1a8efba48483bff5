// SPDX-License-Identifier: MIT
// A paint device that draws nothing and remembers what a widget painted with: the widest pen
// that drew a line or outline, and the tallest text. For checks that sizes scale (zoom).
#pragma once

#include <QPaintDevice>
#include <QPaintEngine>

#include <memory>

class QWidget;

namespace rankstep::gui::testing {

struct PaintSizes
{
    double widestPen = 0;     // pixels, of the pens that stroked something
    double tallestText = 0;   // pixels, the font height of the largest text drawn
    int texts = 0;            // how many text items were drawn
};

// Paints widget (its paintEvent, at its current size) and returns what it used.
PaintSizes recordPaint(QWidget &widget);

} // namespace rankstep::gui::testing
