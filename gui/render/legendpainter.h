// SPDX-License-Identifier: MIT
// The legend every view and figure shares: what the kinds of timeline block look like, the layer
// scale of the run's model, and how cells show batches and shards. Drawn with the same palette
// calls the painters use, so it cannot say one color while they draw another: a kind that takes
// each layer's color (forward, backward, the collectives) shows several layers' colors.
#pragma once

#include "look.h"

#include "core/trace.h"

#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QStringList>

#include <utility>
#include <vector>

class QPainter;

namespace rankstep::gui {

struct LegendScene {
    int layers = 2; // the model's layers: the scale has layers + 1 colors (the output last)
    Look look;      // the color scheme and the zoom
    QPalette palette;
    QFont font;                 // drawn at 9 points times the zoom
    bool splitBackward = false; // the run split a backward: name its halves (B, W) too
    bool allToAll = false;      // the run has an alltoall: name it (A2A) with the collectives
};

// Whether `trace` has a backward's input or weight half (the legend then names them).
bool hasSplitBackward(const core::Trace &trace);
// Whether `trace` has an alltoall (the legend then names it with the collectives).
bool hasAllToAll(const core::Trace &trace);

// The ink of the stripes and edge over a block's fill, or an invalid color for a plain block:
// the weight gradient's faint fill (12%, the half that can wait) gets its layer's color at 75% in
// stripes and edge, so that W reads as a block of its own beside B, not only as a lighter one.
// The timeline's blocks and the legend's swatch both draw it.
QColor weightHatch(const Palette &colors, const core::Event &event, int layers);

// The legend's words, item by item, in the order they are drawn.
QStringList legendTexts(int layers, Palette::Scheme scheme = Palette::Scheme::Standard);
// Each item's words and where its swatch is, laid out `width` pixels wide from (0, 0).
std::vector<std::pair<QString, QRectF>> legendSwatches(const LegendScene &scene, double width);

// The height the legend takes laid out `width` pixels wide: its items flow left to right and
// wrap onto further lines.
double legendHeight(const LegendScene &scene, double width);
// Paints the legend at the top of `area`; returns the height it took.
double paintLegend(QPainter &painter, const QRectF &area, const LegendScene &scene);

} // namespace rankstep::gui
