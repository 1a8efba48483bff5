// SPDX-License-Identifier: MIT
#pragma once

#include "chunkedvector.h"
#include "costmodel.h"
#include "error.h"
#include "objects.h"
#include "simtime.h"
#include "storage.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::core {

enum class OpKind : std::uint8_t {
    Forward,
    Backward,
    Loss,
    Update,
    AllReduce,
    AllGather,
    ScatterReduce,
    PassTo,
    Receive,
};
// The notebook's names: "forward", "allreduce", "pass_to", "receive", ...
const char *opName(OpKind op);
bool isCollective(OpKind op);
bool isCommunication(OpKind op); // collectives and point-to-point

struct RunConfig {
    int ranks = 1;
    int layers = 2;
    int batches = 4;
    CostModel cost;
};

// One timed operation of one rank. `memory` is the rank's memory when the call was made.
struct Event {
    int rank = 0;
    OpKind op = OpKind::Forward;
    int layer = -1; // -1: not about a layer (a message that is no puzzle object)
    IndexSet batches;
    IndexSet shards;
    int shardTotal = 1;
    SimTime start;
    SimTime duration;
    std::int64_t memory = 0;
    int line = 0;
    int peer = -1;          // pass_to: receiver; receive: sender
    std::int64_t link = -1; // pass_to/receive: message id; collectives: collective id
    SimTime end() const { return start + duration; }
};

// A set (object present) or a delete (object absent) in one rank's storage.
struct StorageChange {
    // Largest members first: 120 bytes instead of 136 (FSDP at 1024 ranks records 1.38 million).
    Key key;
    std::optional<Object> object;
    std::size_t eventCount = 0; // events recorded in the trace before this change
    std::int64_t memoryAfter = 0;
    int rank = 0;
    int line = 0;
    MapKind map = MapKind::Weights;
};

enum class SliceEnd : std::uint8_t { Collective, Receive, Finished, Failed };
const char *sliceEndName(SliceEnd end);

// One resumption of one rank: the events and changes it produced and why it stopped.
struct Slice {
    int rank = 0;
    std::size_t eventBegin = 0, eventEnd = 0;
    std::size_t changeBegin = 0, changeEnd = 0;
    SliceEnd end = SliceEnd::Finished;
    std::string detail; // "allreduce(layer 0)", "receive from rank 2", ...
    int line = 0;
};

// A point the learner asked to look at (`draw(...)`, `draw_group(...)`): the trace position then.
struct Mark {
    int rank = -1; // -1: outside any rank (top-level code)
    int line = 0;
    std::size_t eventCount = 0;
    std::size_t changeCount = 0;
    std::string label;
};

struct Warning {
    int rank = -1;
    int line = 0;
    std::string message;
};

// Where a rank stands when no rank can go on.
struct RankWait {
    int rank = 0;
    bool finished = false;
    int line = 0;
    std::string waitsFor;     // "allreduce(layer 1)", "a message from rank 2", "" when finished
    std::vector<int> waitsOn; // the ranks it waits for
};

struct Diagnosis {
    ErrorKind kind = ErrorKind::Deadlock; // Deadlock or Mismatch
    std::vector<RankWait> ranks;
};

struct RankFigures {
    SimTime compute;       // forward, backward, loss, update
    SimTime communication; // collectives and point-to-point
    SimTime idle;          // the rest of the run's end time
    std::int64_t peakMemory = 0;
};

struct Figures {
    bool hasEvents = false;
    SimTime timesteps; // largest start time of any rank's last event (what the notebook prints)
    SimTime endTime;   // largest end time of any event
    std::int64_t maxMemory = 0;
    int maxMemoryRank = 0;
    SimTime maxMemoryTime;
    std::vector<RankFigures> ranks;
};

struct CheckResult {
    bool passed = false;
    std::string message; // "Correct!" or what is wrong, in one line: "layers 0-7: ..."
};

enum class RunStatus : std::uint8_t { Ok, Error, Deadlock, Stopped };
const char *runStatusName(RunStatus status); // "ok", "error", "deadlock", "stopped"

// Everything a viewer needs to rebuild every rank's state at any point without re-running.
struct Trace {
    RunConfig config;
    ChunkedVector<Event> events;          // in the order the scheduler ran them
    ChunkedVector<StorageChange> changes; // appended without moving (core/chunkedvector.h)
    std::vector<Slice> slices;
    std::vector<Warning> warnings;
    std::vector<Mark> marks;
    std::vector<std::map<int, Object>> finalWeights; // per rank, by layer

    RunStatus status = RunStatus::Ok;
    std::optional<Error> error;
    std::optional<Diagnosis> diagnosis;
    Figures figures;
    CheckResult check;

    bool correct() const { return status == RunStatus::Ok && check.passed; }
};

Figures computeFigures(const ChunkedVector<Event> &events, int ranks);
CheckResult checkFinalWeights(const std::vector<std::map<int, Object>> &finalWeights, int layers);

} // namespace rankstep::core
