// SPDX-License-Identifier: MIT
#include "errordialog.h"

#include "core/sentences.h"
#include "enginetext.h"
#include "waitfortext.h"
#include "waitforview.h"

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
    if (const auto hang = hangInWords(trace)) {
        // In the hang picture's words: stopped by an error, waiting, finished, never started.
        for (const explain::RankStanding &rank : hang->ranks)
            out.details +=
                QObject::tr("rank %1: %2\n").arg(rank.rank).arg(standingCaption(rank, *hang));
    } else {
        out.details = engineTraceback(QString::fromStdString(e.traceback));
    }
    return out;
}

namespace {

// How much of the rectangles the box would hide, each as the share of it hidden: hiding a whole
// line of code weighs as much as hiding a whole chart.
double hiddenShare(const QRect &box, const std::vector<QRect> &keepVisible)
{
    double hidden = 0;
    for (const QRect &keep : keepVisible) {
        const QRect common = box.intersected(keep);
        if (!common.isEmpty())
            hidden +=
                double(common.width()) * common.height() / (double(keep.width()) * keep.height());
    }
    return hidden;
}

// Where a box may stand along one axis: against the window's two edges, its middle, and just
// past either side of every rectangle to keep clear (within the window).
std::vector<int> stops(int low, int high, int length, const std::vector<std::pair<int, int>> &spans)
{
    const int margin = 8;
    std::vector<int> at{high - margin - length + 1, low + margin, (low + high - length) / 2};
    for (const auto &[first, last] : spans) {
        at.push_back(last + 1 + margin);
        at.push_back(first - margin - length);
    }
    std::vector<int> inside;
    for (const int position : at)
        if (position >= low && position + length - 1 <= high)
            inside.push_back(position);
    return inside;
}

} // namespace

QPoint placeClear(QSize size, const QRect &window, const std::vector<QRect> &keepVisible)
{
    std::vector<QRect> keep;
    std::vector<std::pair<int, int>> across, down;
    for (const QRect &rect : keepVisible)
        if (!rect.isEmpty()) {
            keep.push_back(rect);
            across.emplace_back(rect.left(), rect.right());
            down.emplace_back(rect.top(), rect.bottom());
        }
    // The lower right first, as dialogs usually stand, then the other places in turn; a box
    // larger than the window stands at its top left.
    std::vector<int> xs = stops(window.left(), window.right(), size.width(), across);
    std::vector<int> ys = stops(window.top(), window.bottom(), size.height(), down);
    if (xs.empty())
        xs.push_back(window.left());
    if (ys.empty())
        ys.push_back(window.top());
    QPoint best(xs.front(), ys.front());
    double least = -1;
    for (const int y : ys)
        for (const int x : xs) {
            const double hidden = hiddenShare(QRect(QPoint(x, y), size), keep);
            if (least < 0 || hidden < least - 1e-9) {
                best = {x, y};
                least = hidden;
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
    // The informative label guesses its format (Qt::AutoText, whatever setTextFormat says): the
    // paragraph tag makes it read the escaped text as HTML, one line without a <br> included.
    box->setInformativeText(
        QStringLiteral("<p>%1</p>")
            .arg(text.text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
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
