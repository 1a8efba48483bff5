// SPDX-License-Identifier: MIT
// What the wait-for picture of a hang says: its title, each rank's caption and tooltip, and who
// waits on whom. Pure functions of the trace's diagnosis.
#pragma once

#include "core/trace.h"

#include <QString>

#include <vector>

namespace rankstep::gui {

// One arrow: rank `from` waits on rank `to`. `anySource`: a receive from any rank, where each
// other rank could end the wait (drawn thin and dashed).
struct WaitArrow {
    int from = 0;
    int to = 0;
    bool anySource = false;
    bool operator==(const WaitArrow &) const = default;
};

// "Deadlock: no rank can go on" or "Collective mismatch".
QString waitForTitle(const core::Diagnosis &diagnosis);
// The line under a node: "waits in allreduce(layer 0) · line 28", "finished", "finished without
// calling allreduce(layer 0)", "has not reached it yet · line 12".
QString waitCaption(const core::RankWait &wait, const core::Diagnosis &diagnosis);
// Everything about one rank's wait, for its tooltip.
QString waitToolTip(const core::RankWait &wait, const core::Diagnosis &diagnosis);
// Every arrow, in the diagnosis's rank order, waited-on ranks in order; none to itself.
std::vector<WaitArrow> waitArrows(const core::Diagnosis &diagnosis);
// The collective some unfinished rank waits in on this finished rank ("" when none).
QString missedCall(const core::RankWait &finished, const core::Diagnosis &diagnosis);

} // namespace rankstep::gui
