// SPDX-License-Identifier: MIT
#pragma once

#include "timelinepainter.h"

#include <QPixmap>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

class QPainter;

namespace rankstep::gui {

// The timeline's picture, made cheap to step: the base (TimelinePainter::paintBase) is drawn
// into two pixmaps, every block in full color and every block ghosted, once per trace, size,
// zoom, theme and font. A paint copies the full-color one, then in each rank's row the ghosted
// one from that rank's first event not yet applied on, then draws the overlay (arrows, hovered
// block, cursor): a step costs a few copies the size of the view, not a pass over the events.
class TimelineFrame
{
public:
    void paint(QPainter &painter, const TimelineScene &scene, qreal pixelRatio);
    // How often a base was drawn (full color and ghosted count separately), for tests.
    int baseRenders() const { return m_baseRenders; }

private:
    struct Key {
        const core::Trace *trace = nullptr;
        RowLayout layout;
        TimeAxis axis;
        QRect bounds;
        qreal pixelRatio = 0.0;
        qint64 palette = 0;
        QFont font;
        Look look; // the color scheme and the zoom
        bool operator==(const Key &) const = default;
    };

    const QPixmap &base(TimelinePainter::Ghosting ghosting, const TimelineScene &scene,
                        qreal pixelRatio);
    void paintGhostRows(QPainter &painter, const TimelineScene &scene, const QPixmap &ghost,
                        qreal pixelRatio) const;

    Key m_key;
    QPixmap m_full;
    QPixmap m_ghost; // null until a cursor needs it
    std::optional<std::vector<std::pair<std::size_t, std::size_t>>> m_visibleLinks;
    int m_baseRenders = 0;
};

} // namespace rankstep::gui
