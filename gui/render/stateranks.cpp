// SPDX-License-Identifier: MIT
#include "stateranks.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace rankstep::gui {
namespace {

// The context of this file's texts in the translations (resources/translations).
struct RankListText {
    Q_DECLARE_TR_FUNCTIONS(RankListText)
};

// One rank number of `item`; -1 when it is none.
int rankNumber(const QString &text)
{
    bool ok = false;
    const int rank = text.trimmed().toInt(&ok);
    return ok && rank >= 0 ? rank : -1;
}

// Adds the ranks of one item ("8" or "12-15"); an error message when it is not understood.
QString addItem(const QString &item, int rankCount, std::vector<int> &ranks)
{
    const QStringList ends = item.split(QLatin1Char('-'));
    if (ends.size() > 2)
        return RankListText::tr("'%1' is not a rank or a range like 12-15").arg(item);
    const int first = rankNumber(ends.front());
    const int last = rankNumber(ends.back());
    if (first < 0 || last < 0)
        return RankListText::tr("'%1' is not a rank or a range like 12-15").arg(item);
    if (last < first)
        return RankListText::tr("the range %1 runs backward: write %2-%3")
            .arg(item)
            .arg(last)
            .arg(first);
    if (last >= rankCount)
        return RankListText::tr("there is no rank %1: this run has ranks 0-%2")
            .arg(last)
            .arg(rankCount - 1);
    for (int rank = first; rank <= last; ++rank)
        ranks.push_back(rank);
    return {};
}

} // namespace

RankList parseRankList(const QString &text, int rankCount, int most)
{
    RankList list;
    const QStringList items = text.split(QLatin1Char(','));
    for (const QString &raw : items) {
        const QString item = raw.simplified().remove(QLatin1Char(' '));
        if (item.isEmpty())
            continue;
        list.error = addItem(item, rankCount, list.ranks);
        if (!list.ok()) {
            list.ranks.clear();
            return list;
        }
    }
    std::sort(list.ranks.begin(), list.ranks.end());
    list.ranks.erase(std::unique(list.ranks.begin(), list.ranks.end()), list.ranks.end());
    if (list.ranks.empty())
        list.error = RankListText::tr("name the ranks to show, like 0-3, 8, 12-15");
    else if (int(list.ranks.size()) > most)
        list.error =
            RankListText::tr("%1 ranks named: at most %2 fit").arg(list.ranks.size()).arg(most);
    if (!list.ok())
        list.ranks.clear();
    return list;
}

QString rankListText(const std::vector<int> &ranks)
{
    QStringList items;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        items << (j == i ? QString::number(ranks[i])
                         : QStringLiteral("%1-%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
    }
    return items.join(QStringLiteral(", "));
}

} // namespace rankstep::gui
