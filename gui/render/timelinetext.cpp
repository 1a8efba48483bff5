// SPDX-License-Identifier: MIT
#include "timelinetext.h"

#include <QLocale>
#include <QStringList>

namespace rankstep::gui {

namespace {

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

} // namespace

QString rankLabel(int rank)
{
    return QStringLiteral("rank %1").arg(rank);
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
        case core::OpKind::PassTo:
            return QStringLiteral("→ %1").arg(event.peer);
        case core::OpKind::Receive:
            return QStringLiteral("← %1").arg(event.peer);
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
    if (event.op == core::OpKind::PassTo) {
        title += QStringLiteral(" to rank %1").arg(event.peer);
    } else if (event.op == core::OpKind::Receive) {
        title += QStringLiteral(" from rank %1").arg(event.peer);
    }
    if (event.layer >= 0) {
        title += QStringLiteral(", layer %1").arg(event.layer);
    }
    return title;
}

QString eventToolTip(const core::Event &event, const QString &timeUnit)
{
    QStringList lines{rankLabel(event.rank) + QStringLiteral(": ") + eventTitle(event)};
    if (!event.batches.empty()) {
        lines << fromStd(core::describeSet(event.batches, "batch", "batches"));
    }
    if (event.shardTotal > 1) {
        lines << fromStd(core::describeSet(event.shards, "shard", "shards")) +
                     QStringLiteral(" of %1").arg(event.shardTotal);
    }
    lines << QStringLiteral("start %1, end %2, duration %3 %4")
                 .arg(fromStd(event.start.toString()), fromStd(event.end().toString()),
                      fromStd(event.duration.toString()), timeUnit);
    lines << QStringLiteral("memory %1 at the call").arg(memoryText(event.memory));
    if (event.line > 0) {
        lines << QStringLiteral("line %1 (click to show it)").arg(event.line);
    }
    return lines.join(QLatin1Char('\n'));
}

QString memoryText(std::int64_t memory)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(qlonglong(memory));
}

} // namespace rankstep::gui
