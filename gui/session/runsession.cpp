// SPDX-License-Identifier: MIT
#include "runsession.h"

#include "timelinegeometry.h"

#include <algorithm>
#include <utility>

namespace rankstep::gui {

RunSession::RunSession(QObject *parent)
    : QObject(parent)
    , m_derived(std::make_shared<const TraceDerived>(nullptr))
    , m_stepper(new StepController(this))
{}

void RunSession::setTrace(TracePtr trace, TraceUnits units, const QString &output)
{
    install(std::move(trace), units, output, false);
}

void RunSession::setOpenedTrace(TracePtr trace, TraceUnits units)
{
    install(std::move(trace), units, {}, true);
}

void RunSession::setOpenedTrace(TracePtr trace, TraceUnits units,
                                std::shared_ptr<const TraceDerived> derived, Stepping stepping)
{
    install(std::move(trace), units, {}, true, std::move(derived), std::move(stepping));
}

void RunSession::setOpening(const QString &name)
{
    if (name == m_opening)
        return;
    m_opening = name;
    Q_EMIT openingChanged();
}

void RunSession::install(TracePtr trace, TraceUnits units, const QString &output, bool fromFile,
                         std::shared_ptr<const TraceDerived> derived,
                         std::optional<Stepping> stepping)
{
    m_trace = std::move(trace);
    // A lesson's run derives each part when a view first asks for it.
    m_derived = derived && derived->trace() == m_trace
                    ? std::move(derived)
                    : std::make_shared<const TraceDerived>(m_trace);
    m_openedFromFile = fromFile && m_trace;
    m_units = units;
    m_output = output;
    const bool judged = m_verdict.has_value();
    m_verdict.reset();
    m_endTime = m_trace && m_trace->figures.hasEvents ? m_trace->figures.endTime : core::SimTime();
    const TimeAxis whole = fitted(TimeAxis{}, m_endTime);
    m_visible = {whole.from, whole.to};
    m_selectedEvent.reset();
    const bool highlighted = !m_highlight.empty();
    m_highlight.clear();
    m_highlightSentence.clear();
    const int ranks = m_trace ? m_trace->config.ranks : m_rankCount;
    const bool newShape = ranks != m_rankCount && !m_shownRanks.empty();
    m_rankCount = ranks;
    if (newShape) // another lesson: its ranks are others
        m_shownRanks.clear();
    Q_EMIT traceChanged();
    if (newShape)
        Q_EMIT shownRanksChanged();
    // Then the cursor, at the end of the run, for views that now hold the new trace.
    if (stepping && m_trace)
        m_stepper->setTrace(m_trace, m_endTime, std::move(*stepping));
    else
        m_stepper->setTrace(m_trace, m_endTime);
    Q_EMIT visibleRangeChanged();
    Q_EMIT selectedEventChanged();
    if (highlighted)
        Q_EMIT highlightChanged();
    if (judged)
        Q_EMIT verdictChanged();
}

void RunSession::setLesson(const lessons::Lesson *lesson)
{
    clear();
    setLessonReport(std::nullopt); // the last lesson's curves
    m_lesson = lesson;
    Q_EMIT lessonChanged();
}

std::optional<std::int64_t> RunSession::memoryTarget() const
{
    if (!m_lesson || !m_lesson->targets || m_openedFromFile || m_units == TraceUnits::Seconds)
        return std::nullopt;
    return m_lesson->targets->memory;
}

void RunSession::setVerdict(std::optional<lessons::Verdict> verdict)
{
    m_verdict = std::move(verdict);
    Q_EMIT verdictChanged();
}

void RunSession::setHighlight(std::vector<std::size_t> events, const QString &sentence)
{
    if (events == m_highlight && sentence == m_highlightSentence)
        return;
    m_highlight = std::move(events);
    m_highlightSentence = sentence;
    Q_EMIT highlightChanged();
}

void RunSession::setComparison(TracePtr trace, TraceUnits units)
{
    m_comparison = std::move(trace);
    m_comparisonUnits = units;
    Q_EMIT comparisonChanged();
}

void RunSession::setVisibleRange(double from, double to)
{
    const TimeRange range{from, to};
    if (!(to > from) || range == m_visible)
        return;
    m_visible = range;
    Q_EMIT visibleRangeChanged();
}

void RunSession::showWholeRun()
{
    const TimeAxis whole = fitted(TimeAxis{}, m_endTime);
    setVisibleRange(whole.from, whole.to);
}

void RunSession::setSelectedRank(int rank)
{
    if (rank == m_selectedRank)
        return;
    m_selectedRank = rank;
    Q_EMIT selectedRankChanged(rank);
}

void RunSession::setSelectedEvent(std::optional<std::size_t> event)
{
    if (event == m_selectedEvent)
        return;
    m_selectedEvent = event;
    Q_EMIT selectedEventChanged();
}

} // namespace rankstep::gui

namespace rankstep::gui {

void RunSession::setShownRanks(std::vector<int> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    if (m_rankCount > 0)
        ranks.erase(std::remove_if(ranks.begin(), ranks.end(),
                                   [this](int rank) { return rank < 0 || rank >= m_rankCount; }),
                    ranks.end());
    if (ranks == m_shownRanks)
        return;
    m_shownRanks = std::move(ranks);
    Q_EMIT shownRanksChanged();
}

void RunSession::setRealRun(std::shared_ptr<const RealRunOutcome> outcome)
{
    m_realRun = std::move(outcome);
    Q_EMIT realRunChanged();
}

void RunSession::setLessonReport(std::optional<io::TorchLessonReport> report)
{
    if (!report && !m_lessonReport)
        return;
    m_lessonReport = std::move(report);
    Q_EMIT lessonReportChanged();
}

void RunSession::setRealRunInProgress(bool running)
{
    if (running == m_realRunInProgress)
        return;
    m_realRunInProgress = running;
    Q_EMIT realRunChanged();
}

} // namespace rankstep::gui
