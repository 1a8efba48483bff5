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
inline constexpr const char *kEndOfRun = RANKSTEP_SENTENCE("EngineText", "the end of the run");
inline constexpr const char *kOverTarget =
    RANKSTEP_SENTENCE("EngineText", "%1 B over the target of %2 B: %3.");
inline constexpr const char *kKeptFromTo =
    RANKSTEP_SENTENCE("EngineText", "%1 kept from t %2 to %3");

// Why a rank waited (core/explain/waitexplain.cpp): the wait, then each cause before it.
inline constexpr const char *kWaited =
    RANKSTEP_SENTENCE("EngineText", "Rank %1 waited %2 (t %3 to %4) in %5");
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
inline constexpr const char *kSentence = RANKSTEP_SENTENCE("EngineText", "%1.");

// What the lesson's formula expects (core/explain/formulas.cpp).
inline constexpr const char *kBubble =
    RANKSTEP_SENTENCE("EngineText",
                      "Idle %1 of the time on average; the bubble formula (p-1)/(m+p-1) with p = "
                      "%2, m = %3 gives %4.");
inline constexpr const char *kModelStateWhole =
    RANKSTEP_SENTENCE("EngineText",
                      "Each rank should hold %1 B of weights and optimizer states (%2 layers × 2 × "
                      "%3²: every rank holds all of them).");
inline constexpr const char *kModelStateShared =
    RANKSTEP_SENTENCE("EngineText",
                      "Each rank should hold %1 B of weights and optimizer states (%2 layers × 2 × "
                      "%3², divided among %4 ranks that share them).");

} // namespace rankstep::explain::sentence
