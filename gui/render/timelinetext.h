// SPDX-License-Identifier: MIT
#pragma once

#include "core/indexset.h"
#include "core/trace.h"

#include <QString>

namespace rankstep::gui {

// The words of the timeline, apart from its painting so that they can be tested as text.

// The label at the left of a rank's row: "rank 0".
QString rankLabel(int rank);
// The batch numbers written on a block, as short as possible: "2", "0,1", "0-3", "0-3,6".
QString batchLabel(const core::IndexSet &batches);
// What a block says: the batches of compute ("0-3"); for communication, never a batch number,
// the operation and layer ("AR L1", "AG L0", "SR L2") or the peer ("→ 2", "← 1").
QString blockLabel(const core::Event &event);
// One line naming an event: "allreduce, layer 0" or "pass_to rank 2, layer 3".
QString eventTitle(const core::Event &event);
// What hovering a block shows: rank, operation, layer, batches, times, memory and source line.
QString eventToolTip(const core::Event &event, const QString &timeUnit = QStringLiteral("steps"));
// What the axis's Timesteps mark says: the figure, what it measures and where the run ends.
QString timestepsToolTip(const core::Trace &trace);
// A time whose ticks are microseconds (a real-scale cost model's, docs/cost-models.md) in seconds
// to the millisecond, as the run's summary says it: "20.563 s".
QString secondsText(core::SimTime time);
// A time as a clock says it: "4" in the puzzle's steps (`unit` empty), "10415.254 ms" with a unit.
QString clockText(core::SimTime time, const QString &unit);
// Memory in the trace's units with digit grouping: "524,288".
QString memoryText(std::int64_t memory);

} // namespace rankstep::gui
