// SPDX-License-Identifier: MIT
#include "waitforgeometry.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rankstep::gui {
namespace {

constexpr double kNodeGap = 10;
constexpr double kArrowRoom = 26; // between nodes when the ring has room: arrows stay visible
constexpr double kSizeStep = 4;

double angleOf(int index, int ranks)
{
    if (ranks == 2) // side by side reads better than one above the other
        return index == 0 ? std::numbers::pi : 0.0;
    return -std::numbers::pi / 2 + 2 * std::numbers::pi * index / ranks;
}

} // namespace

std::vector<QRectF> ringNodes(int ranks, const QRectF &area, QSizeF node)
{
    std::vector<QRectF> nodes;
    if (ranks <= 0)
        return nodes;
    const QPointF center = area.center();
    const double rx = std::max(0.0, (area.width() - node.width()) / 2);
    const double ry = std::max(0.0, (area.height() - node.height()) / 2);
    for (int i = 0; i < ranks; ++i) {
        const double angle = angleOf(i, ranks);
        const QPointF c =
            ranks == 1 ? center : center + QPointF(rx * std::cos(angle), ry * std::sin(angle));
        nodes.emplace_back(c - QPointF(node.width() / 2, node.height() / 2), node);
    }
    return nodes;
}

std::vector<QRectF> gridNodes(int ranks, const QRectF &area, double gap)
{
    std::vector<QRectF> nodes;
    if (ranks <= 0)
        return nodes;
    // The column count whose cells come closest to the preferred node's shape.
    int best = 1;
    double bestScale = -1;
    for (int columns = 1; columns <= ranks; ++columns) {
        const int rows = (ranks + columns - 1) / columns;
        const double w = (area.width() - gap * (columns - 1)) / columns;
        const double h = (area.height() - gap * (rows - 1)) / rows;
        const double scale =
            std::min(w / kPreferredNodeSize.width(), h / kPreferredNodeSize.height());
        if (scale > bestScale) {
            bestScale = scale;
            best = columns;
        }
    }
    const int rows = (ranks + best - 1) / best;
    const double w = std::max(1.0, (area.width() - gap * (best - 1)) / best);
    const double h = std::max(
        1.0, std::min((area.height() - gap * (rows - 1)) / rows, kPreferredNodeSize.height()));
    for (int i = 0; i < ranks; ++i)
        nodes.emplace_back(area.left() + (i % best) * (w + gap),
                           area.top() + double(i / best) * (h + gap), w, h);
    return nodes;
}

bool anyOverlap(const std::vector<QRectF> &rects, double gap)
{
    for (std::size_t i = 0; i < rects.size(); ++i)
        for (std::size_t j = i + 1; j < rects.size(); ++j)
            if (rects[i]
                    .adjusted(-gap / 2, -gap / 2, gap / 2, gap / 2)
                    .intersects(rects[j].adjusted(-gap / 2, -gap / 2, gap / 2, gap / 2)))
                return true;
    return false;
}

// The largest node (by its scale against the preferred size) whose ring does not overlap.
std::optional<QSizeF> largestRingNode(int ranks, const QRectF &area, double gap)
{
    std::optional<QSizeF> best;
    double bestScale = 0;
    const double maxHeight = std::min(kPreferredNodeSize.height(), area.height());
    for (double h = maxHeight; h >= kMinimumNodeSize.height(); h -= kSizeStep / 2) {
        for (double w = std::min(kPreferredNodeSize.width(), area.width());
             w >= kMinimumNodeSize.width(); w -= kSizeStep) {
            if (anyOverlap(ringNodes(ranks, area, QSizeF(w, h)), gap))
                continue;
            const double scale =
                std::min(w / kPreferredNodeSize.width(), h / kPreferredNodeSize.height());
            if (scale > bestScale) {
                bestScale = scale;
                best = QSizeF(w, h);
            }
            break; // narrower nodes at this height only score lower
        }
    }
    return best;
}

std::vector<QRectF> waitForNodes(int ranks, const QRectF &area)
{
    if (ranks <= 0)
        return {};
    if (ranks <= kMaxRingRanks) {
        const auto roomy = largestRingNode(ranks, area, kArrowRoom);
        const auto tight = largestRingNode(ranks, area, kNodeGap);
        const auto scale = [](QSizeF node) {
            return std::min(node.width() / kPreferredNodeSize.width(),
                            node.height() / kPreferredNodeSize.height());
        };
        // Room for arrows, unless it costs the nodes more than a tenth of their size.
        if (roomy && (!tight || scale(*roomy) >= 0.9 * scale(*tight)))
            return ringNodes(ranks, area, *roomy);
        if (tight)
            return ringNodes(ranks, area, *tight);
    }
    return gridNodes(ranks, area, kNodeGap / 2);
}

QPointF boundaryToward(const QRectF &rect, QPointF target)
{
    const QPointF c = rect.center();
    const double dx = target.x() - c.x();
    const double dy = target.y() - c.y();
    if (dx == 0 && dy == 0)
        return c;
    const double tx = dx == 0 ? 1e300 : rect.width() / 2 / std::abs(dx);
    const double ty = dy == 0 ? 1e300 : rect.height() / 2 / std::abs(dy);
    const double t = std::min(tx, ty);
    return c + QPointF(dx * t, dy * t);
}

QLineF arrowBetween(const QRectF &from, const QRectF &to, double gap, double side)
{
    const QLineF centers(from.center(), to.center());
    if (centers.length() == 0 || from.intersects(to))
        return QLineF(from.center(), from.center());
    const QPointF unit = (centers.p2() - centers.p1()) / centers.length();
    const QPointF right(-unit.y(), unit.x()); // to the right of the direction on screen (y down)
    const QPointF shift = right * side;
    // Shifting the boundary points keeps them within `side` pixels of the boundary.
    const QPointF start = boundaryToward(from, to.center()) + shift;
    const QPointF end = boundaryToward(to, from.center()) + shift;
    return QLineF(start + unit * gap, end - unit * gap);
}

std::pair<QLineF, QLineF> arrowHead(const QLineF &line, double length)
{
    const double angle = std::atan2(line.dy(), line.dx());
    const double spread = std::numbers::pi / 7;
    const QPointF tip = line.p2();
    const auto stroke = [&](double a) {
        return QLineF(tip, tip - QPointF(std::cos(a), std::sin(a)) * length);
    };
    return {stroke(angle - spread), stroke(angle + spread)};
}

std::optional<int> nodeAt(const std::vector<QRectF> &nodes, QPointF point)
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].contains(point))
            return int(i);
    return std::nullopt;
}

} // namespace rankstep::gui
