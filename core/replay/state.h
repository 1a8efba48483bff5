// SPDX-License-Identifier: MIT
// Every rank's state at a cursor, rebuilt from the trace's storage changes, never by re-running.
#pragma once

#include "cursor.h"

#include "core/storage.h"
#include "core/trace.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rankstep::replay {

// One entry of a storage map: the change that last set it and the object it set (pointers into
// the trace).
struct MapEntry {
    const core::StorageChange *change = nullptr;
    const core::Object *held = nullptr; // the change's object (core::ChangeLog::object)
    const core::Key &key() const { return change->key; }
    const core::Object &object() const { return *held; }
    bool operator==(const MapEntry &) const = default;
};

struct RankState {
    // The five maps in MapKind order, each in insertion order as a Python dict iterates.
    std::array<std::vector<MapEntry>, core::kMapCount> maps;
    std::int64_t memory = 0; // bytes, after the rank's last applied change
    // The end of the rank's last applied event, or its start while that event is the cursor's
    // last applied item (`running`); 0 before its first event.
    core::SimTime clock;
    bool running = false;
    std::optional<std::size_t> event; // the rank's last applied event
    int line = 0; // of the rank's last applied event or change (at a draw() mark of this rank,
                  // the draw's); 0 before both

    const std::vector<MapEntry> &map(core::MapKind kind) const { return maps[std::size_t(kind)]; }
    bool operator==(const RankState &) const = default;
};

// A value that points into the trace: valid while the trace lives.
struct RunState {
    Position position;
    // The time every rank stands at (a time cut), else the time every event starting at or
    // before has been applied (Cursor::time); nullopt before that.
    std::optional<core::SimTime> cut, time;
    std::optional<std::size_t> event; // the cursor's last applied event
    std::vector<RankState> ranks;
    bool operator==(const RunState &) const = default;
};

// Replays from nothing up to the cursor: O(position), the plain reference. Stepping through a
// run uses a Replayer instead.
RunState stateAt(const core::Trace &trace, const Cursor &cursor);

} // namespace rankstep::replay
