// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"

#include <QString>

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

// Opens (non-blocking) the dialog for a failed run; objectName "runErrorDialog".
QMessageBox *showRunError(QWidget *parent, const core::Trace &trace);

} // namespace rankstep::gui
