// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"
#include "timelinegeometry.h"

#include <QFont>
#include <QPalette>
#include <QRect>

#include <cstddef>
#include <optional>

class QPainter;

namespace rankstep::gui {

// Everything one paint of the timeline depends on: the trace and how it is looked at.
struct TimelineScene
{
    const core::Trace *trace = nullptr; // not null, with events
    RowLayout layout;
    TimeAxis axis;
    QRect bounds;
    QPalette palette;
    QFont font;
    std::optional<core::SimTime> cursor;
    std::optional<std::size_t> ghostAfter; // events from this index on are drawn faint
    std::optional<std::size_t> hovered;
};

// Paints the per-rank timeline: axis band, rank rows, one block per event, message arrows and
// the cursor line. A painter draws one frame and is thrown away.
class TimelinePainter
{
public:
    TimelinePainter(QPainter &painter, const TimelineScene &scene);
    void paint();

    // The friendly text of a view without events, centered in bounds.
    static void paintPlaceholder(QPainter &painter, const QRect &bounds, const QPalette &palette,
                                 const QFont &font, const QString &text);

private:
    QRectF timeArea() const;
    bool isGhost(std::size_t index) const;
    void paintRows();
    void paintGrid();
    void paintBlocks();
    void paintBlock(std::size_t index, const QRectF &rect);
    void paintBlockLabel(const core::Event &event, const QRectF &rect, const QColor &fill);
    void paintArrows();
    void paintArrow(const QPointF &from, const QPointF &to);
    void paintLabels();
    void paintAxis();
    void paintCursor();

    QPainter &m_painter;
    const TimelineScene &m_scene;
    const core::Trace &m_trace;
    core::SimTime m_tickStep;
};

} // namespace rankstep::gui
