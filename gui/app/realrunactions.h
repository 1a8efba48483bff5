// SPDX-License-Identifier: MIT
#pragma once

#include "runcontroller.h"

#include <QObject>

#include <functional>
#include <optional>

class QAction;
class QTimer;

namespace rankstep::gui {

class RealRunController;
class RunSession;

// "Run for real" (Ctrl+F5): the saved code on real processes (rankstep-cli real), its outcome
// into the session for the "For real" tab, the elapsed seconds in the status bar meanwhile.
// `prepare` saves the code and says what to run (nothing when it could not be saved); the
// simulated run of the same code is the window's own Run, started alongside.
class RealRunActions : public QObject
{
    Q_OBJECT
public:
    RealRunActions(RunSession &session, std::function<std::optional<RunSpec>()> prepare,
                   QObject *parent = nullptr);

    QAction *action() const { return m_action; }
    RealRunController &controller() { return *m_controller; }

public Q_SLOTS:
    void runForReal();

Q_SIGNALS:
    void message(const QString &text); // for the status bar
    void started();                    // the tab should come to the front
    void simulationWanted(const rankstep::gui::RunSpec &spec);

private:
    RunSession &m_session;
    std::function<std::optional<RunSpec>()> m_prepare;
    RealRunController *m_controller;
    QAction *m_action;
    QTimer *m_ticker;
};

} // namespace rankstep::gui
