// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"
#include "core/simtime.h"
#include "realrunoutcome.h"
#include "stepcontroller.h"
#include "tracederived.h"
#include "tracefwd.h"

#include <QCoreApplication>
#include <QObject>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace rankstep::gui {

// What a trace's numbers mean: simulated steps and puzzle bytes (the simulator), or wall-clock
// time and the bytes real tensors held (a run on real processes, core/io/realtrace.h: a thousand
// ticks, what a simulated trace calls a step, are a millisecond).
enum class TraceUnits { SimulatedSteps, Seconds };

// The unit of a trace's times as printed: "steps", or "ms" for a real run.
inline QString timeUnitName(TraceUnits units)
{
    return units == TraceUnits::Seconds ? QStringLiteral("ms")
                                        : QCoreApplication::translate("TimeUnit", "steps");
}

// A span of time on screen, in fractional ticks of the trace's time (core::SimTime ticks, so that
// zooming deep and back stays exact; gui/render/timelinegeometry.h TimeAxis).
struct TimeRange {
    double from = 0.0;
    double to = 0.0;
    bool operator==(const TimeRange &) const = default;
};

// The run on screen, shared by every view (after Qt Creator's src/libs/tracing
// timelinezoomcontrol.h): the trace and what is derived from it once (its end, the stop points
// and the cursor through them, in stepper()), a second trace to compare with, the time range
// the timeline and the memory chart show, and the selection; the lesson the run belongs to, what
// the run printed and its verdict. Views are built with it and follow its *Changed signals; nobody
// pushes a trace, a lesson or a verdict into a view by hand.
class RunSession : public QObject
{
    Q_OBJECT

public:
    explicit RunSession(QObject *parent = nullptr);

    const TracePtr &trace() const { return m_trace; }
    // The lesson open in the window, null before one opens. Its runs are judged against it.
    const lessons::Lesson *lesson() const { return m_lesson; }
    // What the run's code printed (the runner's output, capped), empty without a run.
    const QString &output() const { return m_output; }
    // The run's verdict against the lesson; none for a run that is not graded (a what-if setting
    // opened, a demonstration's run, a run on real processes) and before the run is judged.
    const std::optional<lessons::Verdict> &verdict() const { return m_verdict; }
    // Whether the run shown was read from a file (File > Open Trace, rankstep --open): the app
    // did not make it from the lesson's code and cannot vouch for the program that did, so
    // nobody grades it against the lesson (the trace's function name is only a claim).
    bool openedFromFile() const { return m_openedFromFile; }
    // The lesson's memory target (bytes) as the charts draw it against the run: none without a
    // lesson or target, for a run read from a file (not graded against the lesson) and for a run
    // on real processes (its bytes are not the puzzle's).
    std::optional<std::int64_t> memoryTarget() const;
    // A second run to compare with (the lesson's solution, the previous run; the simulation of
    // the code while the views show its real run); null when none.
    const TracePtr &comparison() const { return m_comparison; }
    TraceUnits comparisonUnits() const { return m_comparisonUnits; }
    TraceUnits units() const { return m_units; }
    // The latest end of any event (the trace's figures), 0 without a trace.
    core::SimTime endTime() const { return m_endTime; }
    bool hasEvents() const { return m_trace && !m_trace->events.empty(); }

    // What views derive from the whole trace (rows by rank, waits, heat, memory lines), made once
    // for it and shared by every view; empty without a trace.
    const TraceDerived &derived() const { return *m_derived; }
    const std::shared_ptr<const TraceDerived> &derivedShared() const { return m_derived; }
    // The file being opened on the open's worker ("big16k.rstb"), empty when none: the run shown
    // stays until it is ready, and the step bar says that stepping waits for it.
    const QString &opening() const { return m_opening; }
    void setOpening(const QString &name);

    // The cursor through the run, its stop points and the state of every rank there.
    StepController &stepper() { return *m_stepper; }
    const StepController &stepper() const { return *m_stepper; }

    // The time the timeline and the memory chart show: the whole run with a margin
    // (timelinegeometry.h fitted) until someone zooms.
    TimeRange visibleRange() const { return m_visible; }

    // The selection: a rank (-1 none) and an event (index into trace()->events).
    int selectedRank() const { return m_selectedRank; }
    std::optional<std::size_t> selectedEvent() const { return m_selectedEvent; }
    // Events shown together and why, in a sentence: the chain that ended a wait, the critical
    // path (core/explain/waitexplain.h). Empty when nothing is highlighted; a new trace clears it.
    const std::vector<std::size_t> &highlight() const { return m_highlight; }
    const QString &highlightSentence() const { return m_highlightSentence; }

    // The ranks every view shows (the rank picker's choice): the timeline's rows, the memory
    // chart's lines and the state view's panels. Ascending, each once; empty: every rank (the
    // state view: the first 16). Kept across runs with the same number of ranks.
    const std::vector<int> &shownRanks() const { return m_shownRanks; }

    // The last run of the code on real processes (rankstep-cli real), null before the first;
    // and whether one is running now. A new simulated trace keeps it: the learner compares them.
    const std::shared_ptr<const RealRunOutcome> &realRun() const { return m_realRun; }
    bool realRunInProgress() const { return m_realRunInProgress; }
    // A PyTorch lesson's last run for real (lessons/100-torch_loop and on): its checks and its
    // loss and gradient-norm curves. Null before one ends, while the next runs, and once another
    // lesson opens.
    const io::TorchLessonReport *lessonReport() const
    {
        return m_lessonReport ? &*m_lessonReport : nullptr;
    }
    void setLessonReport(std::optional<io::TorchLessonReport> report);
    // A run read from a file with what views derive from it and its stepping made already (on
    // the worker that read the file): nothing is made here. As setOpenedTrace otherwise.
    void setOpenedTrace(TracePtr trace, TraceUnits units,
                        std::shared_ptr<const TraceDerived> derived, Stepping stepping);

public Q_SLOTS:
    // A new run: the cursor at its end, the whole run in view, nothing selected.
    void setTrace(rankstep::gui::TracePtr trace,
                  rankstep::gui::TraceUnits units = rankstep::gui::TraceUnits::SimulatedSteps,
                  const QString &output = {});
    void clear() { setTrace(nullptr); }
    // A run read from a file: setTrace, and openedFromFile() true until the next trace.
    void setOpenedTrace(rankstep::gui::TracePtr trace, rankstep::gui::TraceUnits units);
    // Another lesson: the run shown so far belongs to the last one and is cleared first.
    void setLesson(const rankstep::lessons::Lesson *lesson);
    void setVerdict(std::optional<rankstep::lessons::Verdict> verdict);
    void setComparison(rankstep::gui::TracePtr trace,
                       rankstep::gui::TraceUnits units = rankstep::gui::TraceUnits::SimulatedSteps);
    // In ticks; an empty or reversed range is ignored. The timeline keeps it within its zoom
    // limits (timelinegeometry.h clamped) and sets it back clamped.
    void setVisibleRange(double from, double to);
    void showWholeRun();
    void setSelectedRank(int rank);
    void setSelectedEvent(std::optional<std::size_t> event);
    void setHighlight(std::vector<std::size_t> events, const QString &sentence);
    void clearHighlight() { setHighlight({}, {}); }
    // Ranks outside the trace are dropped; an empty list shows every rank again.
    void setShownRanks(std::vector<int> ranks);
    void setRealRun(std::shared_ptr<const rankstep::gui::RealRunOutcome> outcome);
    void setRealRunInProgress(bool running);

Q_SIGNALS:
    void traceChanged(); // with the output; the verdict is none until setVerdict
    void lessonChanged();
    void verdictChanged();
    void comparisonChanged();
    void visibleRangeChanged();
    void selectedRankChanged(int rank);
    void selectedEventChanged();
    void highlightChanged();
    void shownRanksChanged();
    void realRunChanged(); // the outcome, or whether one is in progress
    void lessonReportChanged();
    void openingChanged();

private:
    void install(TracePtr trace, TraceUnits units, const QString &output, bool fromFile,
                 std::shared_ptr<const TraceDerived> derived = {},
                 std::optional<Stepping> stepping = std::nullopt);

    TracePtr m_trace;
    std::shared_ptr<const TraceDerived> m_derived;
    QString m_opening;
    const lessons::Lesson *m_lesson = nullptr;
    bool m_openedFromFile = false;
    QString m_output;
    std::optional<lessons::Verdict> m_verdict;
    TracePtr m_comparison;
    TraceUnits m_comparisonUnits = TraceUnits::SimulatedSteps;
    TraceUnits m_units = TraceUnits::SimulatedSteps;
    core::SimTime m_endTime;
    StepController *m_stepper;
    TimeRange m_visible;
    int m_selectedRank = -1;
    std::optional<std::size_t> m_selectedEvent;
    std::vector<std::size_t> m_highlight;
    QString m_highlightSentence;
    std::vector<int> m_shownRanks;
    int m_rankCount = 0; // of the trace the shown ranks were chosen in
    std::shared_ptr<const RealRunOutcome> m_realRun;
    bool m_realRunInProgress = false;
    std::optional<io::TorchLessonReport> m_lessonReport;
};

} // namespace rankstep::gui
