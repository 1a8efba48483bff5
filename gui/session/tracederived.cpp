// SPDX-License-Identifier: MIT
#include "tracederived.h"

#include "legendpainter.h"
#include "tracescan.h"

#include <QElapsedTimer>
#include <QLoggingCategory>

#include <ctime>
#include <iterator>
#include <utility>

// The same category as the open's (gui/session/traceloader.cpp): each part's time under
// QT_LOGGING_RULES=rankstep.open.debug=true.
Q_LOGGING_CATEGORY(lcDerived, "rankstep.open")

namespace rankstep::gui {
namespace {

// The part, made now when it is missing: a null trace derives nothing.
template <typename T, typename Make>
const T &made(std::optional<T> &part, const TracePtr &trace, Make make)
{
    if (!part)
        part = trace ? make(*trace) : T{};
    return *part;
}

// The calling thread's CPU time so far (user and system), in milliseconds.
double threadCpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

} // namespace

TraceDerived::TraceDerived(TracePtr trace) : m_trace(std::move(trace)) {}

bool TraceDerived::prepare(const std::function<bool()> &keepGoing)
{
    // One pass over the events first tells the index, the heat map and the legend what each
    // would read the events for on its own.
    TraceScan scan;
    const auto scanned = [this, &scan] {
        if (!m_trace)
            return;
        scan = scanTrace(*m_trace);
        m_splitBackward = scan.splitBackward;
        m_allToAll = scan.allToAll;
    };
    const std::pair<const char *, std::function<void()>> parts[] = {
        {"scan", scanned},
        {"timeline index",
         [this, &scan] {
             if (m_trace)
                 m_ranks = indexByRank(*m_trace, scan.eventsOfRank);
             ranks();
         }},
        {"links",
         [this] {
             links();
         }},
        {"gaps",
         [this] {
             gaps();
         }},
        {"heat",
         [this, &scan] {
             if (m_trace)
                 m_heat = rankHeat(*m_trace, kHeatBins, scan.end);
             heat();
         }},
        {"memory series",
         [this] {
             memoryLines();
         }},
    };
    static_assert(std::size(parts) == kParts);
    QElapsedTimer clock;
    clock.start();
    for (const auto &[name, part] : parts) {
        if (keepGoing && !keepGoing())
            return false;
        const double cpu = threadCpuMs();
        part();
        // Its CPU time beside the wall time: on a loaded machine the wall time is mostly waiting.
        qCDebug(lcDerived) << name << "made in" << clock.restart() << "ms," << threadCpuMs() - cpu
                           << "ms of CPU";
    }
    splitBackward();
    allToAll();
    if (m_trace)
        qCDebug(lcDerived) << "the memory series holds" << (*m_memory)->lineCount() << "lines of"
                           << (*m_memory)->size() << "ranks," << (*m_memory)->pointCount()
                           << "points";
    return true;
}

const std::vector<RankEvents> &TraceDerived::ranks() const
{
    return made(m_ranks, m_trace, [](const core::Trace &t) { return indexByRank(t); });
}

const TraceDerived::Links &TraceDerived::links() const
{
    return made(m_links, m_trace, [](const core::Trace &t) { return messageLinks(t); });
}

const std::vector<explain::Wait> &TraceDerived::gaps() const
{
    return made(m_gaps, m_trace, [](const core::Trace &t) { return explain::waits(t, false); });
}

const RankHeat &TraceDerived::heat() const
{
    return made(m_heat, m_trace, [](const core::Trace &t) { return rankHeat(t, kHeatBins); });
}

const TraceDerived::MemoryLines &TraceDerived::memoryLines() const
{
    return made(m_memory, m_trace, [](const core::Trace &t) {
        return MemoryLines(std::make_shared<const RankSeries>(memorySeries(t)));
    });
}

bool TraceDerived::splitBackward() const
{
    return made(m_splitBackward, m_trace, [](const core::Trace &t) { return hasSplitBackward(t); });
}

bool TraceDerived::allToAll() const
{
    return made(m_allToAll, m_trace, [](const core::Trace &t) { return hasAllToAll(t); });
}

} // namespace rankstep::gui
