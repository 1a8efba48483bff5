// SPDX-License-Identifier: MIT
#include "statebatch.h"

#include "palette.h"

#include <QPainter>

#include <algorithm>

namespace rankstep::gui {
namespace {

// Cells too narrow to outline one by one: each run of held cells as one block. Walks the held
// members, not every cell: an FSDP bar has a cell per rank and a rank holds one of them.
void addRuns(CellBatch &batch, const QRectF &rect, const core::IndexSet &held, int total,
             const QColor &color, const QColor &edge)
{
    int first = -1, last = -2;
    const auto add = [&] {
        if (first >= 0)
            batch.add(shardCell(rect, first, total)
                          .united(shardCell(rect, last, total))
                          .adjusted(0.5, 0.5, -0.5, -0.5),
                      color, edge);
    };
    held.forEach([&](int i) {
        if (i >= total)
            return;
        if (i != last + 1) {
            add();
            first = i;
        }
        last = i;
    });
    add();
}

// `total` cells across `rect`, the ones in `held` filled with color; the rest are hollow, outlined
// only while wide enough to read (a thin outline around the whole bar says how much is missing).
void addCells(CellBatch &batch, const QRectF &rect, const core::IndexSet &held, int total,
              const QColor &color, bool heldOnly)
{
    const QColor edge = color.darker(150);
    if (!heldOnly)
        batch.add(rect.adjusted(0.5, 0.5, -0.5, -0.5), QColor(), Palette::faded(edge, 0.4));
    if (rect.width() / std::max(1, total) < 8) {
        addRuns(batch, rect, held, total, color, edge);
        return;
    }
    const QColor hollow = Palette::faded(edge, 0.6);
    for (int i = 0; i < total; ++i) {
        const QRectF cell = shardCell(rect, i, total).adjusted(0.5, 0.5, -0.5, -0.5);
        if (held.contains(i))
            batch.add(cell, color, edge);
        else if (!heldOnly)
            batch.add(cell, QColor(), hollow, Qt::DotLine);
    }
}

} // namespace

void CellBatch::add(const QRectF &rect, const QColor &fill, const QColor &edge,
                    Qt::PenStyle style)
{
    const Style key{fill.isValid(), fill.isValid() ? fill.rgba() : 0, edge.rgba(), int(style)};
    if (!m_last || key != m_lastStyle) { // runs of one style are common: skip the lookup
        m_last = &m_rects[key];
        m_lastStyle = key;
    }
    m_last->push_back(rect);
}

void CellBatch::draw(QPainter &painter)
{
    for (const bool filled : {false, true}) {
        for (const auto &[style, rects] : m_rects) {
            const auto &[isFilled, fill, edge, pen] = style;
            if (isFilled != filled)
                continue;
            painter.setPen(QPen(QColor::fromRgba(edge), 1, Qt::PenStyle(pen)));
            if (isFilled)
                painter.setBrush(QColor::fromRgba(fill));
            else
                painter.setBrush(Qt::NoBrush);
            painter.drawRects(rects.data(), int(rects.size()));
        }
    }
    m_rects.clear();
    m_last = nullptr;
}

void addObjectCells(CellBatch &batch, const core::Object &object, const PlacedObject &placed,
                    const QColor &color)
{
    const QRectF &box = placed.frame;
    if (core::hasShards(object.kind) && !core::hasBatches(object.kind)) {
        addCells(batch, box, object.shards, object.total, color, placed.heldOnly);
    } else if (!core::hasShards(object.kind) || object.total <= 1) {
        addCells(batch, box, object.batches, object.totalBatches, color, placed.heldOnly);
    } else {
        const double half = box.height() / 2;
        addCells(batch, box.adjusted(0, 0, 0, -half), object.batches, object.totalBatches, color,
                 placed.heldOnly);
        addCells(batch, box.adjusted(0, half, 0, 0), object.shards, object.total, color,
                 placed.heldOnly);
    }
}

} // namespace rankstep::gui
