// SPDX-License-Identifier: MIT
#include "waitfortext.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace rankstep::gui {
namespace {

// The context of this file's texts in the translations (resources/translations).
struct WaitForText {
    Q_DECLARE_TR_FUNCTIONS(WaitForText)
};

bool isReceive(const core::RankWait &wait)
{
    return wait.waitsFor.rfind("receive", 0) == 0;
}

bool isAnySource(const core::RankWait &wait)
{
    return wait.waitsFor.find("any rank") != std::string::npos;
}

bool notReached(const core::RankWait &wait)
{
    return wait.waitsFor.empty() || wait.waitsFor.front() == '(';
}

QString rankList(const std::vector<int> &ranks)
{
    QStringList names;
    for (int rank : ranks)
        names << QString::number(rank);
    return (ranks.size() == 1 ? WaitForText::tr("rank %1") : WaitForText::tr("ranks %1"))
        .arg(names.join(QStringLiteral(", ")));
}

} // namespace

QString waitForTitle(const core::Diagnosis &diagnosis)
{
    return diagnosis.kind == core::ErrorKind::Mismatch
               ? WaitForText::tr("Collective mismatch")
               : WaitForText::tr("Deadlock: no rank can go on");
}

QString missedCall(const core::RankWait &finished, const core::Diagnosis &diagnosis)
{
    // Mirrors the core's message: a rank that finished missed a collective, not a message.
    for (const core::RankWait &other : diagnosis.ranks) {
        if (other.finished || isReceive(other) || notReached(other))
            continue;
        if (std::find(other.waitsOn.begin(), other.waitsOn.end(), finished.rank) !=
            other.waitsOn.end())
            return QString::fromStdString(other.waitsFor);
    }
    return {};
}

QString waitCaption(const core::RankWait &wait, const core::Diagnosis &diagnosis)
{
    if (wait.finished) {
        const QString missed = missedCall(wait, diagnosis);
        return missed.isEmpty() ? WaitForText::tr("finished")
                                : WaitForText::tr("finished without calling %1").arg(missed);
    }
    const QString where = wait.line > 0 ? WaitForText::tr(" · line %1").arg(wait.line) : QString();
    if (notReached(wait))
        return WaitForText::tr("has not reached it yet") + where;
    return WaitForText::tr("waits in %1").arg(QString::fromStdString(wait.waitsFor)) + where;
}

QString waitToolTip(const core::RankWait &wait, const core::Diagnosis &diagnosis)
{
    QStringList lines;
    lines << WaitForText::tr("Rank %1: %2").arg(wait.rank).arg(waitCaption(wait, diagnosis));
    if (wait.line > 0)
        lines << (wait.finished ? WaitForText::tr("Last line it ran: %1")
                                : WaitForText::tr("Stuck at line %1"))
                     .arg(wait.line);
    if (!wait.waitsOn.empty()) {
        const bool any = isAnySource(wait);
        lines << (any && wait.waitsOn.size() > 1
                      ? WaitForText::tr("A message from any of %1 would let it go on")
                  : any ? WaitForText::tr("A message from %1 would let it go on")
                        : WaitForText::tr("Waits on %1"))
                     .arg(rankList(wait.waitsOn));
    }
    std::vector<int> waiters;
    for (const core::RankWait &other : diagnosis.ranks)
        if (std::find(other.waitsOn.begin(), other.waitsOn.end(), wait.rank) != other.waitsOn.end())
            waiters.push_back(other.rank);
    if (!waiters.empty())
        lines << WaitForText::tr("Waited on by %1").arg(rankList(waiters));
    return lines.join(QLatin1Char('\n'));
}

std::vector<WaitArrow> waitArrows(const core::Diagnosis &diagnosis)
{
    std::vector<WaitArrow> arrows;
    for (const core::RankWait &wait : diagnosis.ranks) {
        if (wait.finished)
            continue;
        for (int on : wait.waitsOn)
            if (on != wait.rank)
                arrows.push_back({wait.rank, on, isAnySource(wait)});
    }
    return arrows;
}

} // namespace rankstep::gui
