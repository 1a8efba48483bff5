// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"
#include "look.h"
#include "timelinegeometry.h"

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRect>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

class QPainter;

namespace rankstep::gui {

// Everything one paint of the timeline depends on: the trace and how it is looked at.
struct TimelineScene {
    const core::Trace *trace = nullptr; // not null, with events
    RowLayout layout;
    TimeAxis axis;
    QRect bounds;
    QPalette palette;
    QFont font;
    Look look; // the color scheme and the zoom
    std::optional<core::SimTime> cursor;
    std::optional<std::size_t> ghostAfter; // events from this index on are drawn faint
    std::optional<std::size_t> hovered;
    // Built from the trace when null; a view keeps them across paints.
    const std::vector<RankEvents> *ranks = nullptr;
    const std::vector<std::pair<std::size_t, std::size_t>> *links = nullptr;
    // Per rank, when not empty: that rank's events from this index on are faint (at a time cut
    // every rank stands at its own prefix of the trace); ghostAfter still says that some are.
    std::vector<std::size_t> rankGhostAfter;
    // Events that have started but not finished at the cursor: drawn striped, solid only up to
    // the cursor, since their results are not there yet.
    std::vector<std::size_t> running;
};

// Paints the per-rank timeline: axis band, rank rows, one block per event, message arrows and
// the cursor line. A painter draws one frame and is thrown away.
//
// paint() draws it all; a view that caches splits it into the base (what only the trace, size,
// zoom and theme change), drawn once with every block in full color and once ghosted, and the
// overlay of what a step or the pointer changes (arrows, the hovered block, the cursor).
class TimelinePainter
{
public:
    enum class Ghosting { ByEvent, None, All }; // ByEvent: from scene.ghostAfter on

    TimelinePainter(QPainter &painter, const TimelineScene &scene);
    void paint();
    void paintBase(Ghosting ghosting);
    void paintOverlay();
    // Blocks the last paint drew: at most one per pixel column of each row plus one per row,
    // since events that only cover pixels already drawn in their row are skipped.
    std::size_t drawnBlocks() const { return m_drawnBlocks; }
    // Message arrows drawn: none when more than kMaxArrows are in view (they would be a smear).
    std::size_t drawnArrows() const { return m_drawnArrows; }
    static constexpr std::size_t kMaxArrows = 2000;

    // The stepping cursor as both the timeline and the memory chart draw it, at x from cursorLineX.
    static void paintCursorLine(QPainter &painter, double x, double top, double bottom,
                                double zoom = 1.0);

    // The friendly text of a view without events, centered in bounds.
    static void paintPlaceholder(QPainter &painter, const QRect &bounds, const QPalette &palette,
                                 const QFont &font, const QString &text, double zoom = 1.0);

private:
    QRectF timeArea() const;

public:
    // Whether the scene draws event `index` faint.
    bool isGhost(std::size_t index) const;

private:
    void paintRows();
    void paintGrid();
    void paintBlocks(Ghosting ghosting);
    void paintHovered();
    void paintRunning();
    bool coversNewPixels(const QRectF &rect, int row);
    void paintBlock(std::size_t index, const QRectF &rect);
    void paintCommunication(const core::Event &event, const QRect &pixels, const QColor &ink);
    QColor fillOf(const core::Event &event);
    void paintBlockLabel(const core::Event &event, const QRectF &rect, const QColor &fill);
    std::vector<std::pair<std::size_t, std::size_t>> visibleLinks() const;
    void paintArrows();
    void paintArrow(const QPointF &from, const QPointF &to);
    void paintLabels();
    void paintAxis();
    void paintCursor();

    QPainter &m_painter;
    const TimelineScene &m_scene;
    const core::Trace &m_trace;
    core::SimTime m_tickStep;
    std::vector<RankEvents> m_ownRanks; // when the scene brings none
    const std::vector<RankEvents> *m_ranks = nullptr;
    std::vector<QColor> m_fills;     // Palette::event by op and layer, filled as first needed
    std::vector<double> m_coveredTo; // per row: right edge in pixels of what is drawn so far
    std::size_t m_drawnBlocks = 0;
    std::size_t m_drawnArrows = 0;
};

} // namespace rankstep::gui
