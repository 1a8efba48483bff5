// SPDX-License-Identifier: MIT
// The one way the app runs rankstep-cli: a coroutine that starts the child, keeps what it prints
// within bounds, ends it at its wall-clock limit or on a stop request, and hands back a value
// (after QCoro's own QProcess example). Every controller that runs the CLI uses it, and
// ChildRuns keeps the rule that a newer run supersedes an older one in one place.
#pragma once

#include <QByteArray>
#include <QPointer>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace QCoro {
template <typename T>
class Task;
}

namespace rankstep::gui {

// What to run: rankstep-cli (or, for a test, another program) with its arguments.
struct ChildCommand {
    QStringList args;
    QString program;          // empty: rankstep-cli, found as cliPath() finds it
    QString workingFolder;    // empty: the app's own
    bool mergeErrors = false; // stderr into output, in the order the child wrote them
    // Each piece of stdout as it arrives (a sweep's rows); output then keeps nothing.
    std::function<void(const QByteArray &)> onOutput;
};

// How long a child may run and how much of what it prints is kept (CappedOutput).
struct ChildLimits {
    std::chrono::milliseconds wallClock = std::chrono::hours(24);  // then SIGKILL
    std::chrono::milliseconds stopGrace = std::chrono::seconds(2); // SIGTERM to SIGKILL
    qsizetype headBytes = 1 << 20;                                 // of each of stdout and stderr
    qsizetype tailBytes = 64 << 10;
};

// How a child ended.
struct ChildOutcome {
    bool started = false;  // false: it never ran (errorString says why)
    bool stopped = false;  // a stop request ended it
    bool timedOut = false; // its wall-clock limit ended it
    QProcess::ExitStatus exitStatus = QProcess::CrashExit;
    int exitCode = -1;
    QString errorString; // QProcess's words for a failed start or a crash
    QString output;      // stdout (and stderr when merged), capped
    QString errors;      // stderr, capped
    double seconds = 0;  // from start to end
    bool normalExit() const { return started && exitStatus == QProcess::NormalExit; }
};

// Asks a child that runCli started to end: SIGTERM at once, so that rankstep-cli ends every
// process of its run and removes its folder, and SIGKILL the limits' grace later if it is still
// there. Copies share one request; a request made before the child starts keeps it from starting.
class StopToken
{
public:
    StopToken();

    void request();
    bool requested() const;
    // Its child started and has not ended yet.
    bool childRunning() const;
    // For a destructor (no event loop to come): the grace to end, then SIGKILL, and waits.
    void endNow();

private:
    friend QCoro::Task<ChildOutcome> runCli(ChildCommand, ChildLimits, StopToken);
    struct State {
        bool requested = false;
        QPointer<QProcess> process;
        std::chrono::milliseconds grace{2000};
    };
    void sendStop();
    std::shared_ptr<State> m_state;
};

// Runs the command to its end and says how it ended. Never throws; take its arguments by value.
QCoro::Task<ChildOutcome> runCli(ChildCommand command, ChildLimits limits, StopToken stop);

// One run of a controller: which one it is, and how to stop its child.
struct ChildRun {
    int generation = 0;
    StopToken stop;
};

// The runs of one controller: at most one current, which a newer run or stop() supersedes; a
// superseded run's outcome is reported to nobody. Its destructor gives every child still ending
// its grace, then kills it, so that no runner outlives the window.
class ChildRuns
{
public:
    ChildRuns() = default;
    ChildRuns(const ChildRuns &) = delete;
    ChildRuns &operator=(const ChildRuns &) = delete;
    ~ChildRuns();

    // A new current run (stop() the one before first, if any).
    ChildRun begin();
    bool busy() const { return m_busy; }
    // Whether `run` is still the current one: false once it was stopped or superseded.
    bool isCurrent(const ChildRun &run) const { return m_busy && run.generation == m_generation; }
    // The current run ended; it is no longer current.
    void finish(const ChildRun &run);
    // Supersedes the current run at once and asks its child to end; false when none was running.
    bool stop();
    // Asks the current run's child to end; the run stays current and reports its outcome.
    void stopChild();

private:
    std::vector<StopToken> m_ending; // stopped, their child not ended yet
    StopToken m_current;
    int m_generation = 0;
    bool m_busy = false;
};

// rankstep-cli: $RANKSTEP_CLI, beside this program, ../cli/ of a build tree, or on PATH; empty
// when none is found.
QString cliPath();

} // namespace rankstep::gui
