// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"
#include "runcontroller.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace rankstep::gui {

class RunSession;

// Timesteps and maximum memory against the lesson's targets (met or not, by how much, with the
// notebook's rounded targets alongside), the check verdict and warnings, and what the code
// printed. Follows the session: its lesson (the targets, before a run), its run, the run's output
// and its verdict.
class ResultsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ResultsPanel(RunSession &session, QWidget *parent = nullptr);

    void showMessage(const QString &text); // running, stopped, failed...
    QString text() const;                  // what the panel shows, as plain text (tests)
    // The height the verdict and the two figures against the targets need at the current font:
    // a window that has to be sparing (presenting) gives the panel at least this.
    int headHeight() const;

private:
    void onLessonChanged();
    void showRun();
    QString targetsHtml() const;

    RunSession &m_session;
    TracePtr m_shown; // the run the panel shows the results of
    QLabel *m_label;
};

// The verdict's one sentence (lessons::judge's summary) in the language shown; the engine's own
// words it quotes (an error's gist, the check's message) stay English.
QString verdictText(const lessons::Lesson &lesson, const core::Trace &trace,
                    const lessons::Verdict &verdict);

// Whether the run's peak fits the device's memory its trace names (core::CostModel::
// deviceMemory), as the run's figures say it: "fits 80 GB, 19.73 GB to spare" or "40.16 GB over
// the 80 GB device"; empty when the trace names no device or has no events.
QString deviceFitText(const core::Trace &trace);

// Rich text for a run's figures against a lesson (shared with exports and tests), with its
// verdict; a run nobody judged (none given) is judged here against the lesson. `realRun`: the
// trace is of a run on real processes, its times milliseconds.
QString resultsHtml(const lessons::Lesson *lesson, const core::Trace &trace,
                    const std::optional<lessons::Verdict> &verdict = std::nullopt,
                    bool realRun = false);

} // namespace rankstep::gui
