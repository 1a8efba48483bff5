// SPDX-License-Identifier: MIT
#include "runendmark.h"

#include "core/stoppedrank.h"

#include <QFont>
#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <QStringList>

namespace rankstep::gui {
namespace {

constexpr QRgb kHangRed = 0xb3261e; // the results panel's red

// The line of the error that says what went wrong: for a hang, the rank that never called the
// collective the others wait in; else the first line. A rank's own error is its first line, then
// who waited for that rank: the error is why they waited.
QString errorGist(const core::Trace &trace)
{
    const core::Error &error = *trace.error;
    const QStringList lines =
        QString::fromStdString(error.message).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const bool own = core::endedOnARanksOwnError(trace);
    for (const QString &line : lines)
        if (!own && line.contains(QStringLiteral("without calling")))
            return line.trimmed();
    if (error.kind == core::ErrorKind::Deadlock && lines.size() > 1)
        return lines[1].trimmed();
    const QString first = lines.isEmpty() ? QString() : lines.front().trimmed();
    const std::string waiting = core::waitingOnTheStoppedRank(trace);
    return waiting.empty() ? first
                           : QObject::tr("%1; %2").arg(first, QString::fromStdString(waiting));
}

} // namespace

QString runEndWord(const core::Trace &trace)
{
    switch (trace.status) {
        case core::RunStatus::Ok:
            return {};
        case core::RunStatus::Deadlock:
            return QObject::tr("hung");
        case core::RunStatus::Stopped:
            return QObject::tr("stopped");
        case core::RunStatus::Error:
            return QObject::tr("failed");
    }
    return QObject::tr("failed");
}

QString titleWithRunEnd(const QString &title, const core::Trace &trace)
{
    const QString word = runEndWord(trace);
    if (word.isEmpty())
        return title;
    return title.isEmpty() ? word : title + QStringLiteral(" (") + word + QLatin1Char(')');
}

QString runEndSummary(const core::Trace &trace)
{
    const QString word = runEndWord(trace);
    if (word.isEmpty() || !trace.error)
        return word;
    const QString gist = errorGist(trace);
    QString text = word.left(1).toUpper() + word.mid(1);
    return gist.isEmpty() ? text : text + QStringLiteral(": ") + gist;
}

void paintRunEndMark(QPainter &painter, const core::Trace &trace, const QRectF &area,
                     const TimeAxis &axis, double textPixels)
{
    const QString word = runEndWord(trace);
    if (word.isEmpty())
        return;
    const double x = axis.toX(trace.figures.endTime) + area.left();
    painter.save();
    painter.setPen(QPen(QColor(kHangRed), 2.0, Qt::DashLine));
    painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    QFont font = painter.font();
    font.setPixelSize(int(textPixels));
    font.setBold(true);
    painter.setFont(font);
    const QString label = QObject::tr("%1 here").arg(word);
    const double width = QFontMetricsF(font).horizontalAdvance(label);
    // Left of the line, where the run's blocks end; right of it only when there is no room.
    const double left = x - width - 6 >= area.left() ? x - width - 6 : x + 6;
    const QRectF box(left, area.top(), width + 2, textPixels * 1.5);
    painter.fillRect(box, Qt::white); // over the time axis' tick labels
    painter.setPen(QColor(kHangRed));
    painter.drawText(box, Qt::AlignLeft | Qt::AlignTop, label);
    painter.restore();
}

} // namespace rankstep::gui
