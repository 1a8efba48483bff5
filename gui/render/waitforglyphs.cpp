// SPDX-License-Identifier: MIT
#include "waitforglyphs.h"

#include "palette.h"

#include <QPainterPath>

#include <algorithm>

namespace rankstep::gui {
namespace {

using explain::Standing;

const QColor kFinished(0x9e, 0x9e, 0x9e);

} // namespace

NodeStyle nodeStyle(Standing standing, const QColor &rankColor, const QColor &base, double zoom)
{
    switch (standing) {
        case Standing::Stopped: // the cause: the thickest outline, in the rank's color
            return {QPen(rankColor.darker(170), 3.2 * zoom),
                    Palette::toward(rankColor, base, 0.25)};
        case Standing::Waiting:
            return {QPen(rankColor.darker(140), 1.5 * zoom),
                    Palette::toward(rankColor, base, 0.25)};
        case Standing::Finished: { // pale with a dashed gray outline, unlike any rank color
            QPen pen(kFinished.darker(120), 1.5 * zoom, Qt::DashLine);
            return {pen, Palette::toward(kFinished, base, 0.8)};
        }
        case Standing::NotStarted: { // hollow: nothing of it ran
            QPen pen(kFinished.darker(130), 1.5 * zoom, Qt::DotLine);
            return {pen, QBrush(base)};
        }
        case Standing::Underway: {
            QPen pen(rankColor.darker(140), 1.5 * zoom, Qt::DotLine);
            return {pen, Palette::toward(rankColor, base, 0.7)};
        }
    }
    return {};
}

void paintStandingMark(QPainter &painter, Standing standing, const QRectF &box, const QColor &ink)
{
    painter.save();
    const double side = std::min(box.width(), box.height());
    const QRectF r(box.center() - QPointF(side / 2, side / 2), QSizeF(side, side));
    const QRectF inner = r.adjusted(side * 0.15, side * 0.15, -side * 0.15, -side * 0.15);
    QPen pen(ink, std::max(1.2, side / 8), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    switch (standing) {
        case Standing::Stopped: // a cross in a disc
            painter.setBrush(ink);
            painter.drawEllipse(inner);
            pen.setColor(Palette::textOn(ink));
            painter.setPen(pen);
            {
                const double in = side * 0.2;
                const QRectF cross = inner.adjusted(in, in, -in, -in);
                painter.drawLine(cross.topLeft(), cross.bottomRight());
                painter.drawLine(cross.topRight(), cross.bottomLeft());
            }
            break;
        case Standing::Waiting: { // an hourglass
            const QRectF glass = inner.adjusted(side * 0.1, 0, -side * 0.1, 0);
            QPainterPath path;
            path.moveTo(glass.topLeft());
            path.lineTo(glass.topRight());
            path.lineTo(glass.center());
            path.lineTo(glass.bottomRight());
            path.lineTo(glass.bottomLeft());
            path.lineTo(glass.center());
            path.closeSubpath();
            painter.drawPath(path);
            break;
        }
        case Standing::Finished: // a tick
            painter.drawPolyline(
                QPolygonF({inner.topLeft() + QPointF(0, inner.height() * 0.55),
                           inner.topLeft() + QPointF(inner.width() * 0.38, inner.height() * 0.9),
                           inner.topRight() + QPointF(0, inner.height() * 0.1)}));
            break;
        case Standing::NotStarted: // an empty ring
            painter.drawEllipse(inner);
            break;
        case Standing::Underway: { // three dots: it would have gone on
            painter.setPen(Qt::NoPen);
            painter.setBrush(ink);
            const double dot = side * 0.18;
            for (int i = 0; i < 3; ++i)
                painter.drawEllipse(
                    QPointF(inner.left() + inner.width() * (0.15 + 0.35 * i), inner.center().y()),
                    dot / 2 + 0.5, dot / 2 + 0.5);
            break;
        }
    }
    painter.restore();
}

} // namespace rankstep::gui
