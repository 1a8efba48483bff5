// SPDX-License-Identifier: MIT
// Engine: the experts of a mixture-of-experts layer (docs/simulation.md, "Expert parallelism"):
// which rank may load which expert, and which tokens an expert's weight may compute on.
#include "engine.h"
#include "layout.h"
#include "router.h"
#include "sentences.h"

namespace rankstep::core {

IndexSet Engine::batchesOfExpert(int expert) const
{
    return core::batchesOfExpert(expert, config().layout.expert, config().cost.routerSkew,
                                 config().batches);
}

Status Engine::checkExpertLoad(CallSite at, const CallName &op, int expert) const
{
    const int experts = config().layout.expert;
    if (experts <= 1)
        return checkError(at, say(sentence::kNoExperts, {op.str()}));
    if (expert < 0 || expert >= experts)
        return checkError(
            at, say(sentence::kExpertNotExist,
                    {op.str(), std::to_string(expert), formatSet(IndexSet::range(0, experts))}));
    const int held = RankLayout(ranks(), config().layout).coords(at.rank).expert;
    if (expert != held)
        return checkError(
            at, say(sentence::kExpertNotHeld, {op.str(), std::to_string(at.rank),
                                               std::to_string(held), std::to_string(expert)}));
    return okStatus();
}

Status Engine::checkExpertTokens(CallSite at, const CallName &op, const Object &weight,
                                 const IndexSet &batches) const
{
    if (weight.expert < 0)
        return okStatus();
    const IndexSet strangers = batches.minus(batchesOfExpert(weight.expert));
    if (strangers.empty())
        return okStatus();
    // The tokens of the first other expert they belong to: one expert named, one fix.
    const int other =
        expertOf(strangers.toVector().front(), config().layout.expert, config().cost.routerSkew);
    const IndexSet theirs = strangers & batchesOfExpert(other);
    return checkError(at, say(sentence::kExpertWrongTokens,
                              {op.str(), describeSet(theirs, "batch", "batches"),
                               std::to_string(other), std::to_string(weight.expert)}));
}

Status Engine::checkExpertUpdate(CallSite at, const CallName &op, const Object &weightGrad,
                                 const Object &weight) const
{
    if (weight.expert < 0 && weightGrad.expert < 0)
        return okStatus();
    if (weight.expert < 0)
        return checkError(
            at, say(sentence::kUpdateDenseGrad, {op.str(), std::to_string(weightGrad.expert)}));
    if (weightGrad.expert != weight.expert)
        return checkError(
            at, say(sentence::kUpdateExpertGrad, {op.str(), std::to_string(weight.expert)}));
    const IndexSet routed = batchesOfExpert(weight.expert);
    if (routed.isSubsetOf(weightGrad.batches))
        return okStatus();
    return checkError(at, say(sentence::kUpdateExpertMisses,
                              {op.str(), formatSet(weightGrad.batches),
                               std::to_string(weight.expert), formatSet(routed),
                               describeSet(routed.minus(weightGrad.batches), "batch", "batches")}));
}

} // namespace rankstep::core
