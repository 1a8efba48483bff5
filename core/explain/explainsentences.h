// SPDX-License-Identifier: MIT
// The explanations' sentences as patterns (core/sentences.h says how): what fills a rank's memory,
// why a rank waited, what the lesson's formula expects. Each is said through a Phrasebook, so the
// app says them in the learner's language ("EngineText" in resources/translations/*.ts); most
// wrap the phrase before them ("%1 for batches %2"), which keeps the order of the parts one
// language's business.
#pragma once

#include "core/sentences.h"

namespace rankstep::explain::sentence {

// What a rank holds at a moment (core/explain/memoryexplain.cpp, core/explain/describe.cpp).
inline constexpr const char *kPeak = RANKSTEP_SENTENCE("EngineText", "Peak");
inline constexpr const char *kMemory = RANKSTEP_SENTENCE("EngineText", "Memory");
inline constexpr const char *kMomentHolds =
    RANKSTEP_SENTENCE("EngineText", "%1 %2 B on rank %3 at t %4: %5.");
inline constexpr const char *kMomentEmpty =
    RANKSTEP_SENTENCE("EngineText", "%1 %2 B on rank %3 at t %4.");
inline constexpr const char *kOfLayers = RANKSTEP_SENTENCE("EngineText", "%1 of layers %2");
inline constexpr const char *kOfModelInput =
    RANKSTEP_SENTENCE("EngineText", "%1 of the model's input");
inline constexpr const char *kAndOfModelInput =
    RANKSTEP_SENTENCE("EngineText", "%1 and of the model's input");
inline constexpr const char *kForBatch = RANKSTEP_SENTENCE("EngineText", "%1 for batch %2");
inline constexpr const char *kForBatches = RANKSTEP_SENTENCE("EngineText", "%1 for batches %2");
inline constexpr const char *kWithShard = RANKSTEP_SENTENCE("EngineText", "%1, shard %2 of %3");
inline constexpr const char *kWithShards = RANKSTEP_SENTENCE("EngineText", "%1, shards %2 of %3");
inline constexpr const char *kOneObject = RANKSTEP_SENTENCE("EngineText", "%1 (%2 object, %3 B)");
inline constexpr const char *kObjects = RANKSTEP_SENTENCE("EngineText", "%1 (%2 objects, %3 B)");
inline constexpr const char *kTheKindOfLayer =
    RANKSTEP_SENTENCE("EngineText", "the %1 of layer %2");
inline constexpr const char *kBytesAtLine = RANKSTEP_SENTENCE("EngineText", "%1 (%2 B, line %3)");
inline constexpr const char *kAtTime = RANKSTEP_SENTENCE("EngineText", "t %1");
// A time of a run under a real-scale cost model, whose ticks are microseconds: "670.153 ms".
inline constexpr const char *kMilliseconds = RANKSTEP_SENTENCE("EngineText", "%1 ms");
inline constexpr const char *kEndOfRun = RANKSTEP_SENTENCE("EngineText", "the end of the run");
inline constexpr const char *kOverTarget =
    RANKSTEP_SENTENCE("EngineText", "%1 B over the target of %2 B: %3.");
// Whether the peak fits the device the cost model names (its "memory_bytes"), and by how much;
// the amounts as "80000000000 B (80 GB)".
inline constexpr const char *kFitsDevice =
    RANKSTEP_SENTENCE("EngineText", "The peak fits the device's memory of %1 with %2 to spare.");
inline constexpr const char *kOverDevice = RANKSTEP_SENTENCE(
    "EngineText", "The peak is %1 over the device's memory of %2: it does not fit.");
inline constexpr const char *kKeptFromTo =
    RANKSTEP_SENTENCE("EngineText", "%1 kept from t %2 to %3");
// What keeps a held object from being used yet (describeUnfinished): an unfinished attention
// (docs/simulation.md, "Overlapped ring attention") and a partial sum that its group must add up.
inline constexpr const char *kAttentionOutput =
    RANKSTEP_SENTENCE("EngineText", "layer %1's attention output");
inline constexpr const char *kAttentionInputGradient =
    RANKSTEP_SENTENCE("EngineText", "layer %1's attention input gradient");
inline constexpr const char *kAttentionWeightGradient =
    RANKSTEP_SENTENCE("EngineText", "layer %1's attention weight gradient");
inline constexpr const char *kOfChunk = RANKSTEP_SENTENCE("EngineText", "%1, chunk %2");
inline constexpr const char *kChunksSeen =
    RANKSTEP_SENTENCE("EngineText", "%1: %2 of %3 chunks seen");
inline constexpr const char *kTensorPartialSum =
    RANKSTEP_SENTENCE("EngineText", "a partial sum: needs the all-reduce of its tensor group");
inline constexpr const char *kContextPartialSum =
    RANKSTEP_SENTENCE("EngineText", "a partial sum: needs the all-reduce of its context group");
// After what a rank holds: "... Unfinished: layer 0's attention output for batch 0, chunk 1: 3
// of 4 chunks seen."
inline constexpr const char *kUnfinishedHeld =
    RANKSTEP_SENTENCE("EngineText", "%1 Unfinished: %2.");
inline constexpr const char *kAndMore = RANKSTEP_SENTENCE("EngineText", "%1 and %2 more");

// Why a rank waited (core/explain/waitexplain.cpp): the wait, then each cause before it.
inline constexpr const char *kWaited =
    RANKSTEP_SENTENCE("EngineText", "Rank %1 waited %2 (t %3 to %4) in %5");
// The %5 of kWaited when the rank waited in the await of a started operation.
inline constexpr const char *kAwaitOf =
    RANKSTEP_SENTENCE("EngineText", "the await of its %1 (started on the communication stream)");
inline constexpr const char *kUntilReached =
    RANKSTEP_SENTENCE("EngineText", "%1 until rank %2 reached it after its %3");
inline constexpr const char *kWhichWaitedToReach = RANKSTEP_SENTENCE(
    "EngineText", "%1, which waited for rank %2 to reach a collective after its %3");
inline constexpr const char *kForMessage = RANKSTEP_SENTENCE("EngineText", "%1 for %2");
inline constexpr const char *kWhichWaitedFor =
    RANKSTEP_SENTENCE("EngineText", "%1, which waited for %2");
inline constexpr const char *kUntilEnded = RANKSTEP_SENTENCE("EngineText", "%1 until %2 ended");
inline constexpr const char *kWhichCameAfter =
    RANKSTEP_SENTENCE("EngineText", "%1, which came after %2");
inline constexpr const char *kRanksEvent = RANKSTEP_SENTENCE("EngineText", "rank %1's %2");
// The chain through the communication stream: a started operation (%2: "pass_to_start to rank 1"),
// what it waited for and what its rank ran before it started it.
inline constexpr const char *kRanksStarted =
    RANKSTEP_SENTENCE("EngineText", "rank %1's %2 (t %3 to %4 on its communication stream)");
inline constexpr const char *kWhichWaitedToFreeStream =
    RANKSTEP_SENTENCE("EngineText", "%1, which waited for %2 to free the stream");
inline constexpr const char *kWhichStartedAfter =
    RANKSTEP_SENTENCE("EngineText", "%1, which rank %2 started at t %3 after %4");
inline constexpr const char *kWhichStartedRightAway =
    RANKSTEP_SENTENCE("EngineText", "%1, which rank %2 started right away at t %3");
inline constexpr const char *kItsEvent = RANKSTEP_SENTENCE("EngineText", "its %1");
inline constexpr const char *kTheAwaitOfIts =
    RANKSTEP_SENTENCE("EngineText", "the await of its %1 (t %2 to %3)");
inline constexpr const char *kTheAwaitOfRanks =
    RANKSTEP_SENTENCE("EngineText", "the await of rank %1's %2 (t %3 to %4)");
// The rest of a long chain, summed up: %2 more events (always two or more), back to %3 ("rank 5's
// forward of layer 0") at t %4.
inline constexpr const char *kChainBackTo =
    RANKSTEP_SENTENCE("EngineText", "%1, after a chain of %2 more events back to %3 at t %4");
inline constexpr const char *kSentence = RANKSTEP_SENTENCE("EngineText", "%1.");

// What the lesson's formula expects (core/explain/formulas.cpp).
inline constexpr const char *kBubble =
    RANKSTEP_SENTENCE("EngineText",
                      "Idle %1 of the time on average; the bubble formula (p-1)/(m+p-1) with p = "
                      "%2, m = %3 gives %4.");
// The bubble of the schedules that shrink it, against the ideal time
// (core/explain/pipelineshape.cpp).
inline constexpr const char *kPipelineBubble =
    RANKSTEP_SENTENCE("EngineText",
                      "Measured bubble %1 of the ideal time (idle or communicating, against m "
                      "micro-batches of one stage's work); the %2 formula %3 with %4 gives %5.");
inline constexpr const char *kZeroBubbleTerms =
    RANKSTEP_SENTENCE("EngineText", "%1 and F, B, W as measured");
inline constexpr const char *kModelStateWhole =
    RANKSTEP_SENTENCE("EngineText",
                      "Each rank should hold %1 B of weights and optimizer states (%2 layers × 2 × "
                      "%3²: every rank holds all of them).");
inline constexpr const char *kModelStateShared =
    RANKSTEP_SENTENCE("EngineText",
                      "Each rank should hold %1 B of weights and optimizer states (%2 layers × 2 × "
                      "%3², divided among %4 ranks that share them).");

// Two runs side by side (core/explain/compare.cpp): A is the learner's, B the other.
inline constexpr const char *kFinishedAt = RANKSTEP_SENTENCE("EngineText", "%1 finished at t %2");
inline constexpr const char *kHungAt =
    RANKSTEP_SENTENCE("EngineText", "%1 hung at t %2: its ranks waited on each other");
inline constexpr const char *kStoppedAt =
    RANKSTEP_SENTENCE("EngineText", "%1 was stopped at t %2 (a limit)");
inline constexpr const char *kErrorAt =
    RANKSTEP_SENTENCE("EngineText", "%1 stopped with an error at t %2");
inline constexpr const char *kWhere = RANKSTEP_SENTENCE("EngineText", "%1 (%2)");
inline constexpr const char *kWhereWhat = RANKSTEP_SENTENCE("EngineText", "%1 (%2: %3)");
inline constexpr const char *kAtLine = RANKSTEP_SENTENCE("EngineText", "line %1");
inline constexpr const char *kAtRankLine = RANKSTEP_SENTENCE("EngineText", "rank %1, line %2");
inline constexpr const char *kEndsUncompared =
    RANKSTEP_SENTENCE("EngineText", "%1; %2. End times compare only when both runs finish.");
inline constexpr const char *kEndsSame =
    RANKSTEP_SENTENCE("EngineText", "End time %1 (A) against %2 (B): the same.");
inline constexpr const char *kEndsEarlier =
    RANKSTEP_SENTENCE("EngineText", "End time %1 (A) against %2 (B): B ends %3 earlier");
inline constexpr const char *kEndsLater =
    RANKSTEP_SENTENCE("EngineText", "End time %1 (A) against %2 (B): B ends %3 later");
inline constexpr const char *kPerRankB =
    RANKSTEP_SENTENCE("EngineText", "%1: per rank on average B is %2.");
inline constexpr const char *kBusyMore = RANKSTEP_SENTENCE("EngineText", "busy %1 more");
inline constexpr const char *kBusyLess = RANKSTEP_SENTENCE("EngineText", "busy %1 less");
inline constexpr const char *kIdleMore = RANKSTEP_SENTENCE("EngineText", "idle %1 more");
inline constexpr const char *kIdleLess = RANKSTEP_SENTENCE("EngineText", "idle %1 less");
inline constexpr const char *kCommunicatingMore =
    RANKSTEP_SENTENCE("EngineText", "communicating %1 more");
inline constexpr const char *kCommunicatingLess =
    RANKSTEP_SENTENCE("EngineText", "communicating %1 less");
inline constexpr const char *kOnlyARan =
    RANKSTEP_SENTENCE("EngineText", "Only A ran any operation.");
inline constexpr const char *kOnlyBRan =
    RANKSTEP_SENTENCE("EngineText", "Only B ran any operation.");
inline constexpr const char *kNeitherRan =
    RANKSTEP_SENTENCE("EngineText", "Neither run ran any operation.");
inline constexpr const char *kPeaks = RANKSTEP_SENTENCE(
    "EngineText", "Peak %1 B (A, rank %2 at t %3) against %4 B (B, rank %5 at t %6)");
inline constexpr const char *kPeaksSame = RANKSTEP_SENTENCE("EngineText", "%1: the same.");
inline constexpr const char *kPeakLower = RANKSTEP_SENTENCE("EngineText", "%1: B's is %2 B lower");
inline constexpr const char *kPeakHigher =
    RANKSTEP_SENTENCE("EngineText", "%1: B's is %2 B higher");
inline constexpr const char *kMostFewer =
    RANKSTEP_SENTENCE("EngineText", "%1, most of it %2 (%3 B fewer at B's peak)");
inline constexpr const char *kMostMore =
    RANKSTEP_SENTENCE("EngineText", "%1, most of it %2 (%3 B more at B's peak)");
inline constexpr const char *kRanksAgainst =
    RANKSTEP_SENTENCE("EngineText", "ranks: %1 against %2");
inline constexpr const char *kLayersAgainst =
    RANKSTEP_SENTENCE("EngineText", "layers: %1 against %2");
inline constexpr const char *kBatchesAgainst =
    RANKSTEP_SENTENCE("EngineText", "batches: %1 against %2");
inline constexpr const char *kStatusAgainst =
    RANKSTEP_SENTENCE("EngineText", "status: %1 against %2");
inline constexpr const char *kSameSettings =
    RANKSTEP_SENTENCE("EngineText", "Same settings (%1 ranks, %2 layers, %3 batches).");
inline constexpr const char *kDiffersIn = RANKSTEP_SENTENCE("EngineText", "Differs in %1.");
inline constexpr const char *kTimestepsAgainst =
    RANKSTEP_SENTENCE("EngineText", "Timesteps %1 against %2.");
inline constexpr const char *kStatusOk = RANKSTEP_SENTENCE("EngineText", "ok");
inline constexpr const char *kStatusError = RANKSTEP_SENTENCE("EngineText", "error");
inline constexpr const char *kStatusDeadlock = RANKSTEP_SENTENCE("EngineText", "deadlock");
inline constexpr const char *kStatusStopped = RANKSTEP_SENTENCE("EngineText", "stopped");

} // namespace rankstep::explain::sentence
