// SPDX-License-Identifier: MIT
// Engine: collectives and point-to-point messages.
#include "algebra.h"
#include "engine.h"
#include "layout.h"
#include "limits.h"
#include "sentences.h"

#include <algorithm>
#include <map>

namespace rankstep::core {
namespace {

std::string ranksText(const std::vector<int> &ranks)
{
    return describeSet(IndexSet::fromVector(ranks), "rank", "ranks");
}

const Object *objectIn(const Payload &payload)
{
    return std::get_if<Object>(&payload);
}

} // namespace

Status Engine::allreduce(CallSite at, Payload value, int layer, std::vector<int> group)
{
    return collective(at, OpKind::AllReduce, std::move(value), layer, std::move(group));
}

Status Engine::allgather(CallSite at, Payload value, int layer, std::vector<int> group)
{
    return collective(at, OpKind::AllGather, std::move(value), layer, std::move(group));
}

Status Engine::scatterreduce(CallSite at, Payload value, int layer, std::vector<int> group)
{
    return collective(at, OpKind::ScatterReduce, std::move(value), layer, std::move(group));
}

Result<int> Engine::groupIdFor(CallSite at, const CallName &op, std::vector<int> &&group)
{
    if (group.empty())
        return 0;
    // The group this rank last joined a collective of, as it was checked then (the cache is the
    // rank's own: being in the group is the rank's check).
    if (const int last = m_ranks[std::size_t(at.rank)].lastGroup;
        last != 0 && group == m_groups[std::size_t(last)])
        return last;
    std::sort(group.begin(), group.end());
    group.erase(std::unique(group.begin(), group.end()), group.end());
    for (int member : group)
        if (member < 0 || member >= ranks())
            return checkError(at, say(sentence::kGroupNamesRank,
                                      {op.str(), std::to_string(member), ranksText(m_groups[0])}));
    if (!std::binary_search(group.begin(), group.end(), at.rank))
        return checkError(
            at, say(sentence::kNotInGroup, {op.str(), std::to_string(at.rank), ranksText(group)}));
    if (group == m_groups[0])
        return 0;
    // Found before anything is made: an emplace made a node and a copy of the group at every
    // call, to throw them away when the group was known.
    if (const auto it = m_groupIds.find(group); it != m_groupIds.end())
        return it->second;
    const int id = int(m_groups.size());
    m_groupIds.emplace(group, id);
    m_groups.push_back(std::move(group));
    return id;
}

std::int64_t Engine::nextPosition(RankState &self, int groupId)
{
    if (groupId == 0)
        return self.collectivesOfAll++;
    if (groupId != self.lastGroup) {
        if (self.lastGroup != 0)
            self.collectivesPerGroup[self.lastGroup] = self.lastGroupJoined;
        const auto it = self.collectivesPerGroup.find(groupId);
        self.lastGroupJoined = it == self.collectivesPerGroup.end() ? 0 : it->second;
        self.lastGroup = groupId;
    }
    return self.lastGroupJoined++;
}

Status Engine::collective(CallSite at, OpKind op, Payload &&value, int layer,
                          std::vector<int> &&group)
{
    Result<std::int64_t> joined = join(at, op, std::move(value), layer, std::move(group), false);
    return joined ? okStatus() : Status(joined.error());
}

Result<std::int64_t> Engine::startCollective(CallSite at, OpKind op, Payload value, int layer,
                                             std::vector<int> group)
{
    return join(at, op, std::move(value), layer, std::move(group), true);
}

Status Engine::awaitCollective(CallSite at, std::int64_t handle)
{
    if (auto s = admit(at, "await"); !s)
        return s;
    RankState &self = m_ranks[std::size_t(at.rank)];
    auto it = self.started.find(handle);
    if (it == self.started.end())
        return checkError(at, sentence::kAwaitedTwice);
    Started &started = it->second;
    if (started.complete) {
        self.clock = std::max(self.clock, started.end);
        self.result = std::move(started.result);
        self.started.erase(it);
        self.comm = CommState::Ready;
        return okStatus();
    }
    self.comm = CommState::Pending;
    self.pending = Pending{started.op,       started.layer,  started.groupId,
                           started.instance, started.source, at.line};
    self.awaiting = handle;
    return okStatus();
}

const Engine::Arrival &Engine::Collective::arrivalOf(int rank) const
{
    for (const Arrival &arrival : arrivals)
        if (arrival.rank == rank)
            return arrival;
    return arrivals.front(); // never: every member arrived before a collective completes
}

// What a collective takes: allgather shards (of weight-like objects or of the sequence), the sums
// weight gradients or partial activations (gradients).
Status Engine::checkCollectiveValue(CallSite at, OpKind op, const CallName &call,
                                    const Object &object) const
{
    const bool activationLike = hasBatches(object.kind) && object.kind != ObjectKind::WeightGrad;
    if (op == OpKind::AllGather) {
        if (hasShards(object.kind) || object.isSequenceShard())
            return okStatus();
        if (activationLike && object.partial)
            return checkWhole(at, call, object);
        return checkError(
            at, say(activationLike ? sentence::kGathersSequence : sentence::kAllgatherKinds,
                    {call.str(), activationLike ? std::string(kindWords(object.kind))
                                                : kindsPhrase(object.kind)}));
    }
    if (object.kind == ObjectKind::WeightGrad || object.partial)
        return okStatus();
    if (activationLike)
        return object.isSequenceShard() ? checkWhole(at, call, object)
                                        : checkError(at, say(sentence::kSumsPartials,
                                                             {call.str(), kindWords(object.kind)}));
    return checkError(at, say(sentence::kSumsGradients, {call.str(), kindsPhrase(object.kind)}));
}

Result<std::int64_t> Engine::join(CallSite at, OpKind op, Payload &&value, int layer,
                                  std::vector<int> &&group, bool nonBlocking,
                                  std::vector<std::optional<Object>> *pieces)
{
    if (auto s = admit(at, opName(op)); !s)
        return s.error();
    const CallName call{op, layer};
    const Object *object = objectIn(value);
    if (!object)
        return checkError(at, say(sentence::kCollectiveOnObjects,
                                  {call.str(), std::holds_alternative<Foreign>(value)
                                                   ? std::get<Foreign>(value).description
                                                   : std::string("None")}));
    if (auto s = checkAttended(at, call, *object); !s)
        return s.error();
    if (op == OpKind::AllToAll) {
        if (!pieces) // all-to-all takes a piece per member (core/alltoall.cpp)
            return checkError(
                at, say(sentence::kSumsGradients, {call.str(), kindsPhrase(object->kind)}));
    } else if (auto s = checkCollectiveValue(at, op, call, *object); !s) {
        return s.error();
    }
    Result<int> groupId = groupIdFor(at, call, std::move(group));
    if (!groupId)
        return groupId.error();
    // A partial sum or a sequence shard is of one tensor group: its size is the object's total.
    if (op != OpKind::AllToAll && (object->partial || object->isSequenceShard()) &&
        m_groups[std::size_t(*groupId)].size() != std::size_t(object->total))
        return checkError(at,
                          say(sentence::kPartialWrongGroup,
                              {call.str(), kindWords(object->kind), std::to_string(object->total),
                               std::to_string(m_groups[std::size_t(*groupId)].size())}));
    if (const std::vector<int> &members = m_groups[std::size_t(*groupId)];
        pieces && pieces->size() != members.size()) {
        // In a run with experts, a group that is not the rank's experts' is named with theirs.
        const std::string experts = expertGroupHint(at.rank, members);
        return checkError(
            at, say(experts.empty() ? sentence::kAlltoallPieces : sentence::kAlltoallPiecesExperts,
                    {call.str(), std::to_string(members.size()),
                     formatSet(IndexSet::fromVector(members)), std::to_string(pieces->size()),
                     std::to_string(at.rank), experts}));
    }
    RankState &self = m_ranks[std::size_t(at.rank)];
    const std::int64_t position = nextPosition(self, *groupId);
    auto [it, fresh] = m_open.try_emplace({*groupId, position});
    Collective &instance = it->second;
    if (fresh) {
        const std::size_t members = m_groups[std::size_t(*groupId)].size();
        instance = Collective{op,
                              layer,
                              *groupId,
                              m_nextCollective++,
                              std::move(m_spareArrived),
                              std::move(m_spareArrivals)};
        instance.arrived.clear();
        instance.arrived.reserve(members);
        // A place per member, in the group's order (its ranks ascending): rank -1 until it comes.
        // The last collective's places, when as many, are only marked: each field is written
        // when its member comes, and nothing reads a place before (ending and making every
        // value again took 2.6 % of Pipeline + FSDP's time).
        if (instance.arrivals.size() != members) {
            instance.arrivals.clear();
            instance.arrivals.resize(members);
        }
        for (Arrival &arrival : instance.arrivals)
            arrival.rank = -1;
    } else if (instance.op != op || instance.layer != layer) {
        self.comm = CommState::Pending;
        self.pending = Pending{op, layer, *groupId, position, std::nullopt, at.line};
        Diagnosis diagnosis{ErrorKind::Mismatch, {}};
        const auto arrivedAt = [&](int member) {
            return member == at.rank || std::find(instance.arrived.begin(), instance.arrived.end(),
                                                  member) != instance.arrived.end();
        };
        // Only the ranks that did reach it: the others are listed below as not there yet.
        std::vector<int> reached;
        for (int member : m_groups[std::size_t(*groupId)])
            if (arrivedAt(member))
                reached.push_back(member);
        std::string message = say(sentence::kMismatch,
                                  {ranksText(reached), ranksText(m_groups[std::size_t(*groupId)])});
        for (int member : m_groups[std::size_t(*groupId)]) {
            const RankState &rank = m_ranks[std::size_t(member)];
            const bool arrived = arrivedAt(member);
            const bool self_ = member == at.rank;
            RankWait wait{member, rank.finished, rank.lastLine, {}, {}};
            const int line = self_ ? at.line : arrived ? instance.arrivalOf(member).line : 0;
            if (arrived)
                wait.waitsFor =
                    self_ ? describeCall(op, layer) : describeCall(instance.op, instance.layer);
            else
                wait.waitsFor = rank.finished ? "" : sentence::kNotReachedYet;
            const std::string who = std::to_string(member);
            message += "\n  " + (arrived         ? say(sentence::kMismatchCalled,
                                                       {who, wait.waitsFor, std::to_string(line)})
                                 : rank.finished ? say(sentence::kMismatchFinished, {who})
                                                 : say(sentence::kMismatchNotYet, {who}));
            diagnosis.ranks.push_back(std::move(wait));
        }
        m_trace.diagnosis = std::move(diagnosis);
        fail(Error{ErrorKind::Mismatch, at.rank, at.line, message});
        return *m_fatal;
    }
    std::int64_t handle = -1;
    if (nonBlocking) {
        handle = m_nextHandle++;
        Started started;
        started.op = op;
        started.layer = layer;
        started.groupId = *groupId;
        started.instance = position;
        started.line = at.line;
        self.started.emplace(handle, std::move(started));
    } else {
        self.comm = CommState::Pending;
        self.pending = Pending{op, layer, *groupId, position, std::nullopt, at.line};
    }
    instance.arrived.push_back(at.rank);
    // The i-th place is members[i]'s: completeCollective reads them in the group's order, and
    // sorting the arrivals there moved every value (3 % of a reference puzzle's run).
    const std::vector<int> &members = m_groups[std::size_t(*groupId)];
    const std::size_t place =
        *groupId == 0 ? std::size_t(at.rank)
                      : std::size_t(std::lower_bound(members.begin(), members.end(), at.rank) -
                                    members.begin());
    // Field by field: the value is an object (checked above), made in its place, where assigning
    // a whole Arrival moved it twice through the variant's generic assignment.
    Arrival &arrival = instance.arrivals[place];
    arrival.rank = at.rank;
    arrival.value.emplace<Object>(std::move(std::get<Object>(value)));
    arrival.line = at.line;
    arrival.ready = self.clock;
    arrival.handle = handle;
    if (pieces)
        arrival.pieces = std::move(*pieces);
    else
        arrival.pieces.clear();
    if (instance.arrived.size() == m_groups[std::size_t(*groupId)].size()) {
        Collective done = std::move(instance);
        m_open.erase(it);
        completeCollective(done);
        m_spareArrived = std::move(done.arrived);
        m_spareArrivals = std::move(done.arrivals);
    }
    if (m_fatal)
        return *m_fatal;
    return handle;
}

bool Engine::isTensorGroup(const std::vector<int> &members) const
{
    const RunConfig &run = config();
    if (run.layout.tensor <= 1 || members.empty())
        return false;
    std::vector<int> sorted = members;
    std::ranges::sort(sorted);
    return sorted == RankLayout(run.ranks, run.layout).group(sorted.front(), Axis::Tensor);
}

Result<Engine::Reduced> Engine::reduceValues(const Collective &collective)
{
    if (collective.op == OpKind::AllToAll)
        return exchangePieces(collective);
    const std::vector<int> &members = m_groups[std::size_t(collective.groupId)];
    const CallName call{collective.op, collective.layer};
    std::optional<Object> total;
    IndexSet counted;
    IndexSet twice;
    // The i-th arrival is members[i]'s (join places them so).
    for (std::size_t i = 0; i < members.size(); ++i) {
        const int member = members[i];
        const Arrival &pending = collective.arrivals[i];
        const Object &value = std::get<Object>(pending.value);
        if (!total) {
            total = value;
            counted = value.batches;
            continue;
        }
        // Context members share their batches: each adds its part of the same sequences.
        const bool tensorValue = total->partial || total->isSequenceShard() || total->context;
        if (collective.op != OpKind::AllGather && !tensorValue)
            twice |= counted & value.batches;
        Status joined = total->partial                       ? sumPartialInto(*total, value)
                        : total->isSequenceShard()           ? gatherSequenceInto(*total, value)
                        : collective.op == OpKind::AllGather ? combineInto(*total, value)
                                                             : addGradientsInto(*total, value);
        // Summed over the right group, the slices were wrong: say that instead (a failed sum
        // leaves `total` as it was, so it is tried again for its sentence alone).
        if (!joined && total->partial && isTensorGroup(members))
            joined = sumPartialInto(*total, value, true);
        if (!joined)
            return Error{ErrorKind::Check, member, pending.line,
                         say(sentence::kCannotJoin,
                             {call.str(), std::to_string(member), joined.error().message})};
        counted |= value.batches;
    }
    if (!twice.empty())
        warnCountedTwice(collective, call.str(), twice);
    if (total->kind == ObjectKind::WeightGrad && collective.op != OpKind::AllGather)
        if (bool context = std::ranges::any_of(
                collective.arrivals,
                [](const Arrival &arrival) { return std::get<Object>(arrival.value).context; });
            context) {
            total->context = true;
            if (Status s = checkContextSum(collective, *total); !s)
                return s.error();
        }
    // A sum of partials is whole; sequence shards that cover the sequence are a whole activation.
    const bool sequencePieces = total->partial && collective.op == OpKind::ScatterReduce;
    if (total->partial || (total->isSequenceShard() && total->shards.isPrefix(total->total))) {
        total->partial = false;
        total->shards = IndexSet{};
        total->total = 1;
    }
    Reduced reduced{std::move(*total), {}};
    if (collective.op != OpKind::ScatterReduce)
        return reduced; // every member gets the total: no copy per member made here
    const int groupSize = int(members.size());
    reduced.pieces.reserve(members.size());
    for (int position = 0; position < groupSize && sequencePieces; ++position) {
        Object piece = reduced.total;
        piece.shards = IndexSet{position};
        piece.total = groupSize;
        reduced.pieces.push_back(std::move(piece));
    }
    for (int position = 0; position < groupSize && !sequencePieces; ++position) {
        Result<Object> piece = shard(reduced.total, position, groupSize);
        if (!piece)
            return Error{ErrorKind::Check, members[std::size_t(position)],
                         collective.arrivals[std::size_t(position)].line,
                         call + ": " + piece.error().message};
        reduced.pieces.push_back(std::move(*piece));
    }
    return reduced;
}

// The batches more than one member summed: which ranks hold each, and so how many times the sum
// counts it ("ranks 0-3 each hold a gradient for batch 0, so the sum counts it 4 times"), one
// warning per set of holders. Only for a sum that counts a batch twice: the common one is clean.
void Engine::warnCountedTwice(const Collective &collective, const std::string &call,
                              const IndexSet &twice)
{
    const std::vector<int> &members = m_groups[std::size_t(collective.groupId)];
    std::map<int, std::vector<std::size_t>> holders; // batch -> the arrivals holding it
    for (std::size_t i = 0; i < members.size(); ++i)
        for (int batch :
             (std::get<Object>(collective.arrivals[i].value).batches & twice).toVector())
            holders[batch].push_back(i);
    std::vector<std::pair<std::vector<std::size_t>, IndexSet>> groups; // holders, their batches
    for (const auto &[batch, arrivals] : holders) {
        auto same = std::find_if(groups.begin(), groups.end(),
                                 [&arrivals](const auto &g) { return g.first == arrivals; });
        if (same == groups.end())
            groups.push_back({arrivals, IndexSet{batch}});
        else
            same->second |= IndexSet{batch};
    }
    for (const auto &[arrivals, batches] : groups) {
        std::vector<int> ranks;
        for (std::size_t i : arrivals)
            ranks.push_back(members[i]);
        warn(CallSite{ranks.front(), collective.arrivals[arrivals.front()].line},
             say(batches.size() == 1 ? sentence::kAllreduceCounts : sentence::kAllreduceCountsMany,
                 {call, ranksText(ranks), describeSet(batches, "batch", "batches"),
                  std::to_string(ranks.size())}));
    }
}

void Engine::completeCollective(Collective &collective)
{
    const std::vector<int> &members = m_groups[std::size_t(collective.groupId)];
    // The arrivals are in the group's order (its ranks ascending): the i-th is members[i]'s. A
    // lookup per member would cost ranks x ranks per collective (FSDP at 1024 ranks: 2x slower).
    Result<Reduced> reduced = reduceValues(collective);
    if (!reduced) {
        fail(reduced.error());
        return;
    }
    if (collective.op == OpKind::AllToAll)
        moveTokens(collective);
    // Member i's result, its piece of a scatterreduce or else the total, made in its place.
    const auto giveResult = [&](std::size_t i, Payload &result) {
        if (reduced->pieces.empty())
            result.emplace<Object>(reduced->total);
        else
            result.emplace<Object>(std::move(reduced->pieces[i]));
    };
    // The communication starts when every member is there and its communication stream is free
    // (a non-blocking collective before it may still run there).
    SimTime start;
    for (std::size_t i = 0; i < members.size(); ++i) {
        const Arrival &arrival = collective.arrivals[i];
        start = std::max({start, arrival.ready, m_ranks[std::size_t(members[i])].commClock});
    }
    const CostModel &cost = config().cost;
    const auto [lowest, highest] = std::minmax_element(members.begin(), members.end());
    const SimTime duration = collectiveDuration(
        cost, collective.op,
        collective.op == OpKind::AllToAll
            ? mostSentToOthers(collective)
            : memoryOf(std::get<Object>(collective.arrivals.front().value), cost.sizes),
        int(members.size()), acrossNodes(cost, *lowest, *highest));
    for (std::size_t i = 0; i < members.size(); ++i) {
        const int member = members[i];
        RankState &rank = m_ranks[std::size_t(member)];
        const Arrival &arrival = collective.arrivals[i];
        const Object &input = std::get<Object>(arrival.value);
        const SimTime clock = rank.clock;
        rank.clock = start;
        const auto describe = [&](Event &event) {
            event.batches = input.batches;
            event.shards = input.shards;
            event.shardTotal = input.total;
            event.gradient = input.kind == ObjectKind::WeightGrad;
            event.link = std::int32_t(collective.id); // below kMostTraceLink (RunLimits)
        };
        rank.commClock = start + duration;
        if (arrival.handle < 0) { // the rank waited in it: on its compute stream
            describe(recordEvent(CallSite{member, arrival.line}, collective.op, collective.layer,
                                 duration));
            giveResult(i, rank.result);
            makeRunnable(member);
            continue;
        }
        Event event =
            makeEvent(CallSite{member, arrival.line}, collective.op, collective.layer, duration);
        describe(event);
        rank.clock = clock; // the rank went on computing
        m_trace.overlapped.push_back(std::move(event));
        Started &started = rank.started[arrival.handle];
        started.complete = true;
        started.end = start + duration;
        giveResult(i, started.result);
        if (rank.comm == CommState::Pending && rank.awaiting == arrival.handle) {
            rank.clock = std::max(rank.clock, started.end);
            rank.result = std::move(started.result);
            rank.started.erase(arrival.handle);
            rank.awaiting = -1;
            makeRunnable(member);
        }
    }
}

// A message's event: what it carries, to or from whom, and its link.
static_assert(kMostRanks - 1 <= kMostPeer, "an event's peer names every rank of a run");
void Engine::describeMessage(Event &event, const Payload &value, int peer, std::int64_t link) const
{
    if (const Object *object = objectIn(value)) {
        event.layer = object->layer;
        event.batches = object->batches;
        event.shards = object->shards;
        event.shardTotal = object->total;
        event.gradient = object->kind == ObjectKind::WeightGrad;
    }
    event.setPeer(peer);
    event.link = std::int32_t(link); // below kMostTraceLink (RunLimits)
}

Status Engine::passTo(CallSite at, int destination, Payload value)
{
    if (auto s = admit(at, "pass_to"); !s)
        return s;
    if (destination < 0 || destination >= ranks())
        return checkError(at, say(sentence::kRankNotExist, {"pass_to", std::to_string(destination),
                                                            ranksText(m_groups[0])}));
    const Object *sent = objectIn(value);
    if (sent)
        if (auto s = checkAttended(at, CallName{"pass_to", -1}, *sent); !s)
            return s;
    const CostModel &cost = config().cost;
    Event &event =
        recordEvent(at, OpKind::PassTo, -1,
                    messageDuration(cost, OpKind::PassTo, sent ? memoryOf(*sent, cost.sizes) : 0,
                                    acrossNodes(cost, at.rank, destination)));
    describeMessage(event, value, destination, m_nextMessage);
    RankState &self = m_ranks[std::size_t(at.rank)];
    self.comm = CommState::Ready;
    self.result = std::monostate{};
    deliver(destination, Message{m_nextMessage++, at.rank, self.clock, std::move(value)});
    return okStatus();
}

Status Engine::receive(CallSite at, std::optional<int> source)
{
    if (auto s = admit(at, "receive"); !s)
        return s;
    if (source && (*source < 0 || *source >= ranks()))
        return checkError(at, say(sentence::kRankNotExist,
                                  {"receive", std::to_string(*source), ranksText(m_groups[0])}));
    RankState &self = m_ranks[std::size_t(at.rank)];
    self.comm = CommState::Pending;
    self.pending = Pending{OpKind::Receive, -1, 0, -1, source, at.line};
    auto match = std::find_if(self.inbox.begin(), self.inbox.end(),
                              [&](const Message &m) { return !source || m.from == *source; });
    if (match != self.inbox.end()) {
        Message message = std::move(*match);
        self.inbox.erase(match);
        deliver(at.rank, std::move(message));
    }
    return okStatus();
}

// The sender's stream takes the message from the later of the rank's clock and the stream's end;
// the rank goes on at once, and the message is there when the pass ends.
Result<std::int64_t> Engine::passToStart(CallSite at, int destination, Payload value)
{
    if (auto s = admit(at, "pass_to_start"); !s)
        return s.error();
    if (destination < 0 || destination >= ranks())
        return checkError(
            at, say(sentence::kRankNotExist,
                    {"pass_to_start", std::to_string(destination), ranksText(m_groups[0])}));
    const Object *sent = objectIn(value);
    if (sent)
        if (auto s = checkAttended(at, CallName{"pass_to_start", -1}, *sent); !s)
            return s.error();
    const CostModel &cost = config().cost;
    RankState &self = m_ranks[std::size_t(at.rank)];
    Event event =
        makeEvent(at, OpKind::PassTo, -1,
                  messageDuration(cost, OpKind::PassTo, sent ? memoryOf(*sent, cost.sizes) : 0,
                                  acrossNodes(cost, at.rank, destination)));
    event.start = std::max(self.clock, self.commClock);
    describeMessage(event, value, destination, m_nextMessage);
    self.commClock = event.end();
    const std::int64_t handle = m_nextHandle++;
    Started started;
    started.op = OpKind::PassTo;
    started.layer = event.layer;
    started.line = at.line;
    started.complete = true;
    started.end = event.end();
    self.started.emplace(handle, std::move(started));
    const SimTime arrives = event.end();
    m_trace.overlapped.push_back(std::move(event));
    deliver(destination, Message{m_nextMessage++, at.rank, arrives, std::move(value)});
    return handle;
}

// The receive waits on the rank's stream for its message; a message already there is taken now.
Result<std::int64_t> Engine::receiveStart(CallSite at, std::optional<int> source)
{
    if (auto s = admit(at, "receive_start"); !s)
        return s.error();
    if (source && (*source < 0 || *source >= ranks()))
        return checkError(at,
                          say(sentence::kRankNotExist,
                              {"receive_start", std::to_string(*source), ranksText(m_groups[0])}));
    RankState &self = m_ranks[std::size_t(at.rank)];
    const std::int64_t handle = m_nextHandle++;
    Started started;
    started.op = OpKind::Receive;
    started.line = at.line;
    started.source = source;
    started.posted = self.clock;
    self.started.emplace(handle, std::move(started));
    auto match = std::find_if(self.inbox.begin(), self.inbox.end(),
                              [&](const Message &m) { return !source || m.from == *source; });
    if (match == self.inbox.end()) {
        self.posted.push_back(handle);
        return handle;
    }
    Message message = std::move(*match);
    self.inbox.erase(match);
    receiveStarted(at.rank, handle, std::move(message));
    return handle;
}

void Engine::receiveStarted(int rankIndex, std::int64_t handle, Message &&message)
{
    RankState &rank = m_ranks[std::size_t(rankIndex)];
    Started &started = rank.started[handle];
    const Object *received = objectIn(message.value);
    const CostModel &cost = config().cost;
    Event event = makeEvent(
        CallSite{rankIndex, started.line}, OpKind::Receive, -1,
        messageDuration(cost, OpKind::Receive, received ? memoryOf(*received, cost.sizes) : 0,
                        acrossNodes(cost, message.from, rankIndex)));
    event.start = std::max({started.posted, message.clock, rank.commClock});
    describeMessage(event, message.value, message.from, message.id);
    rank.commClock = event.end();
    started.complete = true;
    started.end = event.end();
    started.result = std::move(message.value);
    m_trace.overlapped.push_back(std::move(event));
    if (rank.comm == CommState::Pending && rank.awaiting == handle) {
        rank.clock = std::max(rank.clock, started.end);
        rank.result = std::move(started.result);
        rank.started.erase(handle);
        rank.awaiting = -1;
        makeRunnable(rankIndex);
    }
}

// Hands a message to a rank: completes the first receive_start that waits for this sender, or
// else its receive when it waits in one for this sender, else queues it.
void Engine::deliver(int rankIndex, Message &&message)
{
    RankState &rank = m_ranks[std::size_t(rankIndex)];
    for (auto it = rank.posted.begin(); it != rank.posted.end(); ++it) {
        const std::optional<int> &source = rank.started[*it].source;
        if (source && *source != message.from)
            continue;
        const std::int64_t handle = *it;
        rank.posted.erase(it);
        receiveStarted(rankIndex, handle, std::move(message));
        return;
    }
    const bool waiting = rank.comm == CommState::Pending && rank.pending.op == OpKind::Receive &&
                         rank.awaiting < 0 &&
                         (!rank.pending.source || *rank.pending.source == message.from);
    if (!waiting) {
        rank.inbox.push_back(std::move(message));
        return;
    }
    rank.clock = std::max(rank.clock, message.clock);
    const Object *received = objectIn(message.value);
    const CostModel &cost = config().cost;
    Event &event = recordEvent(
        CallSite{rankIndex, rank.pending.line}, OpKind::Receive, -1,
        messageDuration(cost, OpKind::Receive, received ? memoryOf(*received, cost.sizes) : 0,
                        acrossNodes(cost, message.from, rankIndex)));
    describeMessage(event, message.value, message.from, message.id);
    rank.result = std::move(message.value);
    makeRunnable(rankIndex);
}

void Engine::makeRunnable(int rank)
{
    m_ranks[std::size_t(rank)].comm = CommState::Ready;
    if (rank != m_current)
        m_runnable.push(rank);
}

bool Engine::resultReady(int rank) const
{
    return m_ranks[std::size_t(rank)].comm == CommState::Ready;
}

Payload Engine::takeResult(int rank)
{
    RankState &state = m_ranks[std::size_t(rank)];
    state.comm = CommState::Idle;
    return std::exchange(state.result, std::monostate{});
}

std::string Engine::describePending(const Pending &pending) const
{
    if (pending.op != OpKind::Receive) {
        std::string text = describeCall(pending.op, pending.layer);
        if (pending.groupId != 0)
            text = say(
                sentence::kOfGroup,
                {text, formatSet(IndexSet::fromVector(m_groups[std::size_t(pending.groupId)]))});
        return text;
    }
    return pending.source ? say(sentence::kReceiveFromRank, {std::to_string(*pending.source)})
                          : std::string(sentence::kReceiveFromAnyRank);
}

std::uint32_t Engine::pendingDetail(const Pending &pending)
{
    const int other = pending.op == OpKind::Receive ? pending.source.value_or(-1) : pending.groupId;
    const WaitKey key{pending.op, pending.layer, other};
    if (key == m_lastWait)
        return m_lastWaitDetail;
    const auto [it, fresh] = m_pendingDetails.try_emplace(key, 0);
    if (fresh)
        it->second = m_trace.details.addNew(describePending(pending)); // a new wait, a new text
    m_lastWait = key;
    m_lastWaitDetail = it->second;
    return it->second;
}

} // namespace rankstep::core
