// SPDX-License-Identifier: MIT
#include "stepcontroller.h"

#include <QCoroTask>
#include <QCoroTimer>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QMetaMethod>
#include <QPointer>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <exception>

Q_LOGGING_CATEGORY(lcStep, "rankstep.step")
// The stepping's two parts' times in an open (QT_LOGGING_RULES=rankstep.open.debug=true).
Q_LOGGING_CATEGORY(lcStepOpen, "rankstep.open")

namespace rankstep::gui {

StepController::StepController(QObject *parent) : QObject(parent) {}

StepController::~StepController()
{
    ++m_playGeneration;
    m_cursor.reset(); // the cursor, the front and the replayer point into the stop points
    m_front.reset();
    m_replayer.reset();
}

namespace {
// A lesson's run (a few thousand changes) is built on the calling thread: a second thread would
// cost more to start than it saves.
constexpr std::size_t kChangesForTwoThreads = std::size_t(1) << 18;

double threadCpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}
} // namespace

Stepping Stepping::of(const core::Trace &trace)
{
    Stepping stepping;
    QElapsedTimer clock;
    clock.start();
    double cpu = threadCpuMs();
    stepping.stops = std::make_unique<replay::StopPoints>(trace);
    qCDebug(lcStepOpen) << "stop points made in" << clock.restart() << "ms," << threadCpuMs() - cpu
                        << "ms of CPU";
    cpu = threadCpuMs();
    // A large trace's replayer is built on both cores: an open makes it after the stop points,
    // when the views' half of the open (traceloader.cpp) is done or nearly.
    const unsigned threads = trace.changes.size() >= kChangesForTwoThreads ? 2 : 1;
    stepping.replayer = std::make_unique<replay::Replayer>(
        *stepping.stops, replay::Replayer::kMinCheckpointGap, threads);
    // (The CPU of this thread only: a large trace's replayer is built on two.)
    qCDebug(lcStepOpen) << "replayer made in" << clock.elapsed() << "ms," << threadCpuMs() - cpu
                        << "ms of this thread's CPU";
    return stepping;
}

void StepController::setTrace(TracePtr trace, core::SimTime end)
{
    Stepping stepping;
    if (trace)
        stepping = Stepping::of(*trace);
    setTrace(std::move(trace), end, std::move(stepping));
}

void StepController::setTrace(TracePtr trace, core::SimTime end, Stepping stepping)
{
    pause();
    m_cursor.reset();
    m_front.reset();
    m_replayer.reset();
    m_stops.reset();
    m_trace = std::move(trace);
    m_state = {};
    m_stateValid = false;
    m_runEnd = m_trace ? end : core::SimTime();
    if (m_trace) {
        m_stops = std::move(stepping.stops);
        m_replayer = std::move(stepping.replayer);
        if (!m_modeChosen)
            changeStepMode(m_trace->marks.empty() ? StepMode::Time : StepMode::Snapshot);
        m_front = std::make_unique<replay::CutFront>(*m_stops);
        m_front->moveTo(endOf(replay::Cursor(*m_stops)));
        m_cursor = m_front->cursor();
        m_stale.assign(std::size_t(std::max(m_trace->config.ranks, 0)), 0);
        m_staleRanks.clear();
        m_allStale = true;
    }
    Q_EMIT traceChanged();
    Q_EMIT cursorChanged();
    if (m_cursor && isSignalConnected(QMetaMethod::fromSignal(&StepController::stateChanged)))
        Q_EMIT stateChanged(state());
}

const replay::RunState &StepController::state()
{
    if (m_cursor && !m_stateValid) {
        m_replayer->followState(*m_cursor, m_state, *m_front, m_allStale ? nullptr : &m_staleRanks);
        m_stateValid = true;
        for (const int rank : m_staleRanks)
            m_stale[std::size_t(rank)] = 0;
        m_staleRanks.clear();
        m_allStale = false;
    }
    return m_state;
}

void StepController::noteMovedRanks()
{
    if (m_front->allMoved())
        m_allStale = true;
    if (m_allStale)
        return;
    for (const int rank : m_front->movedRanks())
        if (!m_stale[std::size_t(rank)]) {
            m_stale[std::size_t(rank)] = 1;
            m_staleRanks.push_back(rank);
        }
}

core::SimTime StepController::cursorTime() const
{
    if (!m_cursor)
        return {};
    if (m_cursor->atEnd())
        return m_runEnd;
    // A scheduler turn: the clock of the rank that moved (the others stand at their own).
    return m_cursor->time().value_or(core::SimTime());
}

std::optional<int> StepController::movedRank() const
{
    return m_cursor ? m_cursor->movedRank() : std::nullopt;
}

std::size_t StepController::stepCount() const
{
    if (!m_cursor)
        return 0;
    switch (m_mode) {
        case StepMode::Operation:
            return m_stops->operations().size();
        case StepMode::Snapshot:
            return m_stops->markStops().size();
        case StepMode::Time:
            return m_stops->boundaries().size(); // the first time step stands at t = 0
        case StepMode::Slice:
            return m_stops->sliceStops().size();
    }
    return 0;
}

std::size_t StepController::stepIndex() const
{
    if (!m_cursor || m_cursor->atHome())
        return 0;
    switch (m_mode) {
        case StepMode::Operation:
            return m_cursor->operations();
        case StepMode::Snapshot:
            return snapshotsTaken();
        case StepMode::Time: {
            // The boundaries at or before the time (the count the time step makes).
            const auto &boundaries = m_stops->boundaries();
            return std::size_t(
                std::upper_bound(boundaries.begin(), boundaries.end(), cursorTime()) -
                boundaries.begin());
        }
        case StepMode::Slice: {
            const auto &slices = m_stops->sliceStops();
            return std::size_t(std::upper_bound(slices.begin(), slices.end(), m_cursor->stop()) -
                               slices.begin());
        }
    }
    return 0;
}

void StepController::toStepIndex(std::size_t index)
{
    if (!m_cursor)
        return;
    if (index == 0) {
        home();
        return;
    }
    switch (m_mode) {
        case StepMode::Operation:
            moveTo(replay::Cursor::atOperation(*m_stops, index));
            return;
        case StepMode::Snapshot:
            moveTo(m_cursor->toMark(index - 1));
            return;
        case StepMode::Time: {
            const auto &boundaries = m_stops->boundaries();
            if (index <= boundaries.size())
                moveTo(replay::Cursor::atCut(*m_stops, boundaries[index - 1]));
            else
                end();
            return;
        }
        case StepMode::Slice: {
            const auto &slices = m_stops->sliceStops();
            moveTo(replay::Cursor(*m_stops,
                                  index <= slices.size() ? slices[index - 1] : m_stops->last()));
            return;
        }
    }
}

std::optional<std::size_t> StepController::snapshot() const
{
    return m_cursor ? m_cursor->mark() : std::nullopt;
}

std::size_t StepController::snapshotsTaken() const
{
    if (!m_cursor || m_cursor->atHome())
        return 0;
    if (const auto mark = m_cursor->mark())
        return *mark + 1;
    // Elsewhere: the snapshots taken at or before this stop.
    const auto &marks = m_stops->markStops();
    return std::size_t(std::upper_bound(marks.begin(), marks.end(), m_cursor->stop()) -
                       marks.begin());
}

std::size_t StepController::appliedEvents() const
{
    return m_cursor ? m_cursor->operations() : 0;
}

std::vector<std::size_t> StepController::appliedEventsByRank() const
{
    std::vector<std::size_t> applied;
    if (!m_cursor)
        return applied;
    for (int rank = 0; rank < std::max(m_trace->config.ranks, 0); ++rank)
        applied.push_back(m_front->rankCut(rank).events);
    return applied;
}

replay::RankCut StepController::rankCut(int rank) const
{
    return m_front->rankCut(rank);
}

std::optional<std::size_t> StepController::runningEvent(int rank) const
{
    return m_cursor ? m_front->runningEvent(rank) : std::nullopt;
}

std::size_t StepController::doneEvents() const
{
    return m_cursor ? m_front->done() : 0;
}

std::size_t StepController::runningCount() const
{
    return m_cursor ? m_front->running() : 0;
}

std::vector<std::size_t> StepController::runningEvents() const
{
    std::vector<std::size_t> running;
    if (!m_cursor)
        return running;
    for (int rank = 0; rank < std::max(m_trace->config.ranks, 0); ++rank)
        if (const auto event = m_front->runningEvent(rank))
            running.push_back(*event);
    return running;
}

bool StepController::atHome() const
{
    return !m_cursor || m_cursor->atHome();
}

bool StepController::atEnd() const
{
    return !m_cursor || m_cursor->atEnd();
}

void StepController::moveTo(const replay::Cursor &cursor)
{
    if (m_cursor && *m_cursor == cursor)
        return;
    m_front->moveTo(cursor);
    m_cursor = m_front->cursor(); // with its prefix, which the front keeps
    noteMovedRanks();
    m_stateValid = false;
    Q_EMIT cursorChanged();
    if (isSignalConnected(QMetaMethod::fromSignal(&StepController::stateChanged)))
        Q_EMIT stateChanged(state());
}

replay::Cursor StepController::stepped(const replay::Cursor &cursor, bool forward) const
{
    switch (m_mode) {
        case StepMode::Slice:
            return forward ? cursor.nextSlice() : cursor.previousSlice();
        case StepMode::Time:
            return forward ? cursor.nextTime() : cursor.previousTime();
        case StepMode::Snapshot:
            return forward ? cursor.nextSnapshot() : cursor.previousSnapshot();
        case StepMode::Operation:
            break;
    }
    return forward ? cursor.nextOperation() : cursor.previousOperation();
}

void StepController::apply(Move move)
{
    if (m_cursor)
        moveTo(((*m_cursor).*move)());
}

void StepController::nextOperation()
{
    apply(&replay::Cursor::nextOperation);
}

void StepController::previousOperation()
{
    apply(&replay::Cursor::previousOperation);
}

void StepController::nextSlice()
{
    apply(&replay::Cursor::nextSlice);
}

void StepController::previousSlice()
{
    apply(&replay::Cursor::previousSlice);
}

void StepController::nextTime()
{
    apply(&replay::Cursor::nextTime);
}

void StepController::previousTime()
{
    apply(&replay::Cursor::previousTime);
}

void StepController::nextSnapshot()
{
    apply(&replay::Cursor::nextSnapshot);
}

void StepController::previousSnapshot()
{
    apply(&replay::Cursor::previousSnapshot);
}

void StepController::toSnapshot(int mark)
{
    if (m_cursor && mark >= 0)
        moveTo(m_cursor->toMark(std::size_t(mark)));
}

void StepController::home()
{
    apply(&replay::Cursor::home);
}

void StepController::end()
{
    if (m_cursor)
        moveTo(endOf(*m_cursor));
}

replay::Cursor StepController::endOf(const replay::Cursor &cursor) const
{
    // Stepping by time, the end too has every rank at one time: the end of the run.
    const auto &boundaries = cursor.stops().boundaries();
    if (m_mode == StepMode::Time && !boundaries.empty())
        return replay::Cursor::atCut(cursor.stops(), boundaries.back());
    return cursor.end();
}

void StepController::next()
{
    if (!m_cursor)
        return;
    const replay::Cursor target = stepped(*m_cursor, true);
    if (m_forwardGate && !(target == *m_cursor) && !m_forwardGate(target))
        return;
    moveTo(target);
}

void StepController::previous()
{
    if (m_cursor)
        moveTo(stepped(*m_cursor, false));
}

void StepController::toEvent(int event)
{
    if (m_cursor && event >= 0)
        moveTo(m_cursor->toEvent(std::size_t(event)));
}

void StepController::toTime(core::SimTime time)
{
    if (m_cursor) // every rank at that time, whatever the mode steps by
        moveTo(m_cursor->toCut(time));
}

void StepController::toStop(std::size_t stop)
{
    if (m_cursor)
        moveTo(replay::Cursor(*m_stops, stop));
}

void StepController::toOperation(std::size_t count)
{
    if (m_cursor)
        moveTo(replay::Cursor::atOperation(*m_stops, count));
}

void StepController::toCut(core::SimTime time)
{
    if (m_cursor)
        moveTo(m_cursor->toCut(time));
}

void StepController::setFraction(double fraction)
{
    if (!m_cursor)
        return;
    const double clamped = std::isnan(fraction) ? 0.0 : std::clamp(fraction, 0.0, 1.0);
    toStepIndex(std::size_t(std::llround(clamped * double(stepCount()))));
}

void StepController::setSpeed(double stepsPerSecond)
{
    const double speed = std::clamp(stepsPerSecond, 0.1, 1000.0);
    if (speed == m_speed)
        return;
    m_speed = speed;
    Q_EMIT speedChanged(speed);
}

void StepController::setStepMode(StepMode mode)
{
    m_modeChosen = true;
    changeStepMode(mode);
}

void StepController::changeStepMode(StepMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    Q_EMIT stepModeChanged(mode);
}

void StepController::setPlaying(bool playing)
{
    if (playing == m_playing)
        return;
    m_playing = playing;
    Q_EMIT playingChanged(playing);
}

void StepController::play()
{
    if (!m_cursor || m_playing)
        return;
    if (m_cursor->atEnd())
        moveTo(m_cursor->home()); // play again from the start
    setPlaying(true);
    playLoop(++m_playGeneration); // reports its own errors; never awaited
}

void StepController::pause()
{
    ++m_playGeneration;
    setPlaying(false);
}

void StepController::togglePlay()
{
    if (m_playing)
        pause();
    else
        play();
}

QCoro::Task<void> StepController::playLoop(int generation)
{
    QPointer<StepController> self(this);
    try {
        while (self && generation == m_playGeneration && m_cursor && !m_cursor->atEnd()) {
            const auto interval = std::chrono::milliseconds(qint64(1000.0 / m_speed));
            // g++ 12 destroys temporaries inside a co_await expression twice: await named objects.
            auto sleeping = QCoro::sleepFor(interval);
            co_await sleeping;
            if (!self || generation != m_playGeneration || !m_cursor)
                co_return;
            next();
        }
        if (self && generation == m_playGeneration)
            setPlaying(false);
    } catch (const std::exception &e) {
        qCWarning(lcStep) << "playing stopped:" << e.what();
        if (self)
            pause();
    }
}

} // namespace rankstep::gui
