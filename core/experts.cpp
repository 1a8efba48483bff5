// SPDX-License-Identifier: MIT
// Engine: the experts of a mixture-of-experts layer (docs/simulation.md, "Expert parallelism"):
// which rank may load which expert, and which tokens an expert's weight may compute on.
#include "engine.h"
#include "layout.h"
#include "router.h"
#include "sentences.h"

#include <map>
#include <optional>
#include <vector>

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

Status Engine::checkTokensHome(CallSite at, const CallName &op, const IndexSet &batches) const
{
    const std::map<int, int> &away = m_ranks[std::size_t(at.rank)].tokensAway;
    if (away.empty())
        return okStatus();
    // The away tokens of the first home among them: one rank named, one combine to make.
    std::optional<int> home;
    IndexSet theirs;
    for (int batch : batches.toVector()) {
        const auto it = away.find(batch);
        if (it == away.end() || (home && it->second != *home))
            continue;
        home = it->second;
        theirs |= IndexSet{batch};
    }
    if (!home)
        return okStatus();
    const int expert = RankLayout(ranks(), config().layout).coords(at.rank).expert;
    return checkError(at,
                      say(sentence::kTokensAway,
                          {op.str(), describeSet(theirs, "batch", "batches"), std::to_string(*home),
                           std::to_string(expert), std::to_string(at.rank)}));
}

void Engine::moveTokens(const Collective &collective)
{
    if (config().layout.expert <= 1)
        return;
    const std::vector<int> &members = m_groups[std::size_t(collective.groupId)];
    // Every move read before any is made: a rank both sends and receives.
    struct Move {
        int batch, from, to, home;
    };
    std::vector<Move> moves;
    for (std::size_t from = 0; from < members.size(); ++from) {
        const std::vector<std::optional<Object>> &pieces = collective.arrivals[from].pieces;
        const std::map<int, int> &away = m_ranks[std::size_t(members[from])].tokensAway;
        for (std::size_t to = 0; to < pieces.size() && to < members.size(); ++to) {
            if (to == from || !pieces[to])
                continue; // a rank's piece for itself stays where it is
            for (int batch : pieces[to]->batches.toVector()) {
                const auto it = away.find(batch);
                moves.push_back({batch, members[from], members[to],
                                 it == away.end() ? members[from] : it->second});
            }
        }
    }
    for (const Move &move : moves)
        m_ranks[std::size_t(move.from)].tokensAway.erase(move.batch);
    for (const Move &move : moves)
        if (move.home != move.to)
            m_ranks[std::size_t(move.to)].tokensAway[move.batch] = move.home;
}

} // namespace rankstep::core
