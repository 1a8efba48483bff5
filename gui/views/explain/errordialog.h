// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"

#include <QRect>
#include <QString>

#include <vector>

class QMessageBox;
class QWidget;

namespace rankstep::gui {

// The title and text of a failed run, in the learner's words: which rank, which line, what.
struct RunErrorText {
    QString title;   // "Rank 0 stopped at line 12"
    QString text;    // the message
    QString details; // the traceback, or each rank's wait
};
RunErrorText describeRunError(const core::Trace &trace);

// Where a dialog of `size` goes inside `window` so that it hides none of `keepVisible` (the line
// the error is on, the state of every rank, the views and the sentences that explain the error):
// against the window's edges, in its middle or just beside one of the rectangles, the first
// place (from the lower right) that hides none of them, else the one that hides the least share
// of them. Empty rectangles are ignored. All rectangles in one coordinate system (the screen's).
QPoint placeClear(QSize size, const QRect &window, const std::vector<QRect> &keepVisible);

// Opens (non-blocking) the dialog for a failed run; objectName "runErrorDialog". It is placed
// clear of keepVisible (placeClear, in global coordinates) within the parent's window.
QMessageBox *showRunError(QWidget *parent, const core::Trace &trace,
                          const std::vector<QRect> &keepVisible = {});

} // namespace rankstep::gui
