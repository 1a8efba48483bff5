// SPDX-License-Identifier: MIT
#pragma once

#include "runcontroller.h"
#include "runsession.h"

#include <QObject>

#include <functional>
#include <optional>

class QAction;
class QTimer;

namespace rankstep::gui {

class CodeEditor;
class RealRunController;
class RealRunView;

// "Run for real" (Ctrl+F5): the saved code on real processes (rankstep-cli real), its outcome
// into the session for the "For real" tab, the elapsed seconds in the status bar meanwhile.
// `prepare` saves the code and says what to run (nothing when it could not be saved); the
// simulated run of the same code is the window's own Run, started alongside.
//
// "Show the real run in the views" puts the real run's trace (milliseconds, real bytes) into the
// session, its simulation becoming the session's second trace (the Compare tab shows them one
// above the other); unchecked, or when a new simulated run arrives, the simulation is back.
class RealRunActions : public QObject
{
    Q_OBJECT
public:
    RealRunActions(RunSession &session, std::function<std::optional<RunSpec>()> prepare,
                   QObject *parent = nullptr);

    QAction *action() const { return m_action; }
    QAction *showRealAction() const { return m_showReal; }
    RealRunController &controller() { return *m_controller; }
    // What the notice above the step bar says of the run in the views: one on real processes or
    // under a real-scale cost model; empty for a simulated run in steps.
    static QString noticeFor(const RunSession &session);
    // The For real tab runs the code and holds the Show action; a real rank's error is marked on
    // its line in the editor, as a simulated one is.
    void attach(RealRunView &view, CodeEditor &editor);

public Q_SLOTS:
    void runForReal();

Q_SIGNALS:
    void message(const QString &text); // for the status bar
    void started();                    // the tab should come to the front
    void simulationWanted(const rankstep::gui::RunSpec &spec);

private:
    void showReal(bool shown);
    void onTraceChanged();

    RunSession &m_session;
    std::function<std::optional<RunSpec>()> m_prepare;
    RealRunController *m_controller;
    QAction *m_action;
    QAction *m_showReal;
    QTimer *m_ticker;
    // While the real run is shown: the simulated trace and the comparison it replaced.
    TracePtr m_simulated, m_savedComparison;
    TraceUnits m_savedComparisonUnits = TraceUnits::SimulatedSteps;
};

} // namespace rankstep::gui
