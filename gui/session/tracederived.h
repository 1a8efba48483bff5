// SPDX-License-Identifier: MIT
#pragma once

#include "core/explain/waitexplain.h"
#include "memoryseries.h"
#include "rankheat.h"
#include "timelinegeometry.h"
#include "tracefwd.h"
#include "tracescan.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace rankstep::gui {

// What views derive from a whole trace, made once for it and shared through the session: the
// timeline's rows by rank, message links and idle gaps, the rank overview's heat, every rank's
// memory line, which kinds the legend names and whether the state view's key names keys and
// values. A file opened on the open's worker has them all
// made there (prepare); a lesson's run makes each on first use, on the GUI thread. Once handed to
// the session it is only read on the GUI thread.
class TraceDerived
{
public:
    // Bins of the rank overview's heat map over the run's time.
    static constexpr int kHeatBins = 240;
    using Links = std::vector<std::pair<std::size_t, std::size_t>>;
    using MemoryLines = std::shared_ptr<const RankSeries>;

    explicit TraceDerived(TracePtr trace);

    const TracePtr &trace() const { return m_trace; }

    // Makes every part a view asks for when a trace arrives (the Why tab makes a rank's waits with
    // their chains itself, for the rank it lists: every rank's took more than a gigabyte).
    // `keepGoing` is asked before each of its kParts parts: false stops, and prepare returns false
    // (the parts made so far stay). The events are walked `block` at a time (kWalkBlock; a test
    // makes it small).
    bool prepare(const std::function<bool()> &keepGoing = {}, std::size_t block = kWalkBlock);
    static constexpr int kParts = 6;

    const std::vector<RankEvents> &ranks() const;   // indexByRank
    const Links &links() const;                     // messageLinks
    const std::vector<explain::Wait> &gaps() const; // explain::waits without chains
    const RankHeat &heat() const;                   // rankHeat in kHeatBins
    const MemoryLines &memoryLines() const;         // memorySeries, index = rank
    bool splitBackward() const;                     // hasSplitBackward
    bool allToAll() const;                          // hasAllToAll
    bool keysValues() const;                        // holdsKeysValues

private:
    TracePtr m_trace;
    mutable std::optional<std::vector<RankEvents>> m_ranks;
    mutable std::optional<Links> m_links;
    mutable std::optional<std::vector<explain::Wait>> m_gaps;
    mutable std::optional<RankHeat> m_heat;
    mutable std::optional<MemoryLines> m_memory;
    mutable std::optional<bool> m_splitBackward;
    mutable std::optional<bool> m_allToAll;
    mutable std::optional<bool> m_keysValues;
};

} // namespace rankstep::gui
