// SPDX-License-Identifier: MIT
#pragma once

#include "core/replay/replayer.h"
#include "tracefwd.h"

#include <QObject>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace QCoro {
template <typename T>
class Task;
}

namespace rankstep::gui {

// The stop points of a trace and the replayer over them: what stepping needs, made once a trace
// (the open of a file makes them on its worker; the replayer points into the stop points).
struct Stepping {
    std::unique_ptr<replay::StopPoints> stops;
    std::unique_ptr<replay::Replayer> replayer;
    static Stepping of(const core::Trace &trace); // any thread
};

// The one cursor through a finished run that every view follows. Owns the stop points and the
// replayer of the current trace; a new trace puts the cursor at its end (where a deadlocked or
// mismatched run stopped). Play steps forward in the current step mode until the end.
// Steps go by simulated time (every rank at the next event boundary), except that a trace with
// draw() marks steps by snapshot until the learner picks a mode by hand: the learner put the
// draws there to look at them (the walk-through lesson's are its story).
class StepController : public QObject
{
    Q_OBJECT
public:
    enum class StepMode { Operation, Slice, Time, Snapshot };
    Q_ENUM(StepMode)

    explicit StepController(QObject *parent = nullptr);
    ~StepController() override;

    // Null clears; the cursor then is nullopt and every step does nothing. end: the latest end
    // of any event (RunSession::endTime), where the cursor stands at the end of the run.
    void setTrace(TracePtr trace, core::SimTime end);
    // The same with its stepping made already (Stepping::of the trace), none made here.
    void setTrace(TracePtr trace, core::SimTime end, Stepping stepping);
    const TracePtr &trace() const { return m_trace; }

    std::optional<replay::Cursor> cursor() const { return m_cursor; }
    // Every rank's state at the cursor, rebuilt only when the cursor moved (empty without a trace).
    const replay::RunState &state();
    // The one simulated time every view shows: the cursor's cut (stepping by time, operation or
    // snapshot: every rank stands there), the end of the last event at the end of the run, the
    // clock of the rank that moved last stepping by scheduler turn, 0 at the start.
    core::SimTime cursorTime() const;
    // Where the cursor stands in the current mode's steps, of how many: the operation started
    // last, the snapshot (from 1), the time boundary, the scheduler turn; 0 at the start.
    std::size_t stepIndex() const;
    std::size_t stepCount() const;
    // The rank that moved last (Cursor::movedRank); nullopt for a time step.
    std::optional<int> movedRank() const;
    // Events started at the cursor (Cursor::operations): the timeline shows the rest as ghosts,
    // rank by rank (appliedEventsByRank) where every rank stands at one time.
    std::size_t appliedEvents() const;
    // Per rank, its events below this index are applied (started); they differ at a time cut.
    // A loop over every rank: views that show a few ranks ask rankCut for theirs.
    std::vector<std::size_t> appliedEventsByRank() const;
    // Where `rank` stands at the cursor (Cursor::rankCut), kept as the cursor moves: constant
    // time at a cut. Needs a cursor.
    replay::RankCut rankCut(int rank) const;
    // The rank's event that has started but not finished at the cursor; nullopt when none.
    std::optional<std::size_t> runningEvent(int rank) const;
    // How many events have finished at the cursor (all applied ones but the running), and how
    // many run (one a rank at most): counts the cursor keeps, not a loop over the ranks.
    std::size_t doneEvents() const;
    std::size_t runningCount() const;
    // The events that have started but not finished at the cursor, one per rank at most (a loop
    // over every rank).
    std::vector<std::size_t> runningEvents() const;
    bool atHome() const;
    bool atEnd() const;

    StepMode stepMode() const { return m_mode; }
    // The draw() mark the cursor stands at (a snapshot step or toSnapshot); nullopt elsewhere.
    std::optional<std::size_t> snapshot() const;
    // The snapshots taken at or before the cursor, in any mode (what a snapshot step counts):
    // the one stood at and those before it; 0 at the start.
    std::size_t snapshotsTaken() const;
    double speed() const { return m_speed; } // steps per second while playing
    bool isPlaying() const { return m_playing; }

    // Something that may hold a step forward (next(), what F10, PageDown, the Next button and
    // Play do) until it lets it go: presentation mode's quiz (gui/app/quizcontroller.h) asks the
    // room first. It gets the cursor the step would reach; false holds the step (the cursor
    // stays). Null: every step goes.
    using ForwardGate = std::function<bool(const replay::Cursor &to)>;
    void setForwardGate(ForwardGate gate) { m_forwardGate = std::move(gate); }

public Q_SLOTS:
    void nextOperation();
    void previousOperation();
    void nextSlice();
    void previousSlice();
    void nextTime();
    void previousTime();
    void nextSnapshot();
    void previousSnapshot();
    void toSnapshot(int mark); // the end when there is no such mark
    void next();               // one step in the current mode
    void previous();
    void home();
    void end();
    void toEvent(int event);
    // By simulated time: every rank at the last boundary at or before `time`; otherwise the
    // shortest prefix holding every event that starts by then.
    void toTime(core::SimTime time);
    // To the step of the current mode nearest `fraction` of its steps (the step bar's slider).
    void setFraction(double fraction);
    void toStepIndex(std::size_t index);
    // Where a recorded demonstration's cursor stood (gui/app/demostage.h): a stop point by its
    // index (the end when past it), or every rank at simulated time `time` (a time step's cut).
    void toStop(std::size_t stop);
    void toCut(core::SimTime time);
    void toOperation(std::size_t count); // that many operations started (Cursor::atOperation)
    void play();
    void pause();
    void togglePlay();
    void setSpeed(double stepsPerSecond);
    void setStepMode(StepMode mode); // the learner's choice: kept for every later trace

Q_SIGNALS:
    void cursorChanged();
    void stateChanged(const replay::RunState &state); // only built when something listens
    void traceChanged();
    void playingChanged(bool playing);
    void stepModeChanged(StepMode mode);
    void speedChanged(double stepsPerSecond);

private:
    using Move = replay::Cursor (replay::Cursor::*)() const;
    void apply(Move move); // does nothing without a trace
    void moveTo(const replay::Cursor &cursor);
    void setPlaying(bool playing);
    void changeStepMode(StepMode mode);
    replay::Cursor stepped(const replay::Cursor &cursor, bool forward) const;
    replay::Cursor endOf(const replay::Cursor &cursor) const;
    void noteMovedRanks(); // the front's, into m_staleRanks
    QCoro::Task<void> playLoop(int generation);

    TracePtr m_trace;
    std::unique_ptr<replay::StopPoints> m_stops;
    std::unique_ptr<replay::Replayer> m_replayer;
    std::unique_ptr<replay::CutFront> m_front; // follows m_cursor
    std::optional<replay::Cursor> m_cursor;
    replay::RunState m_state;
    bool m_stateValid = false;
    // The ranks whose cut moved since m_state was built (all of them: m_allStale).
    std::vector<int> m_staleRanks;
    std::vector<char> m_stale; // per rank, in m_staleRanks
    bool m_allStale = true;
    core::SimTime m_runEnd;
    StepMode m_mode = StepMode::Time;
    bool m_modeChosen = false; // by the learner: a trace's marks no longer choose it
    double m_speed = 4;
    bool m_playing = false;
    int m_playGeneration = 0; // a new play or a pause ends the loop of the one before
    ForwardGate m_forwardGate;
};

} // namespace rankstep::gui
