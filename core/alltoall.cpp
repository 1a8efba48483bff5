// SPDX-License-Identifier: MIT
// Engine: alltoall, where each member of a group sends a piece to every member (an expert layer's
// tokens go out to the ranks holding their experts and come back; docs/simulation.md, "Expert
// parallelism").
#include "attention.h"
#include "engine.h"
#include "layout.h"
#include "sentences.h"

#include <algorithm>

namespace rankstep::core {
namespace {

bool carriesTokens(ObjectKind kind)
{
    return kind == ObjectKind::Activation || kind == ObjectKind::ActivationGrad;
}

std::string batchesText(const IndexSet &batches)
{
    return describeSet(batches, "batch", "batches");
}

// What a rank sends in all: its pieces joined, checked to be tokens of one kind and layer, each
// batch in one piece. Without any piece, an activation of `layer` without batches. The error's
// message only: the caller knows the rank and line.
Result<Object> piecesSent(const CallName &call, const std::vector<std::optional<Object>> &pieces,
                          int layer)
{
    std::optional<Object> sent;
    for (const std::optional<Object> &piece : pieces) {
        if (!piece)
            continue;
        if (!carriesTokens(piece->kind))
            return Error{ErrorKind::Check, -1, 0,
                         say(sentence::kAlltoallKinds, {call.str(), kindsPhrase(piece->kind)})};
        if (!sent) {
            sent = *piece;
            continue;
        }
        if (piece->kind != sent->kind || piece->layer != sent->layer)
            return Error{ErrorKind::Check, -1, 0,
                         say(sentence::kAlltoallOneKind,
                             {call.str(), aKindPhrase(sent->kind), std::to_string(sent->layer),
                              aKindPhrase(piece->kind), std::to_string(piece->layer)})};
        if (const IndexSet twice = sent->batches & piece->batches; !twice.empty())
            return Error{ErrorKind::Check, -1, 0,
                         say(sentence::kAlltoallSentTwice, {call.str(), batchesText(twice)})};
        sent->batches |= piece->batches;
    }
    if (sent)
        return *sent;
    Object nothing;
    nothing.kind = ObjectKind::Activation;
    nothing.layer = layer;
    return nothing;
}

} // namespace

Status Engine::alltoall(CallSite at, std::vector<std::optional<Object>> pieces, int layer,
                        std::vector<int> group)
{
    Result<std::int64_t> joined =
        joinAlltoall(at, std::move(pieces), layer, std::move(group), false);
    return joined ? okStatus() : Status(joined.error());
}

Result<std::int64_t> Engine::alltoallStart(CallSite at, std::vector<std::optional<Object>> pieces,
                                           int layer, std::vector<int> group)
{
    return joinAlltoall(at, std::move(pieces), layer, std::move(group), true);
}

Result<std::int64_t> Engine::joinAlltoall(CallSite at, std::vector<std::optional<Object>> &&pieces,
                                          int layer, std::vector<int> &&group, bool nonBlocking)
{
    const CallName call{OpKind::AllToAll, layer};
    for (const std::optional<Object> &piece : pieces)
        if (piece && isUnfinishedAttention(*piece)) {
            if (auto s = admit(at, opName(OpKind::AllToAll)); !s)
                return s.error();
            return checkAttended(at, call, *piece).error();
        }
    Result<Object> sent = piecesSent(call, pieces, layer);
    if (!sent) {
        if (auto s = admit(at, opName(OpKind::AllToAll)); !s)
            return s.error();
        return checkError(at, sent.error().message);
    }
    return join(at, OpKind::AllToAll, Payload{std::move(*sent)}, layer, std::move(group),
                nonBlocking, &pieces);
}

Result<Engine::Reduced> Engine::exchangePieces(const Collective &collective)
{
    const std::vector<int> &members = m_groups[std::size_t(collective.groupId)];
    const CallName call{collective.op, collective.layer};
    if (std::optional<Error> different = differentAlltoalls(collective))
        return *different;
    Reduced exchanged;
    exchanged.pieces.reserve(members.size());
    for (std::size_t to = 0; to < members.size(); ++to) {
        std::optional<Object> got;
        std::vector<int> senders;
        for (std::size_t from = 0; from < members.size(); ++from) {
            const std::optional<Object> &piece = collective.arrivals[from].pieces[to];
            if (!piece || piece->batches.empty())
                continue;
            senders.push_back(members[from]);
            if (!got) {
                got = *piece;
                continue;
            }
            const Arrival &arrival = collective.arrivals[from];
            if (piece->kind != got->kind || piece->layer != got->layer)
                return Error{
                    ErrorKind::Check, members[from], arrival.line,
                    say(sentence::kCannotJoin,
                        {call.str(), std::to_string(members[from]),
                         say(sentence::kAlltoallOneKind,
                             {call.str(), aKindPhrase(got->kind), std::to_string(got->layer),
                              aKindPhrase(piece->kind), std::to_string(piece->layer)})})};
            if (const IndexSet twice = got->batches & piece->batches; !twice.empty())
                return Error{ErrorKind::Check, members[from], arrival.line,
                             say(sentence::kAlltoallArrivesTwice,
                                 {call.str(), batchesText(twice), std::to_string(members[to]),
                                  formatSet(IndexSet::fromVector(senders))})};
            got->batches |= piece->batches;
        }
        if (!got) {
            got = Object{};
            got->kind = ObjectKind::Activation;
            got->layer = collective.layer;
        }
        exchanged.pieces.push_back(std::move(*got));
    }
    return exchanged;
}

std::optional<Error> Engine::differentAlltoalls(const Collective &collective) const
{
    const std::vector<int> &members = m_groups[std::size_t(collective.groupId)];
    const std::vector<Arrival> &arrivals = collective.arrivals;
    std::optional<std::size_t> first;
    for (std::size_t i = 0; i < members.size(); ++i) {
        const Object &sent = std::get<Object>(arrivals[i].value);
        if (sent.batches.empty())
            continue; // sent nothing: no kind to compare
        if (!first) {
            first = i;
            continue;
        }
        const Object &other = std::get<Object>(arrivals[*first].value);
        if (sent.kind == other.kind && sent.layer == other.layer)
            continue;
        return Error{ErrorKind::Check, members[i], arrivals[i].line,
                     say(sentence::kAlltoallDifferentCalls,
                         {CallName{collective.op, collective.layer}.str(),
                          std::to_string(members[*first]), kindsPhrase(other.kind),
                          std::to_string(other.layer), std::to_string(arrivals[*first].line),
                          std::to_string(members[i]), kindsPhrase(sent.kind),
                          std::to_string(sent.layer), std::to_string(arrivals[i].line)})};
    }
    return std::nullopt;
}

std::string Engine::expertGroupHint(int rank, const std::vector<int> &group) const
{
    if (config().layout.expert <= 1)
        return {};
    const RankLayout layout(ranks(), config().layout);
    if (layout.data() <= 0)
        return {};
    const std::vector<int> experts = layout.group(rank, Axis::Expert);
    std::vector<int> sorted = group;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> expertsSorted = experts;
    std::sort(expertsSorted.begin(), expertsSorted.end());
    if (sorted == expertsSorted)
        return {};
    return formatSet(IndexSet::fromVector(experts));
}

std::int64_t Engine::mostSentToOthers(const Collective &collective) const
{
    const Sizes &sizes = config().cost.sizes;
    std::int64_t most = 0;
    for (std::size_t from = 0; from < collective.arrivals.size(); ++from) {
        std::int64_t bytes = 0;
        const std::vector<std::optional<Object>> &pieces = collective.arrivals[from].pieces;
        for (std::size_t to = 0; to < pieces.size(); ++to)
            if (to != from && pieces[to])
                bytes += memoryOf(*pieces[to], sizes);
        most = std::max(most, bytes);
    }
    return most;
}

} // namespace rankstep::core
