// SPDX-License-Identifier: MIT
#pragma once

#include "tracefwd.h"

#include "core/lessons/lesson.h"

#include <QObject>

#include <memory>
#include <vector>

class QTemporaryDir;

namespace rankstep::gui {

class ComparisonView;
class RunController;
class RunSession;

// What the Compare tab compares with: the previous run on screen, or a lesson's reference
// solution, run in a runner of its own (the window's run is never replaced); the result becomes
// the session's comparison trace. The solutions offered follow the session's lesson.
class ComparisonActions : public QObject
{
    Q_OBJECT
public:
    ComparisonActions(RunSession &session, ComparisonView &view,
                      const std::vector<lessons::Lesson> &lessons, QObject *parent = nullptr);
    ~ComparisonActions() override;

    void compareWithSolution(const QString &lessonId);
    void compareWithPreviousRun();

Q_SIGNALS:
    // What happened, in a sentence for the status bar.
    void message(const QString &text);
    void comparisonShown();

private:
    // Offers the lessons' solutions, the session's lesson first.
    void onLessonChanged();
    void onTraceChanged();

    RunSession &m_session;
    ComparisonView &m_view;
    const std::vector<lessons::Lesson> &m_lessons;
    RunController *m_run;
    TracePtr m_shown, m_previous; // the session's trace, and the one before it
    std::unique_ptr<QTemporaryDir> m_folder;
};

} // namespace rankstep::gui
