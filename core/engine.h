// SPDX-License-Identifier: MIT
#pragma once

#include "error.h"
#include "objects.h"
#include "runqueue.h"
#include "storage.h"
#include "trace.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace rankstep::core {

// Who calls: the rank and the learner's source line (0 when unknown).
struct CallSite {
    int rank = 0;
    int line = 0;
};

// A value that is not a puzzle object, carried by pass_to (the notebook passes strings too).
// The engine never looks inside; the handle keeps the caller's value alive.
struct Foreign {
    std::string description;
    std::shared_ptr<void> handle;
};
using Payload = std::variant<std::monostate, Object, Foreign>;

// What a rank program reports after the scheduler resumed it.
struct ProgramStep {
    enum State { Suspended, Finished, Failed } state = Finished;
    std::optional<Error> error; // with Failed
};

// A rank's code: a C++ coroutine, a Python coroutine, ... Resumed by Engine::run until it waits on
// a communication it started through the engine, finishes or fails.
class RankProgram
{
public:
    virtual ~RankProgram() = default;
    virtual ProgramStep resume() = 0;
};
using ProgramList = std::vector<std::unique_ptr<RankProgram>>;

struct RunLimits {
    // 0: as many as kMostTraceLink, which no budget passes either: an operation makes at most one
    // message or collective id, and an event's link holds the ids in 32 bits (core/trace.h).
    std::int64_t maxOperations = 0;
    // The most events, and the most storage changes, one trace records (positions are kept in
    // 32 bits, core/trace.h); a run that reaches it is stopped whatever the operation budget.
    std::size_t mostEvents = kMostTraceEvents;
    // Runs of more ranks ask the memory of their lookups ahead (core/scheduler.cpp, lookAhead),
    // which changes nothing in what they do.
    int lookAheadFromRanks = 64;
};

std::string describeCall(OpKind op, int layer);
// A time limit in seconds as the stop sentences say it: "30", "2.5".
std::string formatStopSeconds(double seconds);

// A call's name ("forward(layer 3)") made only when a message needs it: most calls succeed, and
// building the name for each took a string allocation per operation.
struct CallName {
    CallName(OpKind op, int onLayer) : name(opName(op)), layer(onLayer) {}
    CallName(const char *operation, int onLayer) : name(operation), layer(onLayer) {}
    const char *name; // the notebook's: "forward", "load_weights", ...
    int layer;        // -1: none
    std::string str() const;
    friend std::string operator+(const CallName &call, const char *text)
    {
        return call.str() + text;
    }
    friend std::string operator+(const CallName &call, const std::string &text)
    {
        return call.str() + text;
    }
};

// The simulated world: per-rank storage and clocks, the operations of docs/simulation.md with every
// check, collectives and point-to-point, and the deterministic scheduler of rank programs.
// Every failed check is an Error value naming rank, line and what was expected.
class Engine
{
public:
    explicit Engine(RunConfig config, RunLimits limits = {});

    const RunConfig &config() const { return m_trace.config; }
    int ranks() const { return m_trace.config.ranks; }
    SimTime clock(int rank) const { return m_ranks[std::size_t(rank)].clock; }
    const Storage &storage(int rank) const { return m_ranks[std::size_t(rank)].storage; }
    // storage(rank).find(map, key), for a rank's own lookups while it runs: a many-rank run looks
    // the keys up ahead in the ranks that run next (core/scheduler.cpp, lookAhead).
    const Object *find(int rank, MapKind map, const Key &key) const
    {
        if (m_lookingAhead)
            Storage::addToTrail(m_trail, map, key);
        return m_ranks[std::size_t(rank)].storage.find(map, key);
    }
    int currentRank() const { return m_current; }

    // Operations (docs/simulation.md). A failed check returns an Error and changes nothing.
    // `slice`: a tensor-parallel slice (docs/simulation.md, "Tensor and sequence parallelism").
    // `expert` >= 0: that expert's weight of a mixture-of-experts layer, which only the ranks of
    // that expert coordinate hold (docs/simulation.md, "Expert parallelism"); -1: a dense layer's.
    Result<std::pair<Object, Object>> loadWeights(CallSite at, int layer, int shard = 0,
                                                  int total = 1, bool slice = false,
                                                  int expert = -1);
    Result<Object> getActivation(CallSite at, const IndexSet &batches);
    // `kv`: on a context chunk, the keys and values of every chunk of the layer
    // (docs/simulation.md, "Context parallelism"); none on a whole sequence.
    // `soFar`: the output of an earlier call on the same chunk and layer whose attention lacked
    // some chunks' keys and values (blockwise attention, "Overlapped ring attention"); this call
    // adds `kv`'s and costs their share. An output that lacks some chunks is refused elsewhere.
    Result<Object> forward(CallSite at, int layer, const Object &activation, const Object &weight,
                           const std::vector<Object> *kv = nullptr, const Object *soFar = nullptr);
    Result<std::pair<Object, Object>> backward(CallSite at, int layer, const Object &activation,
                                               const Object &grad, const Object &weight,
                                               const std::vector<Object> *kv = nullptr,
                                               const std::pair<Object, Object> *soFar = nullptr);
    // The keys and values of a context chunk's activation at layer `layer` (no event: the
    // projection is part of the forward's time).
    Result<Object> keysValues(CallSite at, int layer, const Object &activation,
                              const Object &weight);
    // The backward split in two (docs/simulation.md, "Beyond the notebook"): the input gradient
    // (ActivationGrad of layer - 1) and the weight gradient (WeightGrad of layer).
    Result<Object> backwardInput(CallSite at, int layer, const Object &activation,
                                 const Object &grad, const Object &weight);
    // `weight` (optional) names whose gradient it is: an expert's weight gives that expert's
    // gradient, a tensor-parallel slice its slice's; without one the gradient is a dense layer's.
    Result<Object> backwardWeight(CallSite at, int layer, const Object &activation,
                                  const Object &grad, const Object *weight = nullptr);
    Result<Object> loss(CallSite at, const Object &activation);
    Result<std::pair<Object, Object>> update(CallSite at, int layer, const Object &weightGrad,
                                             const Object &weight, const Object &optState);
    Result<Object> fakeGrad(CallSite at, int layer, const IndexSet &batches);
    Status setFinalWeight(CallSite at, int layer, const Object &weight);
    // a + b, with a warning on the trace when a batch is counted twice.
    Result<Object> add(CallSite at, const Object &a, const Object &b);
    void warn(CallSite at, std::string message);
    // Records a point of interest (the learner's draw()) at the current trace position.
    void mark(CallSite at, std::string label);

    // Storage: every set and delete is recorded on the trace.
    Status store(CallSite at, MapKind map, const Key &key, const Object &object);
    Status erase(CallSite at, MapKind map, const Key &key);

    // Communication. Each starts an operation for the calling rank; when resultReady() is then
    // false the rank must suspend: the scheduler resumes it once the operation completed.
    // `group` empty means every rank. A group is a set of ranks: scatterreduce gives each member
    // the shard numbered by its position among the group's ranks in ascending order.
    Status allreduce(CallSite at, Payload value, int layer, std::vector<int> group = {});
    Status allgather(CallSite at, Payload value, int layer, std::vector<int> group = {});
    Status scatterreduce(CallSite at, Payload value, int layer, std::vector<int> group = {});
    // Each member gives one piece per member of the group (its ranks ascending; nullopt: nothing
    // for that member), activations or activation gradients of one kind and layer; each member
    // gets the pieces every member gave it, joined into one object (nothing for it: no object).
    // Experts' tokens go out and come back so (docs/simulation.md, "Expert parallelism").
    Status alltoall(CallSite at, std::vector<std::optional<Object>> pieces, int layer,
                    std::vector<int> group = {});
    // alltoall's non-blocking form (model.alltoall_start), as startCollective below: the rank
    // joins and goes on, so that an expert's dispatch can overlap with compute; its handle is
    // awaited with awaitCollective.
    Result<std::int64_t> alltoallStart(CallSite at, std::vector<std::optional<Object>> pieces,
                                       int layer, std::vector<int> group = {});
    Status passTo(CallSite at, int destination, Payload value);
    Status receive(CallSite at, std::optional<int> source = std::nullopt);
    // The non-blocking messages (model.pass_to_start, model.receive_start; docs/simulation.md,
    // "Overlapped communication"): priced as pass_to and receive, but on the rank's
    // communication stream, with their events in Trace::overlapped. The send runs at once (from
    // the later of the rank's clock and its stream's end); the receive once the message is there
    // and the stream is free. Each handle is awaited once with awaitCollective: a send's gives
    // None, a receive's the value.
    Result<std::int64_t> passToStart(CallSite at, int destination, Payload value);
    Result<std::int64_t> receiveStart(CallSite at, std::optional<int> source = std::nullopt);
    // The non-blocking forms (model.allreduce_start and the like; docs/simulation.md
    // "Overlapped communication"): the rank joins the collective and goes on at once. Once every
    // member joined, the communication runs on each member's communication stream (one collective
    // after another there, beside its compute) and its event goes to Trace::overlapped. The handle
    // is the rank's; awaitCollective(handle) waits for the end (the rank's clock moves to it) and
    // makes the result ready; each handle is awaited once.
    Result<std::int64_t> startCollective(CallSite at, OpKind op, Payload value, int layer,
                                         std::vector<int> group = {});
    Status awaitCollective(CallSite at, std::int64_t handle);
    bool resultReady(int rank) const;
    Payload takeResult(int rank);

    // Runs one program per rank to the end, a deadlock, a mismatch, an error or a stop.
    void run(ProgramList &programs);
    // Thread-safe: the run stops at the next operation or slice boundary. `reason` completes
    // "The run was stopped ..." ("on request"); a stop at a time limit of timeLimitSeconds (> 0)
    // says so and asks whether a loop runs forever. The first request wins.
    void requestStop(std::string reason = "on request", double timeLimitSeconds = 0);
    // Thread-safe: whether a stop was requested (the run ends at its next operation or slice).
    bool stopRequested() const { return m_stopRequested.load(std::memory_order_acquire); }
    // An error that ends the run (deadlock, mismatch, stop, budget); set by the engine itself.
    const std::optional<Error> &fatalError() const { return m_fatal; }

    const Trace &trace() const { return m_trace; }
    Trace takeTrace() { return std::move(m_trace); }

private:
    enum class CommState { Idle, Pending, Ready };
    struct Pending {
        OpKind op = OpKind::AllReduce;
        int layer = -1;
        int groupId = 0;
        std::int64_t instance = -1;
        std::optional<int> source; // receive
        int line = 0;
    };
    struct Message {
        std::int64_t id = 0;
        int from = 0;
        SimTime clock;
        Payload value;
    };
    // A non-blocking collective a rank started, until it awaits it.
    struct Started {
        OpKind op = OpKind::AllReduce;
        int layer = -1;
        int groupId = 0;
        std::int64_t instance = -1;
        int line = 0;
        bool complete = false;
        SimTime end;
        Payload result;
        // receive_start: whom from (none: any rank), and the rank's clock at the call.
        std::optional<int> source;
        SimTime posted;
    };
    struct RankState {
        explicit RankState(const Sizes &sizes) : storage(sizes) {}
        Storage storage;
        SimTime clock;
        SimTime commClock; // when the rank's communication stream is free
        std::map<std::int64_t, Started> started;
        // receive_start handles whose message has not come yet, in the order they were made.
        std::vector<std::int64_t> posted;
        std::int64_t awaiting = -1; // the handle the rank waits for, else -1
        CommState comm = CommState::Idle;
        Pending pending;
        Payload result;
        // Messages not yet received, in the order they came. A vector: a deque made two
        // allocations per rank and run before any message came (most ranks get none).
        std::vector<Message> inbox;
        // How many collectives the rank joined, of every rank's group (id 0) and of each other
        // group: its next one's position there. Every rank's count is in the rank's state itself,
        // where a map node per rank took a read of its own at every join.
        std::int64_t collectivesOfAll = 0;
        std::map<int, std::int64_t> collectivesPerGroup;
        // The group (an id, 0: none yet) the rank last joined a collective of, checked for it, and
        // how many of its collectives it joined (its entry in collectivesPerGroup is stale while
        // cached here). A rank names its tensor group at every block: the same group again needs
        // no sort, no check, no search of the groups and no read of a map node gone cold since
        // the rank's last turn (docs/benchmarks.md).
        int lastGroup = 0;
        std::int64_t lastGroupJoined = 0;
        // In a run with experts: the tokens an alltoall brought here from another rank and no
        // alltoall has sent home yet, batch -> the rank where its sequence lives (its home). The
        // loss and a dense layer refuse them (docs/simulation.md, "Expert parallelism").
        std::map<int, int> tokensAway;
        bool finished = false;
        bool ran = false; // had a turn: an error elsewhere may end the run before its first
        int lastLine = 0;
    };
    // What a member brought to a collective: its value, where and when, and for a non-blocking
    // start its handle.
    struct Arrival {
        int rank = 0;
        Payload value;
        int line = 0;
        SimTime ready;
        std::int64_t handle = -1;
        std::vector<std::optional<Object>> pieces; // an alltoall's, by place in the group
    };
    struct Collective {
        OpKind op = OpKind::AllReduce;
        int layer = -1;
        int groupId = 0;
        std::int64_t id = 0;
        std::vector<int> arrived;      // the ranks there, in the order they came
        std::vector<Arrival> arrivals; // by place in the group; rank -1: not there yet
        const Arrival &arrivalOf(int rank) const;
    };

    // Every operation passes here first: a stopped or failed run accepts nothing more. The check
    // that passes is inline (every call of a run makes one; out of line with its Status it took
    // 5 % of a reference puzzle's instructions); refuse() says why one does not.
    Status admit(CallSite at, const char *operation)
    {
        if (!m_fatal && at.rank >= 0 && std::size_t(at.rank) < m_ranks.size() &&
            !m_stopRequested.load(std::memory_order_acquire) &&
            ++m_operations <= m_mostOperations && m_trace.events.size() < m_limits.mostEvents &&
            m_trace.changes.size() < m_limits.mostEvents) [[likely]] {
            m_ranks[std::size_t(at.rank)].lastLine = at.line;
            return okStatus();
        }
        return refuse(at, operation);
    }
    Status refuse(CallSite at, const char *operation);
    Error checkError(CallSite at, std::string message) const;
    Status checkLayer(CallSite at, const std::string &op, int layer) const;
    // Inline where the layer exists (every operation asks): out of line it took 1 % of a run.
    Status checkLayer(CallSite at, const CallName &op, int layer) const
    {
        if (layer >= 0 && layer < config().layers) [[likely]]
            return okStatus();
        return checkLayer(at, op.str(), layer);
    }
    Status checkBatches(CallSite at, const std::string &op, const IndexSet &batches) const;
    Status checkBackward(CallSite at, const CallName &op, const char *call, int layer,
                         const Object &activation, const Object &grad, const Object *weight) const;
    Object weightGradOf(int layer, const Object &activation) const;
    Object blockGradOf(const Object &grad, const Object &weight) const;
    Object sliceGradOf(int layer, const Object &activation, const Object &weight) const;
    // A partial activation (gradient) or a sequence shard given where a whole one is needed.
    Status checkWhole(CallSite at, const CallName &op, const Object &object) const;
    Status checkCollectiveValue(CallSite at, OpKind op, const CallName &call,
                                const Object &object) const;
    // backward and backward_input with a tensor-parallel slice: one block's.
    Status checkBlock(CallSite at, const CallName &op, int layer, const Object &activation,
                      const Object &grad) const;
    // The experts (core/experts.cpp): the batches the router sends `expert`, and the checks of
    // loading an expert, computing with its weight, and updating it.
    IndexSet batchesOfExpert(int expert) const;
    Status checkExpertLoad(CallSite at, const CallName &op, int expert) const;
    Status checkExpertTokens(CallSite at, const CallName &op, const Object &weight,
                             const IndexSet &batches) const;
    Status checkExpertUpdate(CallSite at, const CallName &op, const Object &weightGrad,
                             const Object &weight) const;
    // The loss and a dense layer compute only on tokens at home: none of `batches` is on this
    // rank for an expert, sent by an alltoall and not combined back.
    Status checkTokensHome(CallSite at, const CallName &op, const IndexSet &batches) const;
    // After an alltoall: which tokens left their home and which came back (tokensAway).
    void moveTokens(const Collective &collective);
    // Context parallelism (core/context.cpp): the rank's chunk of the sequence, what a chunk's
    // forward or backward costs and needs, and the sum of chunks' weight gradients.
    int contextChunk(int rank) const;
    void makeContextChunk(int rank, Object &activation) const;
    SimTime chunkTime(SimTime perBatch, const Object &activation) const;
    Result<IndexSet> checkKeysValues(CallSite at, const CallName &op, int layer,
                                     const Object &activation, const Object &weight,
                                     const std::vector<Object> *kv, const IndexSet &before) const;
    // Blockwise attention (docs/simulation.md, "Overlapped ring attention"): the chunks an
    // unfinished forward or backward given as so_far has seen (none without one), its price per
    // call, its output's record of them, and the refusal of an unfinished output used elsewhere.
    Result<IndexSet> forwardSoFar(CallSite at, const CallName &op, int layer,
                                  const Object &activation, const Object *soFar) const;
    Result<IndexSet> backwardSoFar(CallSite at, const CallName &op, int layer,
                                   const Object &activation, const Object &grad,
                                   const std::pair<Object, Object> *soFar) const;
    // The chunks a chunk's attention had seen before the call and has seen after it (both empty
    // for a whole sequence, the common case): `soFar` (forwardSoFar or backwardSoFar, asked only
    // of a call about chunks) checks what the call continues, checkKeysValues what it adds.
    struct ChunksSeen {
        IndexSet before;
        IndexSet after;
    };
    template <typename SoFar>
    Result<ChunksSeen> chunksSeen(CallSite at, const CallName &op, int layer,
                                  const Object &activation, const Object &weight,
                                  const std::vector<Object> *kv, bool continued,
                                  const SoFar &soFar) const;
    static void markAttended(Object &out, const IndexSet &held, int total);
    SimTime attentionTime(SimTime perBatch, const Object &activation, int before, int after) const;
    Status checkAttended(CallSite at, const CallName &use, const Object &object) const;
    Status checkBatches(CallSite at, const CallName &op, const IndexSet &batches) const;
    Event makeEvent(CallSite at, OpKind op, int layer, SimTime duration) const;
    // A new event of at.rank at its clock, appended to the record, and the rank's clock moved
    // to its end: the event is made in its place (made, moved in and destroyed, each event took a
    // copy of its sets). The reference lasts until the next event is recorded.
    Event &recordEvent(CallSite at, OpKind op, int layer, SimTime duration);

    // The value and group pass by reference from the public call down: moved at every level,
    // each move and the moved-from's end cost a visit of the variant (3-4 % of an FSDP run).
    Status collective(CallSite at, OpKind op, Payload &&value, int layer, std::vector<int> &&group);
    Result<std::int64_t> join(CallSite at, OpKind op, Payload &&value, int layer,
                              std::vector<int> &&group, bool nonBlocking,
                              std::vector<std::optional<Object>> *pieces = nullptr);
    // alltoall and alltoall_start: the pieces checked and joined into what the rank sends.
    Result<std::int64_t> joinAlltoall(CallSite at, std::vector<std::optional<Object>> &&pieces,
                                      int layer, std::vector<int> &&group, bool nonBlocking);
    // Sorts `group` in place (its caller's, moved in).
    Result<int> groupIdFor(CallSite at, const CallName &op, std::vector<int> &&group);
    // The rank's next collective's position in the group `groupId` (counted per group), counted.
    static std::int64_t nextPosition(RankState &self, int groupId);
    void completeCollective(Collective &collective);
    // A collective's outcome: the sum or the joined shards, and for a scatterreduce each member's
    // piece of it (by place in the group).
    struct Reduced {
        Object total;
        std::vector<Object> pieces;
    };
    Result<Reduced> reduceValues(const Collective &collective);
    // Whether `members` are one tensor group of the run's layout (in any order).
    bool isTensorGroup(const std::vector<int> &members) const;
    Status checkContextSum(const Collective &collective, Object &total) const;
    // An alltoall's: what each member gets (by place in the group; no batches: nothing).
    Result<Reduced> exchangePieces(const Collective &collective);
    // The most bytes a member of an alltoall sends to the others.
    std::int64_t mostSentToOthers(const Collective &collective) const;
    // Members of an alltoall that sent tokens of different kinds or layers: they are at different
    // all-to-alls (one skipped one). Said of the first two.
    std::optional<Error> differentAlltoalls(const Collective &collective) const;
    // In a run with experts, when `group` is not `rank`'s expert group, that group as said
    // ("{0, 1}"), for kAlltoallPiecesExperts. Else empty.
    std::string expertGroupHint(int rank, const std::vector<int> &group) const;
    bool summedAcrossRanks(int rank, int layer) const;
    void warnCountedTwice(const Collective &collective, const std::string &call,
                          const IndexSet &twice);
    void deliver(int rank, Message &&message);
    // A receive_start's message: received on the rank's communication stream.
    void receiveStarted(int rank, std::int64_t handle, Message &&message);
    void describeMessage(Event &event, const Payload &value, int peer, std::int64_t link) const;
    void makeRunnable(int rank);
    void fail(Error error);
    void diagnoseDeadlock();
    void diagnoseWaitsAtFailure();
    void describeWait(int rank, RankWait &wait) const;
    std::string describeWaitLine(const RankWait &wait, const Diagnosis &diagnosis) const;
    std::string waitedOnRank(int other) const;
    std::string describePending(const Pending &pending) const;
    // describePending's text as a number in the trace's details, made once per distinct wait.
    std::uint32_t pendingDetail(const Pending &pending);
    void finish();
    // Before a slice: the last slice's lookups asked ahead in the ranks that run next
    // (core/scheduler.cpp).
    void lookAhead();

    RunLimits m_limits;
    Trace m_trace;
    // A small run's storages' first places, in one block for every rank (Storage::reserve);
    // before m_ranks, so that it outlives them.
    std::unique_ptr<std::byte[]> m_storageRoom;
    // The block itself when it fits here (one rank at one or two layers, as the first lessons):
    // no allocation at all.
    static constexpr std::size_t kInlineRoom = 2048;
    alignas(std::max_align_t) std::byte m_inlineRoom[kInlineRoom];
    std::vector<RankState> m_ranks;
    std::vector<std::vector<int>> m_groups; // by group id; id 0 is every rank
    std::map<std::vector<int>, int> m_groupIds;
    // (group, position) -> instance; hashed, never walked in order: a run of thousands of ranks
    // keeps a collective open in each of its groups, and a tree of them cost a read a level.
    struct OpenKeyHash {
        std::size_t operator()(const std::pair<int, std::int64_t> &key) const noexcept
        {
            return std::size_t((std::uint64_t(unsigned(key.first)) * 0x9e3779b97f4a7c15ULL) ^
                               std::uint64_t(key.second) * 0xc2b2ae3d27d4eb4fULL);
        }
    };
    std::unordered_map<std::pair<int, std::int64_t>, Collective, OpenKeyHash> m_open;
    // The places of the last collective that completed, for the next one to fill: a collective
    // of 1024 ranks took two allocations of up to 100 kB each.
    std::vector<int> m_spareArrived;
    std::vector<Arrival> m_spareArrivals;
    // A wait: its operation, layer, and group (a collective) or source (a receive, -1: any).
    struct WaitKey {
        OpKind op;
        int layer;
        int other;
        bool operator==(const WaitKey &) const = default;
    };
    struct WaitKeyHash {
        std::size_t operator()(const WaitKey &key) const noexcept
        {
            return (std::size_t(unsigned(key.layer)) * 0x9e3779b97f4a7c15ULL) ^
                   (std::size_t(unsigned(key.other)) << 8) ^ std::size_t(key.op);
        }
    };
    // A wait -> its text's number in m_trace.details
    std::unordered_map<WaitKey, std::uint32_t, WaitKeyHash> m_pendingDetails;
    // The last wait looked up, and its text's number: a collective's members wait in it one
    // after another, so most lookups ask for the one before (no layer is the smallest int).
    WaitKey m_lastWait{OpKind::Receive, std::numeric_limits<int>::min(), 0};
    std::uint32_t m_lastWaitDetail = 0;
    RunQueue m_runnable;           // the ranks ready to run, in the order they became so
    std::int64_t m_operations = 0; // admitted so far
    // The operation budget: m_limits.maxOperations, at most kMostTraceLink (the most ids a run
    // makes that an event's link holds; the message and collective ids count up from 0, one an
    // operation).
    std::int64_t m_mostOperations = 0;
    std::int64_t m_nextMessage = 0;
    std::int64_t m_nextCollective = 0;
    std::int64_t m_nextHandle = 0;
    int m_current = -1;
    // The keys the last slice looked up, and whether the run looks them up ahead in the next
    // ranks (more than RunLimits::lookAheadFromRanks: a small run's storages stay in the cache).
    mutable KeyTrail m_trail;
    bool m_lookingAhead = false;
    std::optional<Error> m_fatal;
    std::mutex m_stopMutex;
    std::string m_stopReason;
    double m_stopSeconds = 0; // > 0: the stop is the time limit's
    std::atomic<bool> m_stopRequested = false;
};

} // namespace rankstep::core
