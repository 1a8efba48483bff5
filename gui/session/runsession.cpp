// SPDX-License-Identifier: MIT
#include "runsession.h"

#include "timelinegeometry.h"

#include <algorithm>
#include <utility>

namespace rankstep::gui {

RunSession::RunSession(QObject *parent) : QObject(parent), m_stepper(new StepController(this)) {}

void RunSession::setTrace(TracePtr trace, TraceUnits units)
{
    m_trace = std::move(trace);
    m_units = units;
    m_endTime = m_trace && m_trace->figures.hasEvents ? m_trace->figures.endTime : core::SimTime();
    const TimeAxis whole = fitted(TimeAxis{}, m_endTime);
    m_visible = {whole.from, whole.to};
    m_selectedEvent.reset();
    Q_EMIT traceChanged();
    // Then the cursor, at the end of the run, for views that now hold the new trace.
    m_stepper->setTrace(m_trace, m_endTime);
    Q_EMIT visibleRangeChanged();
    Q_EMIT selectedEventChanged();
}

void RunSession::setComparison(TracePtr trace)
{
    m_comparison = std::move(trace);
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
