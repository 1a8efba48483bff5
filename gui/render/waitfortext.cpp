// SPDX-License-Identifier: MIT
#include "waitfortext.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace rankstep::gui {
namespace {

using explain::Hang;
using explain::HangKind;
using explain::RankStanding;
using explain::Standing;

// The context of this file's texts in the translations (resources/translations).
struct WaitForText {
    Q_DECLARE_TR_FUNCTIONS(WaitForText)
};

QString text(const std::string &call)
{
    return QString::fromStdString(call);
}

bool isReceive(const std::string &call)
{
    return call.rfind("receive", 0) == 0;
}

// "0", "0 and 1", "0, 1 and 2".
QString numbers(const std::vector<int> &ranks)
{
    QStringList names;
    for (int rank : ranks)
        names << QString::number(rank);
    if (names.size() < 2)
        return names.join(QString());
    const QString last = names.takeLast();
    return WaitForText::tr("%1 and %2").arg(names.join(QStringLiteral(", ")), last);
}

QString rankList(const std::vector<int> &ranks)
{
    return (ranks.size() == 1 ? WaitForText::tr("rank %1") : WaitForText::tr("ranks %1"))
        .arg(numbers(ranks));
}

std::vector<int> ranksThat(const Hang &hang, const auto &matches)
{
    std::vector<int> ranks;
    for (const RankStanding &s : hang.ranks)
        if (matches(s))
            ranks.push_back(s.rank);
    return ranks;
}

std::vector<int> waitersOn(const Hang &hang, int rank)
{
    return ranksThat(hang, [rank](const RankStanding &s) {
        return std::find(s.waitsOn.begin(), s.waitsOn.end(), rank) != s.waitsOn.end();
    });
}

QString deadlockTitle(const Hang &hang)
{
    if (hang.cycle.size() == 2)
        return WaitForText::tr("Deadlock: ranks %1 wait on each other").arg(numbers(hang.cycle));
    QStringList steps;
    for (int rank : hang.cycle)
        steps << QString::number(rank);
    steps << QString::number(hang.cycle.front());
    return WaitForText::tr("Deadlock: ranks %1 wait in a cycle")
        .arg(steps.join(QStringLiteral(" → ")));
}

} // namespace

QString hangTitle(const Hang &hang)
{
    switch (hang.kind) {
        case HangKind::Error:
            return WaitForText::tr("An error stopped rank %1 at line %2")
                .arg(hang.rank)
                .arg(hang.line);
        case HangKind::MissedCall:
            if (isReceive(hang.call))
                return WaitForText::tr("Rank %1 finished and never sent to %2")
                    .arg(hang.rank)
                    .arg(rankList(waitersOn(hang, hang.rank)));
            return WaitForText::tr("Rank %1 finished without calling %2")
                .arg(hang.rank)
                .arg(text(hang.call));
        case HangKind::Deadlock:
            return deadlockTitle(hang);
        case HangKind::Mismatch:
            return WaitForText::tr("Collective mismatch: ranks %1 made different calls")
                .arg(numbers(ranksThat(
                    hang, [](const RankStanding &s) { return s.standing == Standing::Waiting; })));
        case HangKind::Stuck:
            break;
    }
    return WaitForText::tr("No rank can go on");
}

QString hangDetail(const Hang &hang)
{
    QStringList sentences;
    if (hang.kind == HangKind::Error || hang.kind == HangKind::MissedCall) {
        const std::vector<int> waiters = waitersOn(hang, hang.rank);
        if (!waiters.empty() && !hang.call.empty())
            sentences << (waiters.size() == 1 ? WaitForText::tr("Rank %1 waits for it in %2.")
                                              : WaitForText::tr("Ranks %1 wait for it in %2."))
                             .arg(numbers(waiters), text(hang.call));
    }
    const std::vector<int> notStarted =
        ranksThat(hang, [](const RankStanding &s) { return s.standing == Standing::NotStarted; });
    if (!notStarted.empty())
        sentences << (notStarted.size() == 1 ? WaitForText::tr("Rank %1 never started.")
                                             : WaitForText::tr("Ranks %1 never started."))
                         .arg(numbers(notStarted));
    return sentences.join(QLatin1Char(' '));
}

CaptionParts standingCaptionParts(const RankStanding &rank, const Hang &hang)
{
    const QString where = rank.line > 0 ? WaitForText::tr("line %1").arg(rank.line) : QString();
    switch (rank.standing) {
        case Standing::Stopped:
            return {WaitForText::tr("stopped by an error"), {}, where};
        case Standing::Waiting: // a receive names its sender itself; the tooltip lists who
            return {WaitForText::tr("waits in %1").arg(text(rank.call)),
                    rank.anySource || isReceive(rank.call) || rank.waitsOn.empty()
                        ? QString()
                        : WaitForText::tr("for %1").arg(rankList(rank.waitsOn)),
                    where};
        case Standing::Finished:
            return {rank.call.empty() || isReceive(rank.call)
                        ? WaitForText::tr("finished")
                        : WaitForText::tr("finished without calling %1").arg(text(rank.call)),
                    {},
                    {}};
        case Standing::NotStarted:
            return {WaitForText::tr("never started: the run ended first"), {}, {}};
        case Standing::Underway:
            return {hang.kind == HangKind::Mismatch ? WaitForText::tr("has not reached it yet")
                                                    : WaitForText::tr("cut short: the run ended"),
                    {},
                    where};
    }
    return {};
}

QString standingCaption(const RankStanding &rank, const Hang &hang)
{
    const CaptionParts parts = standingCaptionParts(rank, hang);
    QString caption = parts.what;
    if (!parts.on.isEmpty())
        caption += QLatin1Char(' ') + parts.on;
    if (!parts.where.isEmpty())
        caption += QStringLiteral(" · ") + parts.where;
    return caption;
}

QString standingName(Standing standing, const Hang &hang)
{
    switch (standing) {
        case Standing::Stopped:
            return WaitForText::tr("stopped by an error");
        case Standing::Waiting:
            return WaitForText::tr("waiting");
        case Standing::Finished:
            return WaitForText::tr("finished");
        case Standing::NotStarted:
            return WaitForText::tr("never started");
        case Standing::Underway:
            return hang.kind == HangKind::Mismatch ? WaitForText::tr("not there yet")
                                                   : WaitForText::tr("cut short");
    }
    return {};
}

QString standingWord(Standing standing, const Hang &hang)
{
    switch (standing) {
        case Standing::Stopped:
            return WaitForText::tr("error");
        case Standing::Waiting:
            return WaitForText::tr("waits");
        case Standing::Finished:
            return WaitForText::tr("finished");
        case Standing::NotStarted:
            return WaitForText::tr("not started");
        case Standing::Underway:
            return standingName(standing, hang);
    }
    return {};
}

QString standingToolTip(const RankStanding &rank, const Hang &hang)
{
    QStringList lines;
    lines << WaitForText::tr("Rank %1: %2").arg(rank.rank).arg(standingCaption(rank, hang));
    if (rank.standing == Standing::Stopped && !hang.error.empty())
        lines << text(hang.error);
    if (rank.standing == Standing::Finished && rank.line > 0)
        lines << WaitForText::tr("Last line it ran: %1").arg(rank.line);
    if (!rank.waitsOn.empty()) {
        const bool any = rank.anySource;
        lines << (any && rank.waitsOn.size() > 1
                      ? WaitForText::tr("A message from any of %1 would let it go on")
                  : any ? WaitForText::tr("A message from %1 would let it go on")
                        : WaitForText::tr("Waits on %1"))
                     .arg(rankList(rank.waitsOn));
    }
    const std::vector<int> waiters = waitersOn(hang, rank.rank);
    if (!waiters.empty())
        lines << WaitForText::tr("Waited on by %1").arg(rankList(waiters));
    return lines.join(QLatin1Char('\n'));
}

std::vector<WaitArrow> waitArrows(const Hang &hang)
{
    std::vector<WaitArrow> arrows;
    for (const RankStanding &s : hang.ranks)
        if (s.standing == Standing::Waiting)
            for (int on : s.waitsOn)
                arrows.push_back({s.rank, on, s.anySource});
    return arrows;
}

} // namespace rankstep::gui
