// SPDX-License-Identifier: MIT
#include "timelineframe.h"

#include "palette.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {

namespace {

// The first pixel column the painter gives an event (a zero-length mark: its halo).
int firstColumn(const core::Event &event, const RowLayout &layout, const TimeAxis &axis)
{
    const int left = int(std::round(eventRect(event, layout, axis).left()));
    return event.duration.ticks() == 0 ? left - 1 : left;
}

// The column after the last one the painter gives an event (a zero-length mark: its halo).
int pastLastColumn(const core::Event &event, const RowLayout &layout, const TimeAxis &axis)
{
    const int right = int(std::round(eventRect(event, layout, axis).right()));
    return event.duration.ticks() == 0 ? right + 1 : right;
}

} // namespace

void TimelineFrame::paint(QPainter &painter, const TimelineScene &scene, qreal pixelRatio)
{
    const Key key{scene.trace,  scene.layout, scene.axis,
                  scene.bounds, pixelRatio,   scene.palette.cacheKey(),
                  scene.font,   scene.look};
    if (!(key == m_key)) {
        m_key = key;
        m_full = QPixmap();
        m_ghost = QPixmap();
        m_visibleLinks.reset();
    }
    painter.drawPixmap(scene.bounds.topLeft(),
                       base(TimelinePainter::Ghosting::None, scene, pixelRatio));
    if (scene.ghostAfter) {
        paintGhostRows(painter, scene, base(TimelinePainter::Ghosting::All, scene, pixelRatio),
                       pixelRatio);
    }
    if (!m_visibleLinks) // what the key holds decides them: found once, not on every step
        m_visibleLinks = TimelinePainter(painter, scene).visibleLinks();
    TimelineScene overlay = scene;
    overlay.visibleLinks = &*m_visibleLinks;
    TimelinePainter(painter, overlay).paintOverlay();
}

const QPixmap &TimelineFrame::base(TimelinePainter::Ghosting ghosting, const TimelineScene &scene,
                                   qreal pixelRatio)
{
    QPixmap &pixmap = ghosting == TimelinePainter::Ghosting::All ? m_ghost : m_full;
    if (!pixmap.isNull()) {
        return pixmap;
    }
    pixmap = QPixmap(scene.bounds.size() * pixelRatio);
    pixmap.setDevicePixelRatio(pixelRatio);
    QPainter painter(&pixmap);
    TimelineScene local = scene;
    local.bounds.moveTopLeft(QPoint(0, 0));
    TimelinePainter(painter, local).paintBase(ghosting);
    ++m_baseRenders;
    return pixmap;
}

void TimelineFrame::paintGhostRows(QPainter &painter, const TimelineScene &scene,
                                   const QPixmap &ghost, qreal pixelRatio) const
{
    const RowLayout &layout = scene.layout;
    const int rows = rowsInView(layout, scene.bounds.height());
    const int right = scene.bounds.width();
    for (int row = firstRowInView(layout); row < rows; ++row) {
        const int shown = layout.rankOf(row);
        if (shown < 0 || shown >= int(scene.ranks->size())) {
            continue;
        }
        const RankEvents &rank = (*scene.ranks)[std::size_t(shown)];
        const std::size_t applied = std::size_t(shown) < scene.rankGhostAfter.size()
                                        ? scene.rankGhostAfter[std::size_t(shown)]
                                        : *scene.ghostAfter;
        const auto event = firstGhost(rank, applied);
        if (!event) {
            continue;
        }
        int left = std::max(int(std::ceil(layout.labelWidth)),
                            firstColumn(scene.trace->events[*event], layout, scene.axis));
        if (const auto before = lastApplied(rank, applied)) { // a mark reaching over
            left = std::max(left, pastLastColumn(scene.trace->events[*before], layout, scene.axis));
        }
        const int top = int(std::round(std::max(layout.axisHeight, layout.rowTop(row))));
        const int bottom = int(std::round(layout.rowTop(row + 1)));
        if (left >= right || bottom <= top) {
            continue;
        }
        const QRect target(left, top, right - left, bottom - top);
        const QRectF source(QPointF(target.topLeft()) * pixelRatio,
                            QSizeF(target.size()) * pixelRatio);
        painter.drawPixmap(target.translated(scene.bounds.topLeft()), ghost, source);
    }
}

} // namespace rankstep::gui
