// SPDX-License-Identifier: MIT
// What the wait-for picture of a hang says: its title (what happened), the line under it, each
// rank's caption and tooltip, and who waits on whom. Pure functions of explain::Hang, which says
// where each rank stands (core/explain/hangexplain.h).
#pragma once

#include "core/explain/hangexplain.h"

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

// What happened: "An error stopped rank 1 at line 23", "Rank 2 finished without calling
// allreduce(layer 0)", "Deadlock: ranks 0 and 1 wait on each other", "Collective mismatch: ...".
QString hangTitle(const explain::Hang &hang);
// Who waits for the rank the title names, and who never started: "Rank 0 waits for it in
// allreduce(layer 0). Ranks 2 and 3 never started: the run ended first." ("" when nothing).
QString hangDetail(const explain::Hang &hang);
// The line under a node in its three parts: what ("waits in allreduce(layer 0)", "stopped by an
// error", "finished without calling allreduce(layer 0)", "never started: the run ended first"),
// on whom ("for rank 1", or "") and where ("line 33", or "").
struct CaptionParts {
    QString what, on, where;
};
CaptionParts standingCaptionParts(const explain::RankStanding &rank, const explain::Hang &hang);
// The parts as one line: "waits in allreduce(layer 0) for rank 1 · line 33".
QString standingCaption(const explain::RankStanding &rank, const explain::Hang &hang);
// The legend's word for a standing: "stopped by an error", "waiting", "finished", ...
QString standingName(explain::Standing standing, const explain::Hang &hang);
// A word for it where a node has room for little more: "error", "waits", "finished", ...
QString standingWord(explain::Standing standing, const explain::Hang &hang);
// Everything about one rank, for its tooltip.
QString standingToolTip(const explain::RankStanding &rank, const explain::Hang &hang);
// Every arrow, from each waiting rank to each rank it really waits on, in the hang's rank order.
std::vector<WaitArrow> waitArrows(const explain::Hang &hang);

} // namespace rankstep::gui
