// SPDX-License-Identifier: MIT
// The engine's sentences as patterns: English with %1..%9 for what varies ("rank %1 waits in %2 at
// line %3"). The core says them in English (the command line, the grader and the docs quote
// them); the app recognises a message by its pattern and says it in the learner's language
// (gui/session/enginetext.h), translating each pattern in the context "EngineText" of
// resources/translations/*.ts. Arguments that are themselves phrases of the list ("batches 0-3",
// "an activation") are translated too; a line that matches no pattern stays as it is (a Python
// exception's own words, say).
#pragma once

#include <initializer_list>
#include <span>
#include <string>

// Marks a pattern for lupdate, which reads this file as if it were QT_TRANSLATE_NOOP
// (gui/app/CMakeLists.txt passes -tr-function-alias); the core itself has no Qt.
#define RANKSTEP_SENTENCE(context, text) text

namespace rankstep::core {

// `pattern` with %1.. replaced by `args` in order.
std::string say(const char *pattern, std::initializer_list<std::string> args);

// Every pattern below, whole sentences before the phrases they may contain.
std::span<const char *const> sentencePatterns();

namespace sentence {

// A hang, and who waits on whom (core/scheduler.cpp).
inline constexpr const char *kDeadlock =
    RANKSTEP_SENTENCE("EngineText", "Deadlock: no rank can go on.");
inline constexpr const char *kFinishedWithoutCalling =
    RANKSTEP_SENTENCE("EngineText", "rank %1 finished without calling %2");
inline constexpr const char *kHasFinished = RANKSTEP_SENTENCE("EngineText", "rank %1 has finished");
inline constexpr const char *kWaitsIn =
    RANKSTEP_SENTENCE("EngineText", "rank %1 waits in %2 at line %3");
inline constexpr const char *kWaitsInForRank =
    RANKSTEP_SENTENCE("EngineText", "rank %1 waits in %2 at line %3 for rank %4");
inline constexpr const char *kWaitsInForRanks =
    RANKSTEP_SENTENCE("EngineText", "rank %1 waits in %2 at line %3 for ranks %4");
inline constexpr const char *kFinishedRank = RANKSTEP_SENTENCE("EngineText", "%1 (finished)");
inline constexpr const char *kStoppedRank =
    RANKSTEP_SENTENCE("EngineText", "%1 (stopped by an error)");
inline constexpr const char *kNotStartedRank =
    RANKSTEP_SENTENCE("EngineText", "%1 (never started)");
inline constexpr const char *kCutShortRank = RANKSTEP_SENTENCE("EngineText", "%1 (cut short)");
inline constexpr const char *kStoppedWithoutCallingOne = RANKSTEP_SENTENCE(
    "EngineText", "rank %1 stopped at line %2 without calling %3, which rank %4 waits in");
inline constexpr const char *kStoppedWithoutCallingMany = RANKSTEP_SENTENCE(
    "EngineText", "rank %1 stopped at line %2 without calling %3, which ranks %4 wait in");
inline constexpr const char *kMismatch = RANKSTEP_SENTENCE(
    "EngineText",
    "Collective mismatch: %1 reached the same collective of %2 with different calls.");
inline constexpr const char *kMismatchCalled =
    RANKSTEP_SENTENCE("EngineText", "rank %1: %2 at line %3");
inline constexpr const char *kMismatchFinished =
    RANKSTEP_SENTENCE("EngineText", "rank %1: finished without calling it");
inline constexpr const char *kMismatchNotYet =
    RANKSTEP_SENTENCE("EngineText", "rank %1: has not reached it yet");
inline constexpr const char *kNotReachedYet =
    RANKSTEP_SENTENCE("EngineText", "(has not reached it yet)");

// A run stopped (core/engine.cpp, core/scheduler.cpp, core/python/runtime.cpp). At the time limit
// a sentence asks what the operation budget's does: a learner waited for it with no hint.
inline constexpr const char *kStoppedWhileRank =
    RANKSTEP_SENTENCE("EngineText", "The run was stopped %1 while rank %2 was at line %3.");
inline constexpr const char *kStopped = RANKSTEP_SENTENCE("EngineText", "The run was stopped %1.");
inline constexpr const char *kStoppedWhileLoading = RANKSTEP_SENTENCE(
    "EngineText",
    "The run was stopped %1 while the file was still loading (its top-level code was at line %2).");
inline constexpr const char *kStoppedWhileCompiling = RANKSTEP_SENTENCE(
    "EngineText",
    "The run was stopped %1 while the file was still loading (its top-level code was compiling).");
inline constexpr const char *kTimeLimitWhileRank = RANKSTEP_SENTENCE(
    "EngineText",
    "The run was stopped after %1 s (the time limit) while rank %2 was at line %3. "
    "Is a loop running forever?");
inline constexpr const char *kTimeLimit = RANKSTEP_SENTENCE(
    "EngineText", "The run was stopped after %1 s (the time limit). Is a loop running forever?");
inline constexpr const char *kTimeLimitWhileLoading =
    RANKSTEP_SENTENCE("EngineText",
                      "The run was stopped after %1 s (the time limit) while the file was still "
                      "loading (its top-level code was at line %2). Is a loop running forever?");
inline constexpr const char *kOnRequest = RANKSTEP_SENTENCE("EngineText", "on request");
inline constexpr const char *kAtTimeLimit =
    RANKSTEP_SENTENCE("EngineText", "after %1 s (the time limit)");
inline constexpr const char *kBudget = RANKSTEP_SENTENCE(
    "EngineText",
    "The run was stopped after %1 operations (the operation budget) while rank %2 "
    "was at line %3. Is a loop running forever?");
inline constexpr const char *kRecordFull = RANKSTEP_SENTENCE(
    "EngineText",
    "The run was stopped after %1 recorded events and %2 storage changes, the most "
    "one run's record holds, while rank %3 was at line %4. Is a loop running "
    "forever?");

// The checks of the operations a learner calls (core/operations.cpp).
inline constexpr const char *kArgumentMustBe =
    RANKSTEP_SENTENCE("EngineText", "%1: the %2 argument must be %3, but it is %4");
inline constexpr const char *kOnlyArgumentMustBe =
    RANKSTEP_SENTENCE("EngineText", "%1: the argument must be %2, but it is %3");
inline constexpr const char *kWeightOfOtherLayer =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the weight belongs to layer %2, but %3 at layer %4 needs the weight of "
                      "layer %5");
inline constexpr const char *kWeightIncomplete = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: the weight holds only %2; %3 needs the complete weight (allgather it first)");
inline constexpr const char *kActivationOfOtherLayer = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: the activation is at layer %2, but %3 at layer %4 needs the activation at "
    "layer %5");
inline constexpr const char *kUpdateMissesBatch = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: the weight gradient covers batches %2, but an update needs all batches %3 "
    "(%4 is missing; %5)");
inline constexpr const char *kUpdateMissesBatches = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: the weight gradient covers batches %2, but an update needs all batches %3 "
    "(%4 are missing; %5)");
inline constexpr const char *kAllreduceFirst =
    RANKSTEP_SENTENCE("EngineText", "allreduce it first");
inline constexpr const char *kRanksCoverEveryBatch =
    RANKSTEP_SENTENCE("EngineText", "the ranks' own batches must together cover every batch");
inline constexpr const char *kAddBatchesFirst =
    RANKSTEP_SENTENCE("EngineText", "add the gradients of the missing batches first");

// Warnings: a gradient summed twice (core/engine.cpp, core/communication.cpp).
inline constexpr const char *kAddCountsTwice = RANKSTEP_SENTENCE(
    "EngineText", "Layer %1: both gradients already cover %2, so the sum counts it twice.");
inline constexpr const char *kAddCountsTwiceMany = RANKSTEP_SENTENCE(
    "EngineText", "Layer %1: both gradients already cover %2, so the sum counts them twice.");
inline constexpr const char *kAllreduceCounts = RANKSTEP_SENTENCE(
    "EngineText", "%1: %2 each hold a gradient for %3, so the sum counts it %4 times.");
inline constexpr const char *kAllreduceCountsMany = RANKSTEP_SENTENCE(
    "EngineText", "%1: %2 each hold a gradient for %3, so the sum counts them %4 times.");

// What the check of the final weights found (core/trace.cpp).
inline constexpr const char *kCheckProblem = RANKSTEP_SENTENCE("EngineText", "%1: %2");
inline constexpr const char *kCheckProblems = RANKSTEP_SENTENCE("EngineText", "%1; %2");
inline constexpr const char *kNumbersAnd = RANKSTEP_SENTENCE("EngineText", "%1 and %2");
inline constexpr const char *kNoFinalWeight = RANKSTEP_SENTENCE(
    "EngineText", "no rank set a final weight (no weights[layer] when the code ends)");
inline constexpr const char *kNeverUpdated = RANKSTEP_SENTENCE(
    "EngineText",
    "the final weights were never updated (step 0), but every final weight must be "
    "updated once (step 1)");
inline constexpr const char *kFinalAtStep =
    RANKSTEP_SENTENCE("EngineText",
                      "the final weight of rank %1 is at step %2, but every final weight must be "
                      "updated once (step 1)");
inline constexpr const char *kShardsNeverUpdated = RANKSTEP_SENTENCE(
    "EngineText",
    "the final weights of all ranks together hold shards %1 of %2; shards %3 were "
    "never updated");
inline constexpr const char *kCorrect = RANKSTEP_SENTENCE("EngineText", "Correct!");

// The quiz (core/explain/quiz.cpp): questions, choices and what the answer reveals.
inline constexpr const char *kQuizOutcome =
    RANKSTEP_SENTENCE("EngineText", "How will this run end?");
inline constexpr const char *kQuizFinishes = RANKSTEP_SENTENCE("EngineText", "Every rank finishes");
inline constexpr const char *kQuizHangs =
    RANKSTEP_SENTENCE("EngineText", "It hangs: a rank waits forever");
inline constexpr const char *kQuizErrors =
    RANKSTEP_SENTENCE("EngineText", "A rank stops with an error");
inline constexpr const char *kQuizFinishedAt =
    RANKSTEP_SENTENCE("EngineText", "Every rank finishes, at t = %1.");
inline constexpr const char *kQuizHung =
    RANKSTEP_SENTENCE("EngineText", "It hangs: no rank can go on.");
inline constexpr const char *kQuizHungIn =
    RANKSTEP_SENTENCE("EngineText", "It hangs: rank %1 waits in %2 forever.");
inline constexpr const char *kQuizRankErrs =
    RANKSTEP_SENTENCE("EngineText", "Rank %1 stops with an error.");
inline constexpr const char *kQuizARankErrs =
    RANKSTEP_SENTENCE("EngineText", "A rank stops with an error.");
inline constexpr const char *kQuizIdle =
    RANKSTEP_SENTENCE("EngineText", "Over the whole run, which rank is idle longest?");
inline constexpr const char *kQuizIdleReveal =
    RANKSTEP_SENTENCE("EngineText", "Rank %1, idle %2 of the run's %3.");
inline constexpr const char *kQuizAppears =
    RANKSTEP_SENTENCE("EngineText", "What appears in rank %1's memory next?");
inline constexpr const char *kQuizNowHolds =
    RANKSTEP_SENTENCE("EngineText", "Rank %1 now holds the %2 (%3).");
inline constexpr const char *kQuizMovesNext =
    RANKSTEP_SENTENCE("EngineText", "Which rank moves next?");
inline constexpr const char *kQuizStartsNext =
    RANKSTEP_SENTENCE("EngineText", "What does rank %1 start next?");
inline constexpr const char *kQuizDoes = RANKSTEP_SENTENCE("EngineText", "Rank %1: %2.");
inline constexpr const char *kOfLayer = RANKSTEP_SENTENCE("EngineText", "%1 of layer %2");
inline constexpr const char *kOfTheInput = RANKSTEP_SENTENCE("EngineText", "%1 of the input");
inline constexpr const char *kToRank = RANKSTEP_SENTENCE("EngineText", "%1 to rank %2");
inline constexpr const char *kFromRank = RANKSTEP_SENTENCE("EngineText", "%1 from rank %2");
inline constexpr const char *kUpdatedOnce = RANKSTEP_SENTENCE("EngineText", "updated once");
inline constexpr const char *kUpdatedTimes = RANKSTEP_SENTENCE("EngineText", "updated %1 times");
inline constexpr const char *kWhole = RANKSTEP_SENTENCE("EngineText", "whole");
inline constexpr const char *kOneShardOf = RANKSTEP_SENTENCE("EngineText", "shard %1 of %2");
inline constexpr const char *kWeight = RANKSTEP_SENTENCE("EngineText", "weight");
inline constexpr const char *kOptState = RANKSTEP_SENTENCE("EngineText", "optimizer state");
inline constexpr const char *kActivation = RANKSTEP_SENTENCE("EngineText", "activation");
inline constexpr const char *kActivationGrad =
    RANKSTEP_SENTENCE("EngineText", "activation gradient");
inline constexpr const char *kWeightGrad = RANKSTEP_SENTENCE("EngineText", "weight gradient");

// Phrases inside the sentences above.
inline constexpr const char *kOneRank = RANKSTEP_SENTENCE("EngineText", "rank %1");
inline constexpr const char *kManyRanks = RANKSTEP_SENTENCE("EngineText", "ranks %1");
inline constexpr const char *kOneBatch = RANKSTEP_SENTENCE("EngineText", "batch %1");
inline constexpr const char *kManyBatches = RANKSTEP_SENTENCE("EngineText", "batches %1");
inline constexpr const char *kOneLayer = RANKSTEP_SENTENCE("EngineText", "layer %1");
inline constexpr const char *kManyLayers = RANKSTEP_SENTENCE("EngineText", "layers %1");
inline constexpr const char *kShardsOf = RANKSTEP_SENTENCE("EngineText", "shards %1 of %2");
inline constexpr const char *kSecond = RANKSTEP_SENTENCE("EngineText", "second");
inline constexpr const char *kThird = RANKSTEP_SENTENCE("EngineText", "third");
inline constexpr const char *kFourth = RANKSTEP_SENTENCE("EngineText", "fourth");
inline constexpr const char *kAWeight = RANKSTEP_SENTENCE("EngineText", "a weight");
inline constexpr const char *kAnOptState = RANKSTEP_SENTENCE("EngineText", "an optimizer state");
inline constexpr const char *kAnActivation = RANKSTEP_SENTENCE("EngineText", "an activation");
inline constexpr const char *kAnActivationGrad =
    RANKSTEP_SENTENCE("EngineText", "an activation gradient");
inline constexpr const char *kAWeightGrad = RANKSTEP_SENTENCE("EngineText", "a weight gradient");

} // namespace sentence
} // namespace rankstep::core
