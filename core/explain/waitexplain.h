// SPDX-License-Identifier: MIT
// Why a rank waits, and what sets the run's length: every event's start is explained by the event
// that ended just then (the rank's own previous one; the last rank to reach a collective; the
// pass_to whose message a receive waited for). docs/explain.md.
#pragma once

#include "core/sentences.h"
#include "core/trace.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::explain {

enum class Cause : std::uint8_t {
    SameRank,   // the rank's own previous event ended when this one started
    Collective, // the rank waited for the last rank to reach the collective
    Message,    // a receive waited for the message's pass_to
};

struct Link {
    std::size_t event = 0;
    Cause cause = Cause::SameRank;
};

// What ended right when `event` started; nullopt at time 0 or when nothing did.
std::optional<Link> causeOf(const core::Trace &trace, std::size_t event);

// An idle gap of a rank: from the end of its previous event (0 at the start) to `event`'s start.
struct Wait {
    int rank = 0;
    core::SimTime from, to;
    std::size_t event = 0; // the event that waited
    // The started operation (an index in trace.overlapped) whose await ended the wait: the rank
    // waited in `await h`, not in the compute that follows it (a ring's received chunk).
    std::optional<std::size_t> awaited;
    // The chain that ended the wait, from the event that released it back in time, as long as
    // those events ended inside the wait.
    std::vector<Link> chain;
};

// Every idle gap of every rank, in event order; without chains (idle gaps alone, for drawing
// them: linear in the events) when withChains is false.
std::vector<Wait> waits(const core::Trace &trace, bool withChains = true);
// The wait before `event`; nullopt when the event started as soon as its rank was free.
std::optional<Wait> waitBefore(const core::Trace &trace, std::size_t event);
// "Rank 3 waited 2.4 (t 4 to 6.4) in receive for rank 2's pass_to, which came after rank 2's
// forward of layer 3, which waited for rank 1's pass_to."
std::string describeWait(const core::Trace &trace, const Wait &wait,
                         const core::Phrasebook &words = core::english());

// The chain of events that sets the run's end time, in time order: from an event that started
// at 0 to the one that ends last.
std::vector<std::size_t> criticalPath(const core::Trace &trace);

// "forward of layer 3", "allreduce of layer 0", "pass_to rank 2", "receive from rank 1".
std::string describeEvent(const core::Event &event,
                          const core::Phrasebook &words = core::english());

} // namespace rankstep::explain
