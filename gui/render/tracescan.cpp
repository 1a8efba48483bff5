// SPDX-License-Identifier: MIT
#include "tracescan.h"

#include <algorithm>

namespace rankstep::gui {

TraceScan scanTrace(const core::Trace &trace)
{
    TraceScan scan;
    scan.eventsOfRank.assign(std::size_t(std::max(0, trace.config.ranks)), 0);
    for (const core::Event &event : trace.events) {
        if (event.rank >= 0) {
            const auto rank = std::size_t(event.rank);
            if (rank >= scan.eventsOfRank.size())
                scan.eventsOfRank.resize(rank + 1, 0);
            ++scan.eventsOfRank[rank];
        }
        scan.end = std::max(scan.end, event.end());
        scan.splitBackward = scan.splitBackward || event.op == core::OpKind::BackwardInput ||
                             event.op == core::OpKind::BackwardWeight;
        scan.allToAll = scan.allToAll || event.op == core::OpKind::AllToAll;
    }
    scan.allToAll = scan.allToAll || std::any_of(trace.overlapped.begin(), trace.overlapped.end(),
                                                 [](const core::Event &e) {
                                                     return e.op == core::OpKind::AllToAll;
                                                 });
    return scan;
}

} // namespace rankstep::gui
