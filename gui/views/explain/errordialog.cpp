// SPDX-License-Identifier: MIT
#include "errordialog.h"

#include "core/sentences.h"
#include "enginetext.h"

#include <QMessageBox>

namespace rankstep::gui {

RunErrorText describeRunError(const core::Trace &trace)
{
    RunErrorText out;
    if (!trace.error)
        return out;
    const core::Error &e = *trace.error;
    const QString where = e.rank >= 0 && e.line > 0
                              ? QObject::tr("rank %1, line %2").arg(e.rank).arg(e.line)
                          : e.line > 0 ? QObject::tr("line %1").arg(e.line)
                                       : QString();
    switch (e.kind) {
        case core::ErrorKind::Deadlock:
            out.title = QObject::tr("The ranks hung: no rank can go on");
            break;
        case core::ErrorKind::Mismatch:
            out.title = QObject::tr("The ranks called different collectives");
            break;
        case core::ErrorKind::Stopped:
            out.title = QObject::tr("The run was stopped");
            break;
        case core::ErrorKind::Syntax:
            out.title = QObject::tr("Python cannot read the code (%1)").arg(where);
            break;
        default:
            out.title = where.isEmpty() ? QObject::tr("The run failed")
                                        : QObject::tr("An error at %1").arg(where);
    }
    out.text = QString::fromStdString(e.message);
    // The title already says it hung; keep the text to each rank's wait.
    if (e.kind == core::ErrorKind::Deadlock &&
        out.text.startsWith(QString::fromUtf8(core::sentence::kDeadlock)))
        out.text = out.text.section(QLatin1Char('\n'), 1).trimmed();
    out.text = engineText(out.text);
    if (trace.diagnosis) {
        for (const core::RankWait &w : trace.diagnosis->ranks)
            out.details += w.finished ? QObject::tr("rank %1: finished\n").arg(w.rank)
                                      : QObject::tr("rank %1 (line %2): waits in %3\n")
                                            .arg(w.rank)
                                            .arg(w.line)
                                            .arg(engineText(w.waitsFor));
    } else {
        out.details = QString::fromStdString(e.traceback);
    }
    return out;
}

QPoint placeClear(QSize size, const QRect &window, const std::vector<QRect> &keepVisible)
{
    const int margin = 8;
    const int left = window.left() + margin, right = window.right() - margin - size.width() + 1;
    const int top = window.top() + margin, bottom = window.bottom() - margin - size.height() + 1;
    const int midX = window.center().x() - size.width() / 2;
    const int midY = window.center().y() - size.height() / 2;
    // The lower corners first: the timeline and the memory chart matter least to an error.
    const QPoint candidates[] = {{right, bottom}, {left, bottom}, {midX, bottom},
                                 {right, top},    {left, top},    {midX, top},
                                 {right, midY},   {left, midY},   {midX, midY}};
    QPoint best = candidates[0];
    long long bestOverlap = -1;
    for (const QPoint &at : candidates) {
        const QRect box(at, size);
        long long overlap = 0;
        for (const QRect &keep : keepVisible) {
            const QRect common = box.intersected(keep);
            overlap += common.isEmpty() ? 0 : (long long)common.width() * common.height();
        }
        if (overlap == 0)
            return at;
        if (bestOverlap < 0 || overlap < bestOverlap) {
            best = at;
            bestOverlap = overlap;
        }
    }
    return best;
}

QMessageBox *showRunError(QWidget *parent, const core::Trace &trace,
                          const std::vector<QRect> &keepVisible)
{
    const RunErrorText text = describeRunError(trace);
    auto *box =
        new QMessageBox(QMessageBox::Warning, text.title, text.title, QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("runErrorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(
        text.text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    if (!text.details.isEmpty())
        box->setDetailedText(text.details);
    box->setTextFormat(Qt::RichText);
    box->setStyleSheet(QStringLiteral(
        "QLabel#qt_msgbox_label, QLabel#qt_msgbox_informativelabel { min-width: 480px; }"));
    box->open();
    if (parent && !keepVisible.empty()) {
        box->adjustSize();
        const QWidget *window = parent->window();
        const QRect frame(window->mapToGlobal(QPoint(0, 0)), window->size());
        box->move(placeClear(box->frameGeometry().size(), frame, keepVisible));
    }
    return box;
}

} // namespace rankstep::gui
