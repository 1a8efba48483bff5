// SPDX-License-Identifier: MIT
#include "statebatch.h"

#include "palette.h"
#include "statepainter.h"

#include <QPainter>

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr double kThin = 3; // pixels: below, outlines would cover the cells they outline

// Cells too narrow to outline one by one: each run of held cells as one block. Walks the held
// members, not every cell: an FSDP bar has a cell per rank and a rank holds one of them.
void addRuns(CellBatch &batch, const QRectF &rect, const core::IndexSet &held, int total,
             const QColor &color, const QColor &edge, Qt::BrushStyle pattern = Qt::NoBrush,
             const QColor &ink = {})
{
    const int from = held.first(), to = std::min(held.last(), total - 1);
    if (from >= 0 && to - from + 1 == held.size()) { // one run, the common case: no walk
        batch.add(shardCell(rect, from, total)
                      .united(shardCell(rect, to, total))
                      .adjusted(0.5, 0.5, -0.5, -0.5),
                  color, edge, Qt::SolidLine, pattern, ink);
        return;
    }
    int first = -1, last = -2;
    const auto add = [&] {
        if (first >= 0)
            batch.add(shardCell(rect, first, total)
                          .united(shardCell(rect, last, total))
                          .adjusted(0.5, 0.5, -0.5, -0.5),
                      color, edge, Qt::SolidLine, pattern, ink);
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

// `total` cells across `rect`, the ones in `held` filled; the rest are hollow, outlined only
// while wide enough to read (a thin outline around the whole bar says how much is missing).
void addCells(CellBatch &batch, const QRectF &rect, const core::IndexSet &held, int total,
              const CellColors &colors, bool heldOnly)
{
    if (rect.height() < kThin)
        return addRuns(batch, rect, held, total, colors.fill, QColor());
    if (!heldOnly)
        batch.add(rect.adjusted(0.5, 0.5, -0.5, -0.5), QColor(), colors.outline);
    if (rect.width() / std::max(1, total) < 8)
        return addRuns(batch, rect, held, total, colors.fill, colors.edge, colors.pattern,
                       colors.ink);
    for (int i = 0; i < total; ++i) {
        const QRectF cell = shardCell(rect, i, total).adjusted(0.5, 0.5, -0.5, -0.5);
        if (held.contains(i))
            batch.add(cell, colors.fill, colors.edge, Qt::SolidLine, colors.pattern, colors.ink);
        else if (!heldOnly)
            batch.add(cell, QColor(), colors.hollow, Qt::DotLine);
    }
}

} // namespace

CellColors CellColors::of(const QColor &fill)
{
    const QColor edge = fill.darker(150);
    return {fill, edge, Palette::faded(edge, 0.4), Palette::faded(edge, 0.6), Qt::NoBrush, {}};
}

const CellColors &CellBatch::colorsOf(const core::Object &object, int layers,
                                      const Palette &palette)
{
    const std::tuple<int, int, bool> key{int(object.kind), object.layer, object.step == 0};
    const auto found = m_colors.find(key);
    if (found != m_colors.end())
        return found->second;
    return m_colors.emplace(key, objectCellColors(object, layers, palette)).first->second;
}

CellColors objectCellColors(const core::Object &object, int layers, const Palette &palette)
{
    CellColors colors = CellColors::of(objectColor(object, layers, palette));
    colors.pattern = kindPattern(object.kind);
    colors.ink = kindInk(colors.fill);
    if (isUpdated(object))
        colors.edge = colors.outline = palette.update().darker(115);
    return colors;
}

void CellBatch::add(const QRectF &rect, const QColor &fill, const QColor &edge, Qt::PenStyle style,
                    Qt::BrushStyle pattern, const QColor &ink)
{
    const bool patterned = fill.isValid() && pattern != Qt::NoBrush && ink.isValid();
    const Style key{fill.isValid(),
                    fill.isValid() ? fill.rgba() : 0,
                    edge.isValid() ? edge.rgba() : 0,
                    edge.isValid() ? int(style) : int(Qt::NoPen),
                    patterned ? int(pattern) : int(Qt::NoBrush),
                    patterned ? ink.rgba() : 0};
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
            const auto &[isFilled, fill, edge, pen, pattern, ink] = style;
            if (isFilled != filled)
                continue;
            if (Qt::PenStyle(pen) == Qt::NoPen)
                painter.setPen(Qt::NoPen);
            else
                painter.setPen(QPen(QColor::fromRgba(edge), 1, Qt::PenStyle(pen)));
            if (isFilled)
                painter.setBrush(QColor::fromRgba(fill));
            else
                painter.setBrush(Qt::NoBrush);
            painter.drawRects(rects.data(), int(rects.size()));
            if (Qt::BrushStyle(pattern) == Qt::NoBrush)
                continue;
            painter.setPen(Qt::NoPen);
            painter.setBrush(QBrush(QColor::fromRgba(ink), Qt::BrushStyle(pattern)));
            painter.drawRects(rects.data(), int(rects.size()));
        }
    }
    m_rects.clear();
    m_last = nullptr;
}

void addObjectCells(CellBatch &batch, const core::Object &object, const PlacedObject &placed,
                    const CellColors &colors)
{
    const QRectF &box = placed.frame;
    if (core::hasShards(object.kind) && !core::hasBatches(object.kind)) {
        addCells(batch, box, object.shards, object.total, colors, placed.heldOnly);
    } else if (!core::hasShards(object.kind) || object.total <= 1) {
        addCells(batch, box, object.batches, object.totalBatches, colors, placed.heldOnly);
    } else {
        const double half = box.height() / 2;
        addCells(batch, box.adjusted(0, 0, 0, -half), object.batches, object.totalBatches, colors,
                 placed.heldOnly);
        addCells(batch, box.adjusted(0, half, 0, 0), object.shards, object.total, colors,
                 placed.heldOnly);
    }
}

} // namespace rankstep::gui
