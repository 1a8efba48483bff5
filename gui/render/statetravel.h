// SPDX-License-Identifier: MIT
// Objects that a step brought by communication fly from the sending ranks' panels to their slot
// in the receiving rank's panel: gray while in the air, their own color as they land.
#pragma once

#include "core/replay/state.h"
#include "core/trace.h"
#include "statechanges.h"

#include <QColor>
#include <QRectF>

#include <cstddef>
#include <functional>
#include <vector>

namespace rankstep::gui {

class Palette;

// One object on its way from rank `from` to its slot (`end`) in rank `to`'s panel; `start` is the
// same slot in the sender's panel (all panels share one layout).
struct Travel {
    int from = 0;
    int to = 0;
    core::MapKind map = core::MapKind::Weights;
    std::size_t index = 0; // into the receiver's map
    QRectF start, end;
};

// Where a travelling object is at t in [0, 1]: `start` at 0, `end` at 1, halfway at 0.5, eased
// in and out between (t outside [0, 1] is clamped).
QRectF travelRect(const QRectF &start, const QRectF &end, double t);
// Its color at t: the communication gray until halfway, then turning into `own` by the landing.
QColor travelColor(const QColor &own, double t, const Palette &palette);

// The ranks whose data an object stored by `change` carries: the sender of the receive the rank
// did last, or the other members of its last collective; empty when its last operation was no
// communication (looks back and around a bounded number of events).
std::vector<int> sendersOf(const core::Trace &trace, const core::StorageChange &change);

// At most this many arrived objects fly; a cursor jump that brought more is no step to follow.
inline constexpr std::size_t kMaxTravels = 256;
// Every arrived entry of the `shown` ranks in `state`, once from each shown sender; `panelOf`
// gives a shown rank's panel in pixels. Empty when more than kMaxTravels objects arrived.
std::vector<Travel> findTravels(const core::Trace &trace, const replay::RunState &state,
                                const StateChanges &changes, const std::vector<int> &shown,
                                const std::function<QRectF(int)> &panelOf);

} // namespace rankstep::gui
