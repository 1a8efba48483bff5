// SPDX-License-Identifier: MIT
#include "timelinetext.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace rankstep::gui {

namespace {

struct TimelineText {
    Q_DECLARE_TR_FUNCTIONS(TimelineText)
};

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

// A run of consecutive numbers: "4", "4,5" or, from three numbers on, "4-7".
QString runText(int first, int last)
{
    if (first == last) {
        return QString::number(first);
    }
    if (last == first + 1) {
        return QStringLiteral("%1,%2").arg(first).arg(last);
    }
    return QStringLiteral("%1-%2").arg(first).arg(last);
}

// "batch 2", "batches 0-3", "batches 0, 2 and 5", in the language shown.
QString describeSet(const core::IndexSet &set, const QString &singular, const QString &plural)
{
    const std::vector<int> members = set.toVector();
    if (members.empty())
        return TimelineText::tr("no %1").arg(plural);
    if (members.size() == 1)
        return singular + QLatin1Char(' ') + QString::number(members.front());
    if (members.back() - members.front() + 1 == int(members.size()) && members.size() > 2)
        return plural + QLatin1Char(' ') + runText(members.front(), members.back());
    QStringList numbers;
    for (int member : members)
        numbers << QString::number(member);
    const QString last = numbers.takeLast();
    return TimelineText::tr("%1 %2 and %3").arg(plural, numbers.join(QStringLiteral(", ")), last);
}

} // namespace

QString rankLabel(int rank)
{
    return TimelineText::tr("rank %1").arg(rank);
}

QString batchLabel(const core::IndexSet &batches)
{
    const std::vector<int> members = batches.toVector();
    QStringList parts;
    std::size_t begin = 0;
    for (std::size_t i = 1; i <= members.size(); ++i) {
        if (i == members.size() || members[i] != members[i - 1] + 1) {
            parts << runText(members[begin], members[i - 1]);
            begin = i;
        }
    }
    return parts.join(QLatin1Char(','));
}

QString blockLabel(const core::Event &event)
{
    const QString layer = event.layer >= 0 ? QStringLiteral(" L%1").arg(event.layer) : QString();
    switch (event.op) {
        case core::OpKind::AllReduce:
            return QStringLiteral("AR") + layer;
        case core::OpKind::AllGather:
            return QStringLiteral("AG") + layer;
        case core::OpKind::ScatterReduce:
            return QStringLiteral("SR") + layer;
        case core::OpKind::AllToAll:
            return QStringLiteral("A2A") + layer;
        // A profile's send or recv names no peer (core/io/chrometracereader.h).
        case core::OpKind::PassTo:
            return event.peer < 0 ? QStringLiteral("→") : QStringLiteral("→ %1").arg(event.peer);
        case core::OpKind::Receive:
            return event.peer < 0 ? QStringLiteral("←") : QStringLiteral("← %1").arg(event.peer);
        case core::OpKind::BackwardInput: // the two halves of a backward, told apart by name
            return QStringLiteral("B ") + batchLabel(event.batches);
        case core::OpKind::BackwardWeight:
            return QStringLiteral("W ") + batchLabel(event.batches);
        case core::OpKind::Forward:
        case core::OpKind::Backward:
        case core::OpKind::Loss:
        case core::OpKind::Update:
            break;
    }
    return batchLabel(event.batches);
}

QString eventTitle(const core::Event &event)
{
    QString title = QString::fromLatin1(core::opName(event.op));
    if (event.peer < 0) { // a profile's send or recv: no peer known
    } else if (event.op == core::OpKind::PassTo) {
        title += TimelineText::tr(" to rank %1").arg(event.peer);
    } else if (event.op == core::OpKind::Receive) {
        title += TimelineText::tr(" from rank %1").arg(event.peer);
    }
    if (event.layer >= 0) {
        title += TimelineText::tr(", layer %1").arg(event.layer);
    }
    return title;
}

QString timestepsToolTip(const core::Trace &trace)
{
    return QCoreApplication::translate(
               "TimelineText",
               "Timesteps %1: the latest start of any rank's last operation, the figure the "
               "notebook prints and the targets are set in. The run ends at %2, when that "
               "operation has finished.")
        .arg(QString::fromStdString(trace.figures.timesteps.toString()),
             QString::fromStdString(trace.figures.endTime.toString()));
}

QString eventToolTip(const core::Event &event, const QString &timeUnit)
{
    QStringList lines{rankLabel(event.rank) + QStringLiteral(": ") + eventTitle(event)};
    if (!event.batches.empty()) {
        lines << describeSet(event.batches, TimelineText::tr("batch"), TimelineText::tr("batches"));
    }
    if (event.shardTotal > 1) {
        lines << TimelineText::tr("%1 of %2")
                     .arg(describeSet(event.shards, TimelineText::tr("shard"),
                                      TimelineText::tr("shards")))
                     .arg(event.shardTotal);
    }
    lines << TimelineText::tr("start %1, end %2, duration %3 %4")
                 .arg(fromStd(event.start.toString()), fromStd(event.end().toString()),
                      fromStd(event.duration.toString()), timeUnit);
    lines << TimelineText::tr("memory %1 at the call").arg(memoryText(event.memory));
    if (event.line > 0) {
        lines << TimelineText::tr("line %1 (click to show it)").arg(event.line);
    }
    return lines.join(QLatin1Char('\n'));
}

QString memoryText(std::int64_t memory)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(qlonglong(memory));
}

QString secondsText(core::SimTime time)
{
    return QStringLiteral("%1 s").arg(double(time.ticks()) / 1e6, 0, 'f', 3);
}

QString clockText(core::SimTime time, const QString &unit)
{
    const QString number = QString::fromStdString(time.toString());
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

} // namespace rankstep::gui
