// SPDX-License-Identifier: MIT
#include "tracederived.h"

#include "legendpainter.h"

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

} // namespace

TraceDerived::TraceDerived(TracePtr trace) : m_trace(std::move(trace)) {}

bool TraceDerived::prepare(const std::function<bool()> &keepGoing)
{
    const std::function<void()> parts[] = {
        [this] { ranks(); },    [this] { links(); },       [this] { gaps(); },
        [this] { heat(); },     [this] { memoryLines(); }, [this] { splitBackward(); },
        [this] { allToAll(); },
    };
    for (const auto &part : parts) {
        if (keepGoing && !keepGoing())
            return false;
        part();
    }
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

const std::vector<explain::Wait> &TraceDerived::waits() const
{
    return made(m_waits, m_trace, [](const core::Trace &t) { return explain::waits(t); });
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
