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
    Message,    // a receive waited for the message's pass_to (or pass_to_start)
    // On the communication stream (docs/simulation.md, "Overlapped communication"):
    Stream, // a started operation waited for the one before it on its rank's stream
    Call,   // a started operation began when its rank called it, right after this event
    Await,  // an event (or a started one's call) came right after the await of this started one
    First,  // this started operation began at t 0, called before its rank ran anything
};

struct Link {
    std::size_t event = 0;
    Cause cause = Cause::SameRank;
    bool started = false; // `event` is an index in trace.overlapped, not in trace.events
                          // (only in Wait::causes)
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
    // those events ended inside the wait; from the awaited operation's start when there is one,
    // and always as far as what its rank ran before it started an operation on the stream.
    std::vector<Link> causes;
    // Its events on the ranks' rows (indices in trace.events, none started), which the timeline
    // highlights.
    std::vector<Link> chain;
};

// Every idle gap of every rank, in event order; without chains (idle gaps alone, for drawing
// them: linear in the events) when withChains is false.
std::vector<Wait> waits(const core::Trace &trace, bool withChains = true);
// The waits of one rank, with chains, in event order: waits(trace) filtered to `rank`, without
// keeping every rank's chains (at 16,384 ranks they took more than a gigabyte).
std::vector<Wait> waitsOf(const core::Trace &trace, int rank);
// The wait before `event`; nullopt when the event started as soon as its rank was free.
std::optional<Wait> waitBefore(const core::Trace &trace, std::size_t event);
// "Rank 3 waited 2.4 (t 4 to 6.4) in receive for rank 2's pass_to, which came after rank 2's
// forward of layer 3, which waited for rank 1's pass_to."; "Rank 1 waited 0.275 (t 0.125 to 0.4)
// in the await of its receive from rank 0 (started on the communication stream), which waited
// for rank 0's pass_to_start to rank 1 (t 0 to 0.2 on its communication stream), which rank 0
// started at t 0 after its forward of layer 0."
// A chain of more than kMostLinksSaid + 1 links is said to its kMostLinksSaid-th, then summed up:
// "..., after a chain of 212 more events back to rank 5's forward of layer 0 at t 3.".
inline constexpr std::size_t kMostLinksSaid = 6;
std::string describeWait(const core::Trace &trace, const Wait &wait,
                         const core::Phrasebook &words = core::english());

// The chain of events that sets the run's end time, in time order: from an event that started
// at 0 to the one that ends last.
std::vector<std::size_t> criticalPath(const core::Trace &trace);

// "forward of layer 3", "allreduce of layer 0", "pass_to rank 2", "receive from rank 1".
std::string describeEvent(const core::Event &event,
                          const core::Phrasebook &words = core::english());

} // namespace rankstep::explain
