// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"
#include "runcontroller.h"

#include <QWidget>

class QLabel;

namespace rankstep::gui {

// Timesteps and maximum memory against the lesson's targets (met or not, by how much, with the
// notebook's rounded targets alongside), the check verdict and warnings.
class ResultsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ResultsPanel(QWidget *parent = nullptr);

    void setLesson(const lessons::Lesson *lesson);
    // output: what the code printed, shown below the figures.
    void showTrace(const TracePtr &trace, const QString &output = {});
    void showMessage(const QString &text); // running, stopped, failed...
    QString text() const;                  // what the panel shows, as plain text (tests)
    // The height the verdict and the two figures against the targets need at the current font:
    // a window that has to be sparing (presenting) gives the panel at least this.
    int headHeight() const;

private:
    QString targetsHtml() const;
    const lessons::Lesson *m_lesson = nullptr;
    QLabel *m_label;
};

// The verdict's one sentence (lessons::judge's summary) in the language shown; the engine's own
// words it quotes (an error's gist, the check's message) stay English.
QString verdictText(const lessons::Lesson &lesson, const core::Trace &trace,
                    const lessons::Verdict &verdict);

// Rich text for a run's figures against a lesson (shared with exports and tests).
QString resultsHtml(const lessons::Lesson *lesson, const core::Trace &trace);

} // namespace rankstep::gui
