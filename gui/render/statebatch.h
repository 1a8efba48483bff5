// SPDX-License-Identifier: MIT
// The state view draws thousands of cells (16 ranks of a 96-layer model): collected here by pen
// and brush and drawn with one QPainter call per pair instead of one or three per cell.
#pragma once

#include "core/objects.h"
#include "stategeometry.h"

#include <QColor>
#include <QRectF>
#include <QRgb>

#include <map>
#include <tuple>
#include <vector>

class QPainter;

namespace rankstep::gui {

class Palette;

// The colors of one object's cells: held ones filled with `fill` and outlined with `edge`; the
// bar's outline and the hollow cells lighter. Held cells get the kind's `pattern` (statepainter.h
// kindPattern) over their fill in `ink`, so that the kind reads without its color.
struct CellColors {
    QColor fill, edge, outline, hollow;
    Qt::BrushStyle pattern = Qt::NoBrush;
    QColor ink;
    static CellColors of(const QColor &fill);
};

// An object's cell colors: objectColor's fill, and an update-yellow edge once updated.
CellColors objectCellColors(const core::Object &object, int layers, const Palette &palette);

class CellBatch
{
public:
    // The colors of an object's cells, worked out once per kind, layer and update per batch
    // (color arithmetic per cell cost as much as drawing it).
    const CellColors &colorsOf(const core::Object &object, int layers, const Palette &palette);
    // A rectangle outlined with `edge` (1 pixel, `style`; an invalid color: none) and filled with
    // `fill` (an invalid color: hollow), then with `pattern` in `ink` over the fill.
    void add(const QRectF &rect, const QColor &fill, const QColor &edge,
             Qt::PenStyle style = Qt::SolidLine, Qt::BrushStyle pattern = Qt::NoBrush,
             const QColor &ink = {});
    // Hollow rectangles first, so that filled cells stay on top of the outlines around them,
    // patterns over their fills; then empties the batch.
    void draw(QPainter &painter);
    bool isEmpty() const { return m_rects.empty(); }

private:
    // filled, fill, edge, pen style, pattern, ink
    using Style = std::tuple<bool, QRgb, QRgb, int, int, QRgb>;
    std::map<Style, std::vector<QRectF>> m_rects;
    Style m_lastStyle{};
    std::vector<QRectF> *m_last = nullptr;
    std::map<std::tuple<int, int, bool>, CellColors> m_colors; // by kind, layer, updated
};

// An object's cells across placed.frame: its shards of total (held ones filled) for weights and
// optimizer states, its batches for activations, both for weight gradients. Thinner than a few
// pixels (a 96-layer model in a small panel), only the held cells, filled without outline.
void addObjectCells(CellBatch &batch, const core::Object &object, const PlacedObject &placed,
                    const CellColors &colors);

} // namespace rankstep::gui
