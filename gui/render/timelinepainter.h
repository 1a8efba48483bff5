// SPDX-License-Identifier: MIT
#pragma once

#include "core/explain/waitexplain.h"
#include "core/trace.h"
#include "look.h"
#include "timelinegeometry.h"

#include <QColor>
#include <QCoreApplication>
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
    // Idle gaps (core/explain: a rank waiting between two of its operations), drawn dotted in
    // the base; and the events highlighted together (a wait's chain, the critical path),
    // outlined and linked in the overlay. Null: none.
    const std::vector<explain::Wait> *gaps = nullptr;
    const std::vector<std::size_t> *highlight = nullptr;
    // The axis's unit, in the language shown: "ms" for a real run.
    QString timeUnit = QCoreApplication::translate("TimeUnit", "steps");
    // TimelinePainter::visibleLinks of this scene when not null: a step redraws the overlay,
    // and a run of 16,384 ranks has a million links to pass over.
    const std::vector<std::pair<std::size_t, std::size_t>> *visibleLinks = nullptr;
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
    // Blocks and merged runs of narrow blocks the last paint drew: each paints a pixel column of
    // its row not painted before, so at most about one per column of each row.
    std::size_t drawnBlocks() const { return m_drawnBlocks; }
    // Narrower than this (in whole pixels), events merge per pixel column (paintRow).
    static constexpr double kMinBlockPixels = 2.0;
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
    // The message links with both ends shown and inside the time area, as the overlay draws
    // them (a pass over every link: a view keeps them in TimelineScene::visibleLinks).
    std::vector<std::pair<std::size_t, std::size_t>> visibleLinks() const;

private:
    void paintRows();
    void paintGrid();
    void paintBlocks(Ghosting ghosting);
    void paintHovered();
    void paintRunning();
    void paintGaps();
    void paintStreams();
    void paintHighlight();
    // Pixel columns [left, right) of a row painted in the fill of the event that began them.
    struct ColumnRun {
        std::size_t event = 0;
        int left = 0;
        int right = 0;
        bool ghost = false;
    };
    void paintRow(const RankEvents &rank, std::size_t first, std::size_t last, Ghosting ghosting);
    void paintRun(std::optional<ColumnRun> &run);
    void paintBlock(std::size_t index, const QRectF &rect);
    void paintCommunication(const core::Event &event, const QRect &pixels, const QColor &ink);
    QColor fillOf(const core::Event &event);
    void paintBlockLabel(const core::Event &event, const QRectF &rect, const QColor &fill);
    void paintArrows();
    void paintArrow(const QPointF &from, const QPointF &to);
    void paintLabels();
    void paintAxis();
    void paintCursor();
    void paintTimestepsMark();

    QPainter &m_painter;
    const TimelineScene &m_scene;
    const core::Trace &m_trace;
    core::SimTime m_tickStep;
    std::vector<RankEvents> m_ownRanks; // when the scene brings none
    const std::vector<RankEvents> *m_ranks = nullptr;
    std::vector<QColor> m_fills; // Palette::event by op and layer, filled as first needed
    std::size_t m_drawnBlocks = 0;
    std::size_t m_drawnArrows = 0;
};

} // namespace rankstep::gui
