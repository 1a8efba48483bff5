// SPDX-License-Identifier: MIT
#include "ranklines.h"

#include "palette.h"
#include "stateranks.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <optional>

namespace rankstep::gui {
namespace {

// The context of this file's texts in the translations (resources/translations).
struct RankLines {
    Q_DECLARE_TR_FUNCTIONS(RankLines)
};

constexpr double kMutedTowardBackground = 0.7; // the other lines while one rank is selected

} // namespace

QList<qreal> rankDashes(int rank)
{
    static const std::array<QList<qreal>, 5> patterns = {
        QList<qreal>{}, QList<qreal>{5, 3}, QList<qreal>{1, 2}, QList<qreal>{6, 2, 1, 2},
        QList<qreal>{12, 4}};
    const int group = std::max(0, rank) / kRankColors;
    return patterns[std::size_t(group) % patterns.size()];
}

RankLineLook rankLineLook(int rank, int selected, const Palette &palette, const QColor &background,
                          double width)
{
    RankLineLook look;
    look.color = palette.rank(rank);
    look.width = width;
    look.dashes = rankDashes(rank);
    look.selected = selected >= 0 && rank == selected;
    if (look.selected)
        look.width = 2 * width;
    else if (selected >= 0)
        look.color = Palette::toward(look.color, background, kMutedTowardBackground);
    return look;
}

std::vector<EndLabel> endLabels(std::vector<LineEnd> ends, double height, double top, double bottom,
                                int alone)
{
    std::stable_sort(ends.begin(), ends.end(),
                     [](const LineEnd &a, const LineEnd &b) { return a.y < b.y; });
    std::vector<EndLabel> labels;
    std::vector<double> sums; // of the merged ends' y, for their mean
    std::optional<LineEnd> single;
    for (const LineEnd &end : ends) {
        if (end.rank == alone) {
            single = end;
            continue;
        }
        if (!labels.empty() && end.y - labels.back().y <= height / 2) {
            labels.back().ranks.push_back(end.rank);
            sums.back() += end.y;
            continue;
        }
        labels.push_back({{}, end.y, {end.rank}});
        sums.push_back(end.y);
    }
    for (std::size_t i = 0; i < labels.size(); ++i)
        labels[i].y = sums[i] / double(labels[i].ranks.size());
    if (single) {
        const auto at = std::find_if(labels.begin(), labels.end(),
                                     [&](const EndLabel &label) { return label.y > single->y; });
        labels.insert(at, EndLabel{{}, single->y, {single->rank}});
    }
    for (EndLabel &label : labels) {
        std::sort(label.ranks.begin(), label.ranks.end());
        // In words: "r0-15" read as a name, not as ranks 0 to 15.
        label.text =
            (label.ranks.size() == 1 ? RankLines::tr("rank %1") : RankLines::tr("ranks %1"))
                .arg(rankListText(label.ranks));
    }
    // Down from the top, each below the last; then up from the bottom where they ran out.
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const double least = i == 0 ? top + height / 2 : labels[i - 1].y + height;
        labels[i].y = std::max(labels[i].y, least);
    }
    for (std::size_t i = labels.size(); i-- > 0;) {
        const double most = i + 1 == labels.size() ? bottom - height / 2 : labels[i + 1].y - height;
        labels[i].y = std::min(labels[i].y, most);
    }
    return labels;
}

void clearOfLines(std::vector<EndLabel> &labels, double height, double top, double bottom,
                  double linesTop, double linesBottom)
{
    constexpr double kGap = 2.0; // between the stack and the lines
    const double stack = double(labels.size()) * height;
    double first = 0; // the first label's center
    if (labels.empty() || linesTop > linesBottom)
        return;
    if (linesTop - kGap - top >= stack)
        first = linesTop - kGap - stack + height / 2;
    else if (bottom - linesBottom - kGap >= stack)
        first = linesBottom + kGap + height / 2;
    else
        return;
    for (std::size_t i = 0; i < labels.size(); ++i)
        labels[i].y = first + double(i) * height;
}

} // namespace rankstep::gui
