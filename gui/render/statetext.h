// SPDX-License-Identifier: MIT
// The words of the state view: panel titles, byte counts and what hovering an object says.
#pragma once

#include "core/objects.h"
#include "core/replay/state.h"
#include "core/storage.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace rankstep::gui {

// "rank 2 · t 4.3 · 1.8 MB": the rank, its clock and the bytes it holds. `shared`: the time the
// run shows while ranks stand at their own clocks (stepping by operation); a clock that differs
// reads "own t 4.3". `timeUnit` follows the clock ("t 527.8 ms" for a real run; none for steps).
// `expert` (from 0) names the expert the rank holds in a run with experts: "rank 1 · expert 1 ·
// t 4.3 · 1.8 MB"; -1 for none.
QString panelTitle(int rank, const replay::RankState &state,
                   std::optional<core::SimTime> shared = std::nullopt, const QString &timeUnit = {},
                   int expert = -1);
// Whether a part of a panel title (between its " · ") is a clock of the rank's own, in the
// language shown.
bool isOwnClock(const QString &titlePart);
// What a panel's background says: "rank 2 holds 1.8 MB of the run's largest 2.5 MB; last ran
// line 14" (the line part left out before the rank ran).
QString panelToolTip(int rank, const replay::RankState &state, std::int64_t maxMemory);
// The short name of a kind on a chip, as the learner's code names its map: "w", "opt", "a",
// "ga", "gw".
QString kindPrefix(core::ObjectKind kind);
// "weights[1]", "activations[0, 2]": how the learner's code names the entry.
QString entryName(core::MapKind map, const core::Key &key);
// A label that fits on a chip: "w0", "opt0", "a1,3", "ga0", "gw1".
QString shortName(core::MapKind map, const core::Key &key);
// shortName, and an expert's object says which expert: "w1 E0", "gw1 E1".
QString chipName(core::MapKind map, const core::Key &key, const core::Object &object);
// "grad_weights[1] · WeightGrad(layer=1, batches={0, 1, 2, 3}, shards={0}, total=1) · 262144"
QString objectToolTip(core::MapKind map, const core::Key &key, const core::Object &object,
                      const core::Sizes &sizes);

} // namespace rankstep::gui
