// SPDX-License-Identifier: MIT
#include "sweeplabels.h"

#include <QCoreApplication>

#include <QLineF>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

// The context of this file's texts in the translations (resources/translations).
struct SweepLabels {
    Q_DECLARE_TR_FUNCTIONS(SweepLabels)
};

QString countOf(int n, const char *one, const char *many)
{
    return n == 1 ? SweepLabels::tr(one) : SweepLabels::tr(many).arg(n);
}

bool overlapsMarker(const QRectF &box, const QPointF &point, double radius)
{
    return box.intersects(QRectF(point - QPointF(radius, radius), QSizeF(2 * radius, 2 * radius)));
}

} // namespace

QStringList sweepPointLabels(const std::vector<io::SweepPoint> &points)
{
    const auto varies = [&points](auto field) {
        return std::any_of(points.begin(), points.end(), [&](const io::SweepPoint &p) {
            return field(p) != field(points.front());
        });
    };
    const bool ranks = varies([](const io::SweepPoint &p) { return double(p.ranks); });
    const bool layers = varies([](const io::SweepPoint &p) { return double(p.layers); });
    const bool batches = varies([](const io::SweepPoint &p) { return double(p.batches); });
    const bool bandwidth = varies([](const io::SweepPoint &p) { return p.bandwidth; });
    const bool tensor = varies([](const io::SweepPoint &p) { return double(p.tensor); });
    const bool pipeline = varies([](const io::SweepPoint &p) { return double(p.pipeline); });
    QStringList labels;
    for (const io::SweepPoint &p : points) {
        QStringList words;
        if (ranks)
            words << countOf(p.ranks, QT_TRANSLATE_NOOP("SweepLabels", "1 rank"),
                             QT_TRANSLATE_NOOP("SweepLabels", "%1 ranks"));
        if (layers)
            words << countOf(p.layers, QT_TRANSLATE_NOOP("SweepLabels", "1 layer"),
                             QT_TRANSLATE_NOOP("SweepLabels", "%1 layers"));
        if (batches)
            words << countOf(p.batches, QT_TRANSLATE_NOOP("SweepLabels", "1 batch"),
                             QT_TRANSLATE_NOOP("SweepLabels", "%1 batches"));
        if (bandwidth)
            words << (p.bandwidth > 0 ? SweepLabels::tr("%1 GB/s").arg(p.bandwidth)
                                      : SweepLabels::tr("own bandwidth"));
        if (tensor)
            words << SweepLabels::tr("tensor %1").arg(p.tensor);
        if (pipeline)
            words << SweepLabels::tr("pipeline %1").arg(p.pipeline);
        labels << words.join(QStringLiteral(", "));
    }
    return labels;
}

namespace {

// Whether a box is clear: inside the plot, over no label placed and no point's marker.
bool isClear(const QRectF &box, const QRectF &plot, const std::vector<QRectF> &taken,
             const std::vector<QPointF> &points, const std::vector<double> &radii)
{
    if (!plot.contains(box))
        return false;
    if (std::any_of(taken.begin(), taken.end(),
                    [&box](const QRectF &other) { return box.intersects(other); }))
        return false;
    for (std::size_t j = 0; j < points.size(); ++j)
        if (overlapsMarker(box, points[j], j < radii.size() ? radii[j] : 0.0))
            return false;
    return true;
}

// Whether the leader from point `from` to its label crosses a label or another point's marker;
// the markers that touch its own (its cluster, which it has to leave through) aside.
bool leaderCrosses(const QLineF &leader, std::size_t from, const std::vector<QRectF> &taken,
                   const std::vector<QPointF> &points, const std::vector<double> &radii)
{
    constexpr int kSamples = 24;
    const auto radiusOf = [&radii](std::size_t i) {
        return i < radii.size() ? radii[i] : 0.0;
    };
    for (int k = 1; k < kSamples; ++k) {
        const QPointF at = leader.pointAt(double(k) / kSamples);
        for (std::size_t j = 0; j < points.size(); ++j) {
            const bool touching =
                QLineF(points[from], points[j]).length() <= radiusOf(from) + radiusOf(j);
            if (j != from && !touching && QLineF(at, points[j]).length() < radiusOf(j) + 1.0)
                return true;
        }
        if (std::any_of(taken.begin(), taken.end(),
                        [&at](const QRectF &box) { return box.contains(at); }))
            return true;
    }
    return false;
}

} // namespace

QPointF leaderEnd(const QRectF &box, const QPointF &point)
{
    return {std::clamp(point.x(), box.left(), box.right()),
            std::clamp(point.y(), box.top(), box.bottom())};
}

std::vector<std::optional<QRectF>> placePointLabels(const std::vector<QPointF> &points,
                                                    const std::vector<QSizeF> &sizes,
                                                    const QRectF &plot,
                                                    const std::vector<double> &radii)
{
    std::vector<std::optional<QRectF>> placed(points.size());
    std::vector<QRectF> taken;
    const auto radiusOf = [&radii](std::size_t i) {
        return i < radii.size() ? radii[i] : 0.0;
    };
    // A point whose marker touches two others is inside a cluster: labels beside it ring the
    // cluster and close every way out, so its label goes farther out with a leader (below).
    const auto inCluster = [&](std::size_t i) {
        int touching = 0;
        for (std::size_t j = 0; j < points.size(); ++j)
            touching +=
                j != i && QLineF(points[i], points[j]).length() <= radiusOf(i) + radiusOf(j);
        return touching >= 2;
    };
    for (std::size_t i = 0; i < points.size() && i < sizes.size(); ++i) {
        if (inCluster(i))
            continue;
        const QPointF p = points[i];
        const double w = sizes[i].width(), h = sizes[i].height();
        const double gap = radiusOf(i) + 2.0;
        const QRectF candidates[] = {
            {p.x() + gap, p.y() - h / 2, w, h},       // right
            {p.x() - gap - w, p.y() - h / 2, w, h},   // left
            {p.x() - w / 2, p.y() - gap - h, w, h},   // above
            {p.x() - w / 2, p.y() + gap, w, h},       // below
            {p.x() + gap, p.y() - gap - h, w, h},     // above right
            {p.x() + gap, p.y() + gap, w, h},         // below right
            {p.x() - gap - w, p.y() - gap - h, w, h}, // above left
            {p.x() - gap - w, p.y() + gap, w, h},     // below left
        };
        for (const QRectF &box : candidates) {
            if (w > 0 && isClear(box, plot, taken, points, radii)) {
                placed[i] = box;
                taken.push_back(box);
                break;
            }
        }
    }
    // A cluster's points, and those with no room beside their point, go farther out, in rings of
    // directions, with a leader line to their point (leaderEnd) that crosses no other point or
    // label.
    constexpr int kDirections = 24, kRings = 20;
    for (std::size_t i = 0; i < points.size() && i < sizes.size(); ++i) {
        const double w = sizes[i].width(), h = sizes[i].height();
        if (placed[i] || w <= 0)
            continue;
        const QPointF p = points[i];
        for (int ring = 1; ring <= kRings && !placed[i]; ++ring) {
            const double reach = radiusOf(i) + 2.0 + ring * h;
            for (int d = 0; d < kDirections; ++d) {
                const double angle = 2 * M_PI * d / kDirections;
                const QPointF toward(std::cos(angle), std::sin(angle));
                const QPointF center(p.x() + toward.x() * (reach + w / 2),
                                     p.y() + toward.y() * (reach + h / 2));
                const QRectF box(center.x() - w / 2, center.y() - h / 2, w, h);
                if (!isClear(box, plot, taken, points, radii) ||
                    leaderCrosses(QLineF(p, leaderEnd(box, p)), i, taken, points, radii))
                    continue;
                placed[i] = box;
                taken.push_back(box);
                break;
            }
        }
    }
    return placed;
}

bool isGradedSetting(const io::SweepRow &row, const lessons::Lesson &lesson,
                     const std::string &costModel)
{
    const core::RunConfig &own = lesson.config;
    return costModel == "notebook" && row.point.bandwidth <= 0 && row.point.ranks == own.ranks &&
           row.point.layers == own.layers && row.point.batches == own.batches;
}

QString sweepResultText(const io::SweepRow &row, const lessons::Lesson *lesson,
                        const std::string &costModel)
{
    if (row.status == "solved") {
        if (!lesson || !isGradedSetting(row, *lesson, costModel))
            return SweepLabels::tr("correct");
        const bool met = !lesson->targets || (row.timesteps && row.peakMemory &&
                                              *row.timesteps <= lesson->targets->time &&
                                              *row.peakMemory <= lesson->targets->memory);
        return met ? SweepLabels::tr("solved") : SweepLabels::tr("correct, targets missed");
    }
    if (row.status == "not solved")
        return SweepLabels::tr("not correct");
    if (row.status == "error")
        return SweepLabels::tr("error");
    if (row.status == "hung")
        return SweepLabels::tr("hung");
    if (row.status == "stopped")
        return SweepLabels::tr("stopped");
    if (row.status == "crashed")
        return SweepLabels::tr("crashed");
    return QString::fromStdString(row.status);
}

QString settingText(const core::RunConfig &config)
{
    return QStringList{countOf(config.ranks, QT_TRANSLATE_NOOP("SweepLabels", "1 rank"),
                               QT_TRANSLATE_NOOP("SweepLabels", "%1 ranks")),
                       countOf(config.layers, QT_TRANSLATE_NOOP("SweepLabels", "1 layer"),
                               QT_TRANSLATE_NOOP("SweepLabels", "%1 layers")),
                       countOf(config.batches, QT_TRANSLATE_NOOP("SweepLabels", "1 batch"),
                               QT_TRANSLATE_NOOP("SweepLabels", "%1 batches"))}
        .join(QStringLiteral(", "));
}

} // namespace rankstep::gui
