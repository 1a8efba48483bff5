// SPDX-License-Identifier: MIT
#include "tracederived.h"

#include "legendpainter.h"
#include "rankheat.h"
#include "residentmemory.h"
#include "statesummary.h"
#include "tracescan.h"

#include <QElapsedTimer>
#include <QLoggingCategory>

#include <ctime>
#include <iterator>
#include <memory>
#include <optional>
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

bool TraceDerived::prepare(const std::function<bool()> &keepGoing, std::size_t block)
{
    // Five walks over the events make the parts, where eight did. The parts that keep little
    // state (the scan's counts, the messages' senders) walk beside one that keeps megabytes of it
    // for the ranks (the memory series, the index), a block of events at a time that each reads
    // while it is in the cache; those that keep megabytes walk apart: side by side, at 16,384
    // ranks, their states pushed each other out of the cache, which cost more than reading the
    // events again.
    TraceScan scan;
    std::optional<MessageLinkMaker> links;
    std::optional<MemorySeriesMaker> memory;
    const auto walk = [this, block](auto &&...makers) {
        walkInBlocks(m_trace->events.size(), block,
                     [&](std::size_t from, std::size_t to) { (makers(from, to), ...); });
    };
    const auto first = [&] {
        if (!m_trace)
            return;
        TraceScanner scanner(*m_trace);
        links.emplace(*m_trace);
        memory.emplace(*m_trace);
        walk([&](std::size_t from, std::size_t to) { scanner.walk(from, to); },
             [&](std::size_t from, std::size_t to) { links->firstWalk(from, to); },
             [&](std::size_t from, std::size_t to) { memory->firstWalk(from, to); });
        scan = scanner.finish();
        m_splitBackward = scan.splitBackward;
        m_allToAll = scan.allToAll;
    };
    const auto index = [&] {
        if (!m_trace)
            return;
        RankIndexMaker maker(*m_trace, scan.eventsOfRank);
        walk([&](std::size_t from, std::size_t to) { maker.walk(from, to); },
             [&](std::size_t from, std::size_t to) { links->secondWalk(from, to); });
        m_ranks = maker.finish();
        m_links = links->finish();
    };
    const auto heat = [&] {
        if (!m_trace)
            return;
        m_heat = rankHeat(*m_trace, kHeatBins, scan.end);
    };
    const auto series = [&] {
        if (!m_trace)
            return;
        walk([&](std::size_t from, std::size_t to) { memory->secondWalk(from, to); });
        m_memory = std::make_shared<const RankSeries>(memory->finish());
    };
    const std::pair<const char *, std::function<void()>> parts[] = {
        {"scan, links and memory series' first walk", first},
        {"timeline index and links", index},
        {"heat", heat},
        {"memory series", series},
        {"gaps",
         [this] {
             gaps();
         }},
        {"the stored objects' kinds",
         [this] {
             keysValues();
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
                           << "ms of CPU;" << qUtf8Printable(residentMemory());
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

bool TraceDerived::keysValues() const
{
    return made(m_keysValues, m_trace, [](const core::Trace &t) { return holdsKeysValues(t); });
}

} // namespace rankstep::gui
