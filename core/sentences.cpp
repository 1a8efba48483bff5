// SPDX-License-Identifier: MIT
#include "sentences.h"

#include "objects.h"

#include <array>

namespace rankstep::core {

std::string say(const char *pattern, std::initializer_list<std::string> args)
{
    std::string text;
    for (const char *c = pattern; *c; ++c) {
        const std::size_t index =
            c[0] == '%' && c[1] >= '1' && c[1] <= '9' ? std::size_t(c[1] - '1') : args.size();
        if (index < args.size()) {
            text += *(args.begin() + index);
            ++c;
        } else {
            text += *c;
        }
    }
    return text;
}

std::string Phrasebook::say(const char *pattern, std::initializer_list<std::string> args) const
{
    return core::say(pattern, args);
}

const Phrasebook &english()
{
    static const Phrasebook words;
    return words;
}

std::span<const char *const> sentencePatterns()
{
    static constexpr std::array patterns = {
        sentence::kDeadlock,
        sentence::kFinishedWithoutCalling,
        sentence::kLongCycleOfWaits,
        sentence::kCycleOfWaits,
        sentence::kHasFinished,
        sentence::kWaitsIn,
        sentence::kWaitsInForRank,
        sentence::kWaitsInForRanks,
        sentence::kRankWaitsForIt,
        sentence::kRanksWaitForIt,
        sentence::kFinishedRank,
        sentence::kStoppedRank,
        sentence::kNotStartedRank,
        sentence::kCutShortRank,
        sentence::kStoppedWithoutCallingOne,
        sentence::kStoppedWithoutCallingMany,
        sentence::kMismatch,
        sentence::kMismatchCalled,
        sentence::kMismatchFinished,
        sentence::kMismatchNotYet,
        sentence::kNotReachedYet,
        sentence::kStoppedWhileRank,
        sentence::kStopped,
        sentence::kStoppedWhileLoading,
        sentence::kStoppedWhileCompiling,
        sentence::kTimeLimitWhileRank,
        sentence::kTimeLimit,
        sentence::kTimeLimitWhileLoading,
        sentence::kOnRequest,
        sentence::kAtTimeLimit,
        sentence::kBudget,
        sentence::kRecordFull,
        sentence::kArgumentMustBe,
        sentence::kOnlyArgumentMustBe,
        sentence::kWeightOfOtherLayer,
        sentence::kWeightIncomplete,
        sentence::kWeightIncompleteNotSlice,
        sentence::kActivationOfOtherLayer,
        sentence::kUpdateMissesBatch,
        sentence::kUpdateMissesBatches,
        sentence::kAllreduceFirst,
        sentence::kRanksCoverEveryBatch,
        sentence::kAddBatchesFirst,
        sentence::kRankNotInRun,
        sentence::kRankNotExist,
        sentence::kLayerNotExist,
        sentence::kBatchNotExist,
        sentence::kBatchesNotExist,
        sentence::kShardNotExist,
        sentence::kNoSuchKey,
        sentence::kNoKeyHolds,
        sentence::kNoKeyEmpty,
        sentence::kNoKeyToDeleteHolds,
        sentence::kNoKeyToDeleteEmpty,
        sentence::kKeyOutOfRange,
        sentence::kHeldOutsideRecompute,
        sentence::kHeldOutside,
        sentence::kGroupNamesRank,
        sentence::kNotInGroup,
        sentence::kBackwardActivationLayer,
        sentence::kBackwardGradLayer,
        sentence::kTheLoss,
        sentence::kBackwardAtLayer,
        sentence::kBackwardBatches,
        sentence::kLossNeedsOutput,
        sentence::kUpdateOtherLayer,
        sentence::kUpdateShardWithoutGrad,
        sentence::kUpdateShards,
        sentence::kIsWhole,
        sentence::kHolds,
        sentence::kUpdateSteps,
        sentence::kFinalMustBeWeight,
        sentence::kFinalOtherLayer,
        sentence::kAwaitedTwice,
        sentence::kCollectiveOnObjects,
        sentence::kAllgatherKinds,
        sentence::kSumsGradients,
        sentence::kPartialUsed,
        sentence::kSequenceShardUsed,
        sentence::kPartialWrongGroup,
        sentence::kSumsPartials,
        sentence::kGathersSequence,
        sentence::kPartialsDiffer,
        sentence::kPartialsSameSlice,
        sentence::kPartialsSameSliceTensorGroup,
        sentence::kBackwardBlock,
        sentence::kUpdateOneBlock,
        sentence::kSliceMixed,
        sentence::kSplitUnknown,
        sentence::kCannotJoin,
        sentence::kNoExperts,
        sentence::kExpertNotExist,
        sentence::kExpertNotHeld,
        sentence::kExpertWrongTokens,
        sentence::kUpdateExpertGrad,
        sentence::kUpdateDenseGrad,
        sentence::kUpdateExpertMisses,
        sentence::kTokensAway,
        sentence::kAlltoallKinds,
        sentence::kAlltoallOneKind,
        sentence::kAlltoallSentTwice,
        sentence::kAlltoallPieces,
        sentence::kAlltoallPiecesExperts,
        sentence::kAlltoallDifferentCalls,
        sentence::kAlltoallArrivesTwice,
        sentence::kKvMissing,
        sentence::kSoFarNotUnfinished,
        sentence::kAttentionTooManyChunks,
        sentence::kKvNone,
        sentence::kKvOtherBatches,
        sentence::kKvOtherLayer,
        sentence::kKvTwice,
        sentence::kKvNotKeysValues,
        sentence::kKvWholeSequence,
        sentence::kContextSlice,
        sentence::kContextSplitBackward,
        sentence::kUpdateContextPartial,
        sentence::kContextWrongGroup,
        sentence::kContextMixed,
        sentence::kNeverAwaited,
        sentence::kOfGroup,
        sentence::kReceiveFromRank,
        sentence::kReceiveFromAnyRank,
        sentence::kAddsWeightGrads,
        sentence::kAddSameLayer,
        sentence::kAddSameShards,
        sentence::kCombineKinds,
        sentence::kCombineOneKind,
        sentence::kCombineSameLayer,
        sentence::kCombineSameSplit,
        sentence::kCombineSameStep,
        sentence::kCombineSameBatches,
        sentence::kCombineSameParts,
        sentence::kShardKinds,
        sentence::kShardOfNotExist,
        sentence::kShardNeedsComplete,
        sentence::kAtLineColumn,
        sentence::kErrorAtRankLine,
        sentence::kAddCountsTwice,
        sentence::kAddCountsTwiceMany,
        sentence::kAllreduceCounts,
        sentence::kAllreduceCountsMany,
        sentence::kCheckProblem,
        sentence::kCheckProblems,
        sentence::kNumbersAnd,
        sentence::kNoFinalWeight,
        sentence::kNeverUpdated,
        sentence::kFinalAtStep,
        sentence::kShardsNeverUpdated,
        sentence::kCorrect,
        sentence::kQuizOutcome,
        sentence::kQuizFinishes,
        sentence::kQuizHangs,
        sentence::kQuizErrors,
        sentence::kQuizFinishedAt,
        sentence::kQuizHung,
        sentence::kQuizHungIn,
        sentence::kQuizRankErrs,
        sentence::kQuizARankErrs,
        sentence::kQuizIdle,
        sentence::kQuizIdleReveal,
        sentence::kQuizAppears,
        sentence::kQuizNowHolds,
        sentence::kQuizMovesNext,
        sentence::kQuizStartsNext,
        sentence::kQuizDoes,
        sentence::kOfLayer,
        sentence::kOfTheInput,
        sentence::kToRank,
        sentence::kFromRank,
        sentence::kUpdatedOnce,
        sentence::kUpdatedTimes,
        sentence::kWhole,
        sentence::kOneShardOf,
        sentence::kWeight,
        sentence::kOptState,
        sentence::kActivation,
        sentence::kActivationGrad,
        sentence::kWeightGrad,
        sentence::kOneRank,
        sentence::kManyRanks,
        sentence::kOneBatch,
        sentence::kManyBatches,
        sentence::kOneLayer,
        sentence::kManyLayers,
        sentence::kShardsOf,
        sentence::kAtLayerInput,
        sentence::kAfterAttention,
        sentence::kAttentionBlock,
        sentence::kMlpBlock,
        sentence::kSecond,
        sentence::kThird,
        sentence::kFourth,
        sentence::kAWeight,
        sentence::kAnOptState,
        sentence::kAnActivation,
        sentence::kAnActivationGrad,
        sentence::kAWeightGrad,
        sentence::kWeights,
        sentence::kOptStates,
        sentence::kActivations,
        sentence::kActivationGrads,
        sentence::kWeightGrads,
        sentence::kAKeysValues,
    };
    return patterns;
}

const char *aKindPhrase(ObjectKind kind)
{
    switch (kind) {
        case ObjectKind::Weight:
            return sentence::kAWeight;
        case ObjectKind::OptState:
            return sentence::kAnOptState;
        case ObjectKind::Activation:
            return sentence::kAnActivation;
        case ObjectKind::ActivationGrad:
            return sentence::kAnActivationGrad;
        case ObjectKind::WeightGrad:
            return sentence::kAWeightGrad;
        case ObjectKind::KeysValues:
            return sentence::kAKeysValues;
    }
    return sentence::kAWeight;
}

const char *kindsPhrase(ObjectKind kind)
{
    switch (kind) {
        case ObjectKind::Weight:
            return sentence::kWeights;
        case ObjectKind::OptState:
            return sentence::kOptStates;
        case ObjectKind::Activation:
            return sentence::kActivations;
        case ObjectKind::ActivationGrad:
            return sentence::kActivationGrads;
        case ObjectKind::WeightGrad:
            return sentence::kWeightGrads;
        case ObjectKind::KeysValues:
            return sentence::kAKeysValues;
    }
    return sentence::kWeights;
}

} // namespace rankstep::core
