// SPDX-License-Identifier: MIT
// The engine's sentences as patterns: English with %1..%9 for what varies ("rank %1 waits in %2 at
// line %3"). The core says them in English (the command line, the grader and the docs quote
// them); the app recognises a message by its pattern and says it in the learner's language
// (gui/session/enginetext.h), translating each pattern in the context "EngineText" of
// resources/translations/*.ts. Arguments that are themselves phrases of the list ("batches 0-3",
// "an activation") are translated too; a line that matches no pattern stays as it is (a Python
// exception's own words, say).
#pragma once

#include <cstdint>
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

enum class ObjectKind : std::uint8_t;
// "a weight", "an activation": the phrase of the list for one object of `kind`.
const char *aKindPhrase(ObjectKind kind);
// "weights", "activations": the phrase of the list for several.
const char *kindsPhrase(ObjectKind kind);

// Says a pattern with its arguments. The core's explanations (core/explain) take one and say
// every part through it: English by default (the command line, the JSON), the app's translates
// each pattern (gui/session/enginetext.h), so a sentence built of phrases needs no matching back.
class Phrasebook
{
public:
    virtual ~Phrasebook() = default;
    virtual std::string say(const char *pattern, std::initializer_list<std::string> args) const;
    // A sentence the engine said (an error's message), in this phrasebook's language.
    virtual std::string quote(const std::string &english) const { return english; }
};
const Phrasebook &english();

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
// A verdict's gist of a cycle of waits (core/lessons/verdict.cpp): every rank of it, then each
// one's wait (kWaitsIn, joined by kCheckProblems); a long cycle by its count and first ranks.
inline constexpr const char *kCycleOfWaits =
    RANKSTEP_SENTENCE("EngineText", "%1 wait on each other: %2");
inline constexpr const char *kLongCycleOfWaits =
    RANKSTEP_SENTENCE("EngineText", "%1 ranks wait on each other, ranks %2 among them: %3");
// Who waited on the rank an error of its own stopped, after that error (core/stoppedrank.cpp).
inline constexpr const char *kRankWaitsForIt =
    RANKSTEP_SENTENCE("EngineText", "rank %1 waits for it in %2");
inline constexpr const char *kRanksWaitForIt =
    RANKSTEP_SENTENCE("EngineText", "ranks %1 wait for it in %2");
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
// The budget counts every model call and storage change (a store or a del), the record's
// operations only the calls that take time: a loop of forward and store was "stopped after
// 5000000 operations" while the step bar counted 2499996. Each count has its own name.
inline constexpr const char *kBudget = RANKSTEP_SENTENCE(
    "EngineText",
    "The run was stopped after %1 model calls and storage changes (the operation budget; "
    "%2 operations recorded) while rank %3 was at line %4. Is a loop running forever?");
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
// The same in a run with tensor groups, where the shard was most likely meant as a slice.
inline constexpr const char *kWeightIncompleteNotSlice = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: the weight holds only %2; %3 needs the complete weight (allgather it first) or a "
    "tensor-parallel slice: load_weights(layer, model.coords[\"tensor\"], model.TENSOR, "
    "split=\"tensor\")");
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

// What does not exist (core/engine.cpp, core/communication.cpp, core/python/pymodel.cpp).
inline constexpr const char *kRankNotInRun =
    RANKSTEP_SENTENCE("EngineText", "%1: rank %2 does not exist in a run of %3 ranks");
inline constexpr const char *kRankNotExist =
    RANKSTEP_SENTENCE("EngineText", "%1: rank %2 does not exist; this run has %3");
inline constexpr const char *kLayerNotExist =
    RANKSTEP_SENTENCE("EngineText", "%1: layer %2 does not exist; this model has %3");
inline constexpr const char *kBatchNotExist =
    RANKSTEP_SENTENCE("EngineText", "%1: %2 does not exist; this run has %3");
inline constexpr const char *kBatchesNotExist =
    RANKSTEP_SENTENCE("EngineText", "%1: %2 do not exist; this run has %3");
inline constexpr const char *kShardNotExist = RANKSTEP_SENTENCE(
    "EngineText", "%1: shard %2 of %3 does not exist; shards run from 0 to total - 1");
inline constexpr const char *kNoSuchKey =
    RANKSTEP_SENTENCE("EngineText", "del %1[%2]: there is no such key in %3");
inline constexpr const char *kNoKeyHolds =
    RANKSTEP_SENTENCE("EngineText", "%1 of rank %2 has no key %3; it holds %4");
inline constexpr const char *kNoKeyEmpty =
    RANKSTEP_SENTENCE("EngineText", "%1 of rank %2 has no key %3; it is empty");
inline constexpr const char *kNoKeyToDeleteHolds =
    RANKSTEP_SENTENCE("EngineText", "%1 of rank %2 has no key %3 to delete; it holds %4");
// The verdict (core/lessons/verdict.cpp): a memory target met by keeping puzzle objects outside
// the storage. %3 a number, %4 a phrase of the list ("activations"), %5 a dictionary's name.
inline constexpr const char *kHeldOutsideRecompute =
    RANKSTEP_SENTENCE("EngineText",
                      "line %1 (rank %2) kept %3 %4 outside the five storage dictionaries, so the "
                      "memory figure does not count them; keep them in %5 or recompute them");
inline constexpr const char *kHeldOutside =
    RANKSTEP_SENTENCE("EngineText",
                      "line %1 (rank %2) kept %3 %4 outside the five storage dictionaries, so the "
                      "memory figure does not count them; keep them in %5");
inline constexpr const char *kNoKeyToDeleteEmpty =
    RANKSTEP_SENTENCE("EngineText", "%1 of rank %2 has no key %3 to delete; it is empty");
// A storage key's part past an int's range (core/python/pymodel.cpp): %1 and %2 the range, %3 it.
inline constexpr const char *kKeyOutOfRange =
    RANKSTEP_SENTENCE("EngineText",
                      "storage keys are ints or tuples of ints from %1 to %2, like weights[3] or "
                      "activations[0, mb]; %3 is out of that range");
inline constexpr const char *kGroupNamesRank =
    RANKSTEP_SENTENCE("EngineText", "%1: the group names rank %2, but this run has %3");
inline constexpr const char *kNotInGroup =
    RANKSTEP_SENTENCE("EngineText", "%1: rank %2 calls a collective of a group it is not in (%3)");

// backward, loss, update and set_final_weight given the wrong objects (core/operations.cpp).
inline constexpr const char *kBackwardActivationLayer =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the activation is at layer %2, but %4 at layer %3 needs the "
                      "activation at layer %3 (the one forward at layer %3 consumed)");
inline constexpr const char *kBackwardGradLayer =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the activation gradient is for layer %2, but %5 at layer %3 needs "
                      "the gradient for layer %3 (what %4 returned)");
inline constexpr const char *kTheLoss = RANKSTEP_SENTENCE("EngineText", "the loss");
inline constexpr const char *kBackwardAtLayer =
    RANKSTEP_SENTENCE("EngineText", "backward at layer %1");
inline constexpr const char *kBackwardBatches =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the activation covers %2 but the activation gradient covers %3; both "
                      "must cover the same batches");
inline constexpr const char *kLossNeedsOutput =
    RANKSTEP_SENTENCE("EngineText",
                      "loss: the activation is at layer %1, but the loss needs the model's output "
                      "(the activation at layer %2, after the last forward)");
inline constexpr const char *kUpdateOtherLayer = RANKSTEP_SENTENCE(
    "EngineText", "%1: the %2 belongs to layer %3, but this update is for layer %4");
inline constexpr const char *kUpdateShardWithoutGrad =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the %2 holds %3, but the weight gradient covers only %4; every shard "
                      "you update needs its gradient");
inline constexpr const char *kUpdateShards =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the weight %2 but the optimizer state %3; an update needs the same "
                      "shards of both");
inline constexpr const char *kIsWhole = RANKSTEP_SENTENCE("EngineText", "is whole");
inline constexpr const char *kHolds = RANKSTEP_SENTENCE("EngineText", "holds %1");
inline constexpr const char *kUpdateSteps =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the weight is at step %2 but the optimizer state at step %3; they must "
                      "be at the same step");
inline constexpr const char *kFinalMustBeWeight =
    RANKSTEP_SENTENCE("EngineText", "%1: the final weight must be a weight, but it is %2");
inline constexpr const char *kFinalOtherLayer =
    RANKSTEP_SENTENCE("EngineText", "%1: the weight belongs to layer %2");

// Collectives given the wrong objects, awaited twice or never (core/communication.cpp,
// core/scheduler.cpp), and the sums and shards of core/algebra.cpp.
inline constexpr const char *kAwaitedTwice = RANKSTEP_SENTENCE(
    "EngineText",
    "this handle was already awaited: await each handle of allreduce_start, allgather_start, "
    "scatterreduce_start, alltoall_start, pass_to_start or receive_start once");
inline constexpr const char *kCollectiveOnObjects =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: a collective works on puzzle objects (weights, optimizer states, weight "
                      "gradients), not on %2");
inline constexpr const char *kAllgatherKinds =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: allgather joins shards of weights, optimizer states or weight "
                      "gradients, not %2");
inline constexpr const char *kSumsGradients =
    RANKSTEP_SENTENCE("EngineText", "%1: this collective sums weight gradients, not %2");
// Tensor and sequence parallelism (docs/simulation.md): partial sums, sequence shards, slices.
inline constexpr const char *kPartialUsed = RANKSTEP_SENTENCE(
    "EngineText", "%1: layer %2's %3 is partial on rank %4: all-reduce it over the tensor group");
inline constexpr const char *kSequenceShardUsed =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: layer %2's %3 on rank %4 holds only %5 of the sequence: all-gather it "
                      "over the tensor group first");
inline constexpr const char *kPartialWrongGroup = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: the %2 is partial over a tensor group of %3 ranks, but this group has %4: sum it over "
    "the tensor group, model.group(\"tensor\")");
inline constexpr const char *kSumsPartials =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: this collective sums weight gradients or partial activations (and "
                      "gradients), not a complete %2");
inline constexpr const char *kGathersSequence = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: allgather joins shards of weights, optimizer states, weight gradients or sequence "
    "shards of activations, not a whole %2");
inline constexpr const char *kPartialsDiffer = RANKSTEP_SENTENCE(
    "EngineText", "%1 against %2: every member must give its part of the same %3");
inline constexpr const char *kPartialsSameSlice = RANKSTEP_SENTENCE(
    "EngineText",
    "two members hold terms of the same slice (%1): sum them over the tensor group, "
    "model.group(\"tensor\"), whose ranks hold each slice once");
// The same slice summed over the tensor group itself: its ranks loaded one slice, not each its own.
inline constexpr const char *kPartialsSameSliceTensorGroup = RANKSTEP_SENTENCE(
    "EngineText",
    "two members of the tensor group hold terms of the same slice (%1): each rank loads its own "
    "slice, load_weights(layer, model.coords[\"tensor\"], model.TENSOR, split=\"tensor\")");
inline constexpr const char *kBackwardBlock = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: the gradient is of %2, so this backward runs that block and needs the activation its "
    "forward took (at %3), not the one at %4");
inline constexpr const char *kAtLayerInput = RANKSTEP_SENTENCE("EngineText", "layer %1's input");
inline constexpr const char *kAfterAttention =
    RANKSTEP_SENTENCE("EngineText", "layer %1 after its attention block");
inline constexpr const char *kUpdateOneBlock =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the weight gradient covers only the %2 block of the slice; add the "
                      "other block's gradient first (model.add)");
inline constexpr const char *kAttentionBlock = RANKSTEP_SENTENCE("EngineText", "attention");
inline constexpr const char *kMlpBlock = RANKSTEP_SENTENCE("EngineText", "MLP");
inline constexpr const char *kSliceMixed = RANKSTEP_SENTENCE(
    "EngineText", "%1: a tensor-parallel slice and a ZeRO shard do not mix (%2 against %3)");
inline constexpr const char *kSplitUnknown =
    RANKSTEP_SENTENCE("EngineText", "%1: split must be \"tensor\" or None, not %2");
inline constexpr const char *kCannotJoin = RANKSTEP_SENTENCE(
    "EngineText", "%1: the value of rank %2 cannot be joined with the others: %3");
// The experts of a mixture-of-experts layer (core/experts.cpp).
inline constexpr const char *kNoExperts = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: this run has no experts: lay its ranks out with --expert E (lesson.json \"expert\")");
inline constexpr const char *kExpertNotExist =
    RANKSTEP_SENTENCE("EngineText", "%1: there is no expert %2; the experts are %3");
inline constexpr const char *kExpertNotHeld =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: rank %2 holds expert %3 of each expert layer (its expert coordinate), "
                      "not expert %4: the tokens for expert %4 go with alltoall to the rank that "
                      "holds it");
inline constexpr const char *kExpertWrongTokens =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the router sends %2 to expert %3, but this weight is expert %4's: send "
                      "each token to the rank of its expert with an alltoall over "
                      "model.group(\"expert\") first");
inline constexpr const char *kUpdateExpertGrad = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: the weight is expert %2's, but the weight gradient is not: backward with "
    "expert %2's weight makes its gradient, and so does backward_weight when "
    "given that weight");
inline constexpr const char *kUpdateDenseGrad = RANKSTEP_SENTENCE(
    "EngineText", "%1: the weight gradient is expert %2's, but the weight is no expert's");
inline constexpr const char *kUpdateExpertMisses =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the weight gradient covers batches %2, but expert %3's update needs "
                      "every batch the router sends it, %4 (missing: %5)");
// Tokens that an alltoall sent to an expert and none has brought back: the loss and a dense
// layer need them home, where their sequence is (a real layer's residual adds them there).
inline constexpr const char *kTokensAway =
    RANKSTEP_SENTENCE("EngineText",
                      "%1 needs the tokens of %2 back on rank %3: they are still with expert %4 "
                      "on rank %5; combine them with alltoall first");
// alltoall's pieces (core/communication.cpp).
inline constexpr const char *kAlltoallKinds = RANKSTEP_SENTENCE(
    "EngineText", "%1: alltoall sends activations or activation gradients, not %2");
inline constexpr const char *kAlltoallOneKind =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the pieces must be of one kind and layer, but one is %2 of layer %3 "
                      "and another %4 of layer %5");
inline constexpr const char *kAlltoallSentTwice = RANKSTEP_SENTENCE(
    "EngineText", "%1: %2 would go to more than one rank; each token goes to one rank");
inline constexpr const char *kAlltoallPieces =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: give one piece (or None) for each of the %2 ranks of the group %3, "
                      "in the order of their ranks, but %4 were given");
// kAlltoallPieces in a run with experts, when the group is not the rank's expert group.
inline constexpr const char *kAlltoallPiecesExperts =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: give one piece (or None) for each of the %2 ranks of the group %3, "
                      "in the order of their ranks, but %4 were given; an expert's tokens travel "
                      "over model.group(\"expert\"), for rank %5 ranks %6");
// Members that send different things: they are at different all-to-alls (one skipped one).
inline constexpr const char *kAlltoallDifferentCalls =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: rank %2 sends %3 of layer %4 here (line %5), but rank %6 sends %7 of "
                      "layer %8 (line %9): they are at different all-to-alls. Every rank of the "
                      "group makes each alltoall, in the same order; a rank that skips one (an "
                      "expert's combine, say) meets the others at their next one");
inline constexpr const char *kAlltoallArrivesTwice = RANKSTEP_SENTENCE(
    "EngineText", "%1: %2 would come to rank %3 from more than one rank (ranks %4)");
// Context parallelism (core/context.cpp): a sequence chunk's attention and its keys and values.
// An unfinished attention's output used before it saw every chunk (blockwise attention).
inline constexpr const char *kKvMissing =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: layer %2's attention on rank %3 has the keys and values of chunks %4 "
                      "only and lacks chunks %5: pass them around the context group, "
                      "model.group(\"context\"), and continue it with %6(..., kv=[...], "
                      "so_far=...)");
inline constexpr const char *kSoFarNotUnfinished =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: so_far must be what an unfinished %2 of layer %3 on this chunk gave "
                      "(one that lacks some chunks' keys and values), not %4");
inline constexpr const char *kAttentionTooManyChunks =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: an attention over %2 chunks takes every chunk's keys and values in one "
                      "call: one continued with so_far spans at most %3 chunks");
inline constexpr const char *kKvNone =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: layer %2's %3 on rank %4 is chunk %5 of the sequence: its attention "
                      "needs every chunk's keys and values (kv=[...]), passed around the context "
                      "group, model.group(\"context\")");
inline constexpr const char *kKvOtherBatches =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the keys and values of chunk %2 are of %3, but the activation is of %4: "
                      "they come from another context group; pass them around "
                      "model.group(\"context\")");
inline constexpr const char *kKvOtherLayer = RANKSTEP_SENTENCE(
    "EngineText", "%1: the keys and values of chunk %2 are of layer %3, not of layer %4");
inline constexpr const char *kKvTwice =
    RANKSTEP_SENTENCE("EngineText", "%1: the keys and values of chunk %2 are given twice");
inline constexpr const char *kKvNotKeysValues =
    RANKSTEP_SENTENCE("EngineText", "%1: kv holds keys and values, not %2");
inline constexpr const char *kKvWholeSequence =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the activation holds the whole sequence: keys and values travel only "
                      "when the sequence is split across a context group (--context)");
inline constexpr const char *kContextSlice = RANKSTEP_SENTENCE(
    "EngineText", "%1: a sequence chunk with a tensor-parallel slice is not written yet");
inline constexpr const char *kContextSplitBackward = RANKSTEP_SENTENCE(
    "EngineText", "%1: the split backward of a sequence chunk is not written yet: use backward");
inline constexpr const char *kUpdateContextPartial =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: the weight gradient is this rank's part of the sequence only: "
                      "all-reduce it over the context group (model.group(\"context\")) or a "
                      "group that holds it first");
inline constexpr const char *kContextWrongGroup =
    RANKSTEP_SENTENCE("EngineText",
                      "%1: rank %2's weight gradient is its part of the sequence only, but the "
                      "group lacks %3 of its context group: sum it over a group that holds "
                      "model.group(\"context\")");
inline constexpr const char *kContextMixed = RANKSTEP_SENTENCE(
    "EngineText",
    "%1: some weight gradients are parts of the sequence and some are not: sum like with like");
inline constexpr const char *kAKeysValues = RANKSTEP_SENTENCE("EngineText", "keys and values");
inline constexpr const char *kNeverAwaited =
    RANKSTEP_SENTENCE("EngineText",
                      "%1 was started here but never awaited: its result is lost, and the rank's "
                      "step ended without waiting for it");
inline constexpr const char *kOfGroup = RANKSTEP_SENTENCE("EngineText", "%1 of group %2");
inline constexpr const char *kReceiveFromRank =
    RANKSTEP_SENTENCE("EngineText", "receive from rank %1");
inline constexpr const char *kReceiveFromAnyRank =
    RANKSTEP_SENTENCE("EngineText", "receive from any rank");
inline constexpr const char *kAddsWeightGrads =
    RANKSTEP_SENTENCE("EngineText", "+ adds weight gradients, but got %1 and %2");
inline constexpr const char *kAddSameLayer = RANKSTEP_SENTENCE(
    "EngineText", "+ needs weight gradients of the same layer, but got layers %1 and %2");
inline constexpr const char *kAddSameShards = RANKSTEP_SENTENCE(
    "EngineText",
    "+ needs weight gradients of the same shards, but got shards %1 of %2 and %3 of %4");
inline constexpr const char *kCombineKinds =
    RANKSTEP_SENTENCE("EngineText",
                      "combine joins shards of weights, optimizer states or weight gradients, not "
                      "of %1");
inline constexpr const char *kCombineOneKind =
    RANKSTEP_SENTENCE("EngineText", "combine needs two objects of one kind, but got %1 and %2");
inline constexpr const char *kCombineSameLayer =
    RANKSTEP_SENTENCE("EngineText", "combine needs %1 of the same layer, but got layers %2 and %3");
inline constexpr const char *kCombineSameSplit = RANKSTEP_SENTENCE(
    "EngineText", "combine needs shards of the same split, but got shards of %1 and of %2");
inline constexpr const char *kCombineSameStep =
    RANKSTEP_SENTENCE("EngineText",
                      "combine needs %1 at the same step, but got steps %2 and %3: a shard not "
                      "updated is not part of an updated whole");
inline constexpr const char *kCombineSameBatches = RANKSTEP_SENTENCE(
    "EngineText",
    "combine needs weight gradients of the same batches, but got %1 and %2: each shard of the "
    "result would claim batches it holds no gradient for (add gradients with +)");
inline constexpr const char *kCombineSameParts = RANKSTEP_SENTENCE(
    "EngineText", "combine needs shards of the same part of the model, but got %1 and %2");
inline constexpr const char *kShardKinds = RANKSTEP_SENTENCE(
    "EngineText", "only weights, optimizer states and weight gradients can be sharded, not %1");
inline constexpr const char *kShardOfNotExist = RANKSTEP_SENTENCE(
    "EngineText", "shard %1 of %2 does not exist: shards run from 0 to total - 1");
inline constexpr const char *kShardNeedsComplete =
    RANKSTEP_SENTENCE("EngineText", "shard needs a complete %1, but this one holds only %2");

// A syntax error's place, after Python's own words (core/python/py/_rankstep_support.py), and a
// real run's error (cli/realcommand.cpp).
inline constexpr const char *kAtLineColumn =
    RANKSTEP_SENTENCE("EngineText", "%1 (line %2, column %3)");
inline constexpr const char *kErrorAtRankLine =
    RANKSTEP_SENTENCE("EngineText", "Error (rank %1, line %2): %3");

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
inline constexpr const char *kWeights = RANKSTEP_SENTENCE("EngineText", "weights");
inline constexpr const char *kOptStates = RANKSTEP_SENTENCE("EngineText", "optimizer states");
inline constexpr const char *kActivations = RANKSTEP_SENTENCE("EngineText", "activations");
inline constexpr const char *kActivationGrads =
    RANKSTEP_SENTENCE("EngineText", "activation gradients");
inline constexpr const char *kWeightGrads = RANKSTEP_SENTENCE("EngineText", "weight gradients");

} // namespace sentence
} // namespace rankstep::core
