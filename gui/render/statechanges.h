// SPDX-License-Identifier: MIT
// What changed between two states of one run: what the state view fades in and out.
#pragma once

#include "core/replay/state.h"
#include "core/trace.h"

#include <array>
#include <cstddef>
#include <vector>

namespace rankstep::gui {

class StateChanges
{
public:
    StateChanges() = default;
    // Compares every rank's maps by key: an entry of `now` is fresh when its key is new or its
    // object was replaced; an entry of `before` is gone when its key is no longer there or holds
    // another object (so that a replaced object fades out under its successor). The trace (may
    // be null) tells which fresh entries came by communication.
    StateChanges(const replay::RunState &before, const replay::RunState &now,
                 const core::Trace *trace);
    // The same for the given ranks only (what the view shows); other ranks report no change.
    // Out-of-range ranks are skipped.
    StateChanges(const replay::RunState &before, const replay::RunState &now,
                 const core::Trace *trace, const std::vector<int> &ranks);

    bool any() const { return m_any; }
    // How many entries were fresh or gone, over every compared rank and map.
    std::size_t count() const { return m_count; }
    bool anyFor(int rank) const; // whether anything of the rank's maps was fresh or gone
    bool fresh(int rank, core::MapKind map, std::size_t index) const; // index into now's map
    bool gone(int rank, core::MapKind map, std::size_t index) const;  // index into before's map
    // A fresh entry of `now` that its rank stored right after a collective, pass_to or receive
    // (`grad_weights[0] = await allreduce(...)`, `activations[l] = await receive()`).
    bool arrived(int rank, core::MapKind map, std::size_t index) const;

private:
    using Flags = std::array<std::vector<bool>, core::kMapCount>;
    static bool flag(const std::vector<Flags> &flags, int rank, core::MapKind map,
                     std::size_t index);
    void compare(std::size_t rank, const replay::RankState *before, const replay::RankState &now,
                 const core::Trace *trace);

    std::vector<Flags> m_fresh, m_gone, m_arrived;
    std::vector<bool> m_rankChanged; // by rank
    bool m_any = false;
    std::size_t m_count = 0;
};

} // namespace rankstep::gui
