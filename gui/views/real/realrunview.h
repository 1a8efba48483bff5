// SPDX-License-Identifier: MIT
#pragma once

#include "realrunoutcome.h"

#include "core/trace.h"

#include <QString>
#include <QWidget>

class QLabel;
class QAction;
class QPushButton;
class QToolButton;
class QTextBrowser;

namespace rankstep::gui {

class Appearance;
class RunSession;

// The page of the "For real" tab, as Markdown: the verdict of the last real run, the largest
// difference of each layer from one process, and each rank's seconds in compute and in
// communication beside the simulated run's share of the same (`simulated`: the session's trace,
// null when none), so the learner sees where the notebook's costs match real ones.
QString realRunMarkdown(const RealRunOutcome *outcome, const core::Trace *simulated, bool running);

// The tab's headline: "Trains what one process trains.", "A rank raised an error: ...", ...
QString realRunHeadline(const RealRunOutcome *outcome, bool running);

// The "For real" tab: the session's last real run (RunSession::realRun) beside its simulated run.
class RealRunView : public QWidget
{
    Q_OBJECT
public:
    RealRunView(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    QString text() const; // the page as plain text (tests, screen readers)

    // The button that shows the real run in the views (RealRunActions::showRealAction).
    void setShowAction(QAction *action);

Q_SIGNALS:
    void realRunRequested();

private:
    void update();

    RunSession &m_session;
    QLabel *m_verdict;
    QPushButton *m_run;
    QToolButton *m_show;
    QTextBrowser *m_page;
};

} // namespace rankstep::gui
