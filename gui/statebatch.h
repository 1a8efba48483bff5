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

class CellBatch
{
public:
    // A rectangle outlined with `edge` (1 pixel, `style`) and filled with `fill` (an invalid
    // color: hollow).
    void add(const QRectF &rect, const QColor &fill, const QColor &edge,
             Qt::PenStyle style = Qt::SolidLine);
    // Hollow rectangles first, so that filled cells stay on top of the outlines around them;
    // then empties the batch.
    void draw(QPainter &painter);
    bool isEmpty() const { return m_rects.empty(); }

private:
    using Style = std::tuple<bool, QRgb, QRgb, int>; // filled, fill, edge, pen style
    std::map<Style, std::vector<QRectF>> m_rects;
    Style m_lastStyle{};
    std::vector<QRectF> *m_last = nullptr;
};

// An object's cells across placed.frame in `color`: its shards of total (held ones filled) for
// weights and optimizer states, its batches for activations, both for weight gradients.
void addObjectCells(CellBatch &batch, const core::Object &object, const PlacedObject &placed,
                    const QColor &color);

} // namespace rankstep::gui
