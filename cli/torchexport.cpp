// SPDX-License-Identifier: MIT
// The exported PyTorch program (torchexport.h): the learner's schedule, read from the checked
// trace, written as calls of a small runtime (cli/torchexport/runtime.py) that does each
// operation with torch and torch.distributed.
#include "torchexport.h"

#include "core/io/utf8.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

namespace rankstep::cli {

// cli/torchexport/embed.cmake builds these from the two Python files.
extern const char *const kTorchExportModel;
extern const char *const kTorchExportRuntime;

namespace {

using core::Event;
using core::IndexSet;
using core::ObjectKind;
using core::OpKind;

// What a message or a gathered value is: the puzzle's object kinds, or no puzzle object.
enum class Kind { Activation, ActivationGrad, Weight, WeightGrad, OptState, KeysValues, Nothing };

const char *kindName(Kind kind)
{
    switch (kind) {
        case Kind::Activation:
            return "activation";
        case Kind::ActivationGrad:
            return "activation_grad";
        case Kind::Weight:
            return "weight";
        case Kind::WeightGrad:
            return "weight_grad";
        case Kind::OptState:
            return "opt_state";
        case Kind::KeysValues:
            return "keys_values";
        case Kind::Nothing:
            break;
    }
    return "nothing";
}

Kind kindOf(ObjectKind kind)
{
    switch (kind) {
        case ObjectKind::Weight:
            return Kind::Weight;
        case ObjectKind::OptState:
            return Kind::OptState;
        case ObjectKind::Activation:
            return Kind::Activation;
        case ObjectKind::ActivationGrad:
            return Kind::ActivationGrad;
        case ObjectKind::WeightGrad:
            return Kind::WeightGrad;
        case ObjectKind::KeysValues:
            return Kind::KeysValues;
    }
    return Kind::Nothing;
}

// An object a rank made or received: what a later pass_to or allgather of the same identity sends.
struct Made {
    Kind kind;
    int layer;
    IndexSet batches;
    IndexSet shards;
    int total;
};

bool sameIdentity(const Made &made, const Event &event)
{
    if (made.layer != event.layer)
        return false;
    // Activations carry no shards; weights, optimizer states and weight gradients do.
    if (event.shards.empty())
        return (made.kind == Kind::Activation || made.kind == Kind::ActivationGrad) &&
               made.batches == event.batches;
    if (made.kind == Kind::Activation || made.kind == Kind::ActivationGrad)
        return false;
    if (made.kind == Kind::KeysValues) // a chunk's, of some batches
        return made.batches == event.batches && made.shards == event.shards &&
               made.total == event.shardTotal;
    return made.shards == event.shards && made.total == event.shardTotal &&
           (made.kind != Kind::WeightGrad || made.batches == event.batches);
}

// A collective as all its members called it.
struct Collective {
    std::vector<int> members;         // ascending
    std::map<int, IndexSet> shardsOf; // each member's input shards
    IndexSet batches;                 // the union of the members' batches
};

// One operation of one rank, with what the other ranks' events say about it.
struct Step {
    const Event *event = nullptr;
    Kind kind = Kind::Nothing; // pass_to, receive, allgather: what travels
    bool overlapped = false;   // a non-blocking collective of the learner's (model.*_start)
};

struct Schedule {
    const core::Trace &trace;
    std::map<std::int64_t, Collective> collectives; // by collective id (Event::link)
    std::vector<std::vector<int>> groups;           // other than every rank, as first used
    std::vector<std::vector<Step>> ranks;
    std::vector<std::string> refusals;
};

std::string numbers(const std::vector<int> &values)
{
    std::string text = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i ? ", " : "") + std::to_string(values[i]);
    return text + "]";
}

// A set as Python reads it: range(a, b) for a run of three or more, else a list.
std::string setText(const IndexSet &set)
{
    const std::vector<int> values = set.toVector();
    if (values.size() >= 3 && values.back() - values.front() + 1 == int(values.size()))
        return "range(" + std::to_string(values.front()) + ", " +
               std::to_string(values.back() + 1) + ")";
    return numbers(values);
}

std::string membersText(const Schedule &schedule, const std::vector<int> &members)
{
    return int(members.size()) == schedule.trace.config.ranks ? "EVERY_RANK" : numbers(members);
}

std::string totalText(const Event &event)
{
    return event.shardTotal == 1 ? "" : ", total=" + std::to_string(event.shardTotal);
}

// ----- One row per operation of the learner's -----
// A new operation is a row here and a method of Rank in cli/torchexport/runtime.py. The split
// backward's backward_input and backward_weight have theirs; an allreduce of an activation (the
// partial sums of a tensor-parallel layer) is all_reduce_activation.

using CallWriter = std::string (*)(const Step &step, const Schedule &schedule);

std::string compute(const char *method, const Step &step)
{
    const Event &e = *step.event;
    return std::string("r.") + method + "(" + std::to_string(e.layer) + ", " + setText(e.batches) +
           totalText(e) + ")";
}

std::string forwardCall(const Step &step, const Schedule &)
{
    return compute("forward", step);
}

std::string backwardCall(const Step &step, const Schedule &)
{
    return compute("backward", step);
}

std::string lossCall(const Step &step, const Schedule &)
{
    return "r.loss(" + setText(step.event->batches) + ")";
}

std::string updateCall(const Step &step, const Schedule &)
{
    const Event &e = *step.event;
    return "r.update(" + std::to_string(e.layer) + ", " + setText(e.batches) +
           ", shards=" + setText(e.shards) + ", total=" + std::to_string(e.shardTotal) + ")";
}

std::string allReduceCall(const Step &step, const Schedule &schedule)
{
    const Event &e = *step.event;
    const Collective &c = schedule.collectives.at(e.link);
    if (e.shards.empty()) // an activation: partial sums of a tensor-parallel layer
        return "r.all_reduce_activation(" + std::to_string(e.layer) + ", " + setText(e.batches) +
               ", members=" + membersText(schedule, c.members) + ")";
    return "r.all_reduce(" + std::to_string(e.layer) + ", " + setText(e.batches) +
           ", shards=" + setText(e.shards) + ", total=" + std::to_string(e.shardTotal) +
           ", members=" + membersText(schedule, c.members) +
           ", summed_batches=" + setText(c.batches) + ")";
}

std::string reduceScatterCall(const Step &step, const Schedule &schedule)
{
    const Event &e = *step.event;
    const Collective &c = schedule.collectives.at(e.link);
    return "r.reduce_scatter(" + std::to_string(e.layer) + ", " + setText(e.batches) +
           ", total=" + std::to_string(e.shardTotal) +
           ", members=" + membersText(schedule, c.members) +
           ", summed_batches=" + setText(c.batches) + ")";
}

std::string allGatherCall(const Step &step, const Schedule &schedule)
{
    const Event &e = *step.event;
    const Collective &c = schedule.collectives.at(e.link);
    std::string shardsOf = "[";
    for (std::size_t i = 0; i < c.members.size(); ++i)
        shardsOf += (i ? ", " : "") + setText(c.shardsOf.at(c.members[i]));
    return std::string("r.all_gather(\"") + kindName(step.kind) + "\", " + std::to_string(e.layer) +
           (step.kind == Kind::WeightGrad ? ", batches=" + setText(e.batches) : "") +
           ", total=" + std::to_string(e.shardTotal) +
           ", members=" + membersText(schedule, c.members) + ", shards_of=" + shardsOf + "])";
}

std::string messageCall(const char *method, const char *peerName, const Step &step)
{
    const Event &e = *step.event;
    if (step.kind == Kind::Nothing)
        return std::string("r.") + method + "_placeholder(" + peerName + "=" +
               std::to_string(e.peer) + ")";
    const bool sharded = step.kind == Kind::Weight || step.kind == Kind::WeightGrad;
    std::string which;
    if (sharded)
        which = ", total=" + std::to_string(e.shardTotal) + ", shards=" + setText(e.shards);
    else if (step.kind == Kind::KeysValues) // the chunk whose keys and values travel
        which = ", chunk=" + std::to_string(e.shards.empty() ? 0 : e.shards.toVector().front());
    return std::string("r.") + method + "(\"" + kindName(step.kind) + "\", " +
           std::to_string(e.layer) + ", " + setText(e.batches) + which + ", " + peerName + "=" +
           std::to_string(e.peer) + ")";
}

std::string sendCall(const Step &step, const Schedule &)
{
    return messageCall("send", "to", step);
}

std::string receiveCall(const Step &step, const Schedule &)
{
    return messageCall("receive", "source", step);
}

std::string backwardInputCall(const Step &step, const Schedule &)
{
    return compute("backward_input", step);
}

std::string backwardWeightCall(const Step &step, const Schedule &)
{
    return compute("backward_weight", step);
}

// Rows by the operation's name (core::opName), so that a row may wait for its operation: the
// split backward's two halves are written as soon as the engine records them.
struct ExportedOp {
    std::string_view name;
    CallWriter call;
};

constexpr ExportedOp kExportedOps[] = {
    {"forward", forwardCall},
    {"backward", backwardCall},
    {"backward_input", backwardInputCall},
    {"backward_weight", backwardWeightCall},
    {"loss", lossCall},
    {"update", updateCall},
    {"allreduce", allReduceCall},
    {"allgather", allGatherCall},
    {"scatterreduce", reduceScatterCall},
    {"pass_to", sendCall},
    {"receive", receiveCall},
};

const ExportedOp *exportedOp(OpKind op)
{
    const std::string_view name = core::opName(op);
    for (const ExportedOp &row : kExportedOps)
        if (row.name == name)
            return &row;
    return nullptr;
}

// ----- Reading the schedule from the trace -----

void noteCollective(Schedule &schedule, const Event &event)
{
    Collective &c = schedule.collectives[event.link];
    if (!std::binary_search(c.members.begin(), c.members.end(), event.rank)) {
        c.members.insert(std::upper_bound(c.members.begin(), c.members.end(), event.rank),
                         event.rank);
        c.shardsOf[event.rank] = event.shards;
        c.batches |= event.batches;
    }
}

// The kind of the object with `event`'s identity that `rank` made last: what its pass_to sends
// or its allgather gathers. The storage changes before the event are asked next (a weight loaded
// and stored makes no event); what is still unknown is taken to be a loaded weight or, with
// batches, an activation.
Kind kindSent(const std::vector<Made> &made, const core::Trace &trace,
              const std::vector<std::size_t> &changesOfRank, const Event &event,
              std::size_t eventIndex)
{
    if (event.layer < 0)
        return Kind::Nothing;
    for (auto it = made.rbegin(); it != made.rend(); ++it)
        if (sameIdentity(*it, event))
            return it->kind;
    for (auto it = changesOfRank.rbegin(); it != changesOfRank.rend(); ++it) {
        const core::StorageChange &change = trace.changes[*it];
        if (change.eventCount > eventIndex || !change.isSet())
            continue;
        const core::Object &o = trace.changes.objectAt(change.objectId);
        // An optimizer state has a weight's identity (load_weights makes both): a weight.
        if (o.kind != ObjectKind::OptState &&
            sameIdentity(Made{kindOf(o.kind), o.layer, o.batches, o.shards, o.total}, event))
            return kindOf(o.kind);
    }
    // A chunk of the context group's with batches: keys and values the rank never stored.
    const int context = trace.config.layout.context;
    if (context > 1 && !event.batches.empty() && event.shardTotal == context &&
        event.shards.size() == 1)
        return Kind::KeysValues;
    return event.shards.empty() ? Kind::Activation : Kind::Weight;
}

// What `event` leaves its rank holding, for kindSent.
void noteMade(std::vector<Made> &made, const Schedule &schedule, const Event &e, Kind kind)
{
    const int layers = schedule.trace.config.layers;
    switch (e.op) {
        case OpKind::Forward:
            made.push_back({Kind::Activation, e.layer + 1, e.batches, {}, 1});
            break;
        case OpKind::Backward:
            made.push_back({Kind::WeightGrad, e.layer, e.batches, IndexSet{0}, 1});
            made.push_back({Kind::ActivationGrad, e.layer - 1, e.batches, {}, 1});
            break;
        case OpKind::Loss:
            made.push_back({Kind::ActivationGrad, layers - 1, e.batches, {}, 1});
            break;
        case OpKind::Update:
            made.push_back({Kind::Weight, e.layer, {}, e.shards, e.shardTotal});
            break;
        case OpKind::AllReduce:
            if (e.shards.empty()) // an activation's partial sums
                break;
            made.push_back({Kind::WeightGrad, e.layer, schedule.collectives.at(e.link).batches,
                            e.shards, e.shardTotal});
            break;
        case OpKind::ScatterReduce: {
            const Collective &c = schedule.collectives.at(e.link);
            const auto position =
                int(std::find(c.members.begin(), c.members.end(), e.rank) - c.members.begin());
            made.push_back(
                {Kind::WeightGrad, e.layer, c.batches, IndexSet{position}, int(c.members.size())});
            break;
        }
        case OpKind::AllGather: {
            IndexSet shards;
            for (const auto &[member, theirs] : schedule.collectives.at(e.link).shardsOf)
                shards |= theirs;
            made.push_back({kind, e.layer, e.batches, shards, e.shardTotal});
            break;
        }
        case OpKind::Receive:
            if (kind != Kind::Nothing)
                made.push_back({kind, e.layer, e.batches, e.shards, e.shardTotal});
            break;
        case OpKind::PassTo:
            break;
        default: // the split backward's halves, known by name until the engine has them
            if (std::string_view(core::opName(e.op)) == "backward_input")
                made.push_back({Kind::ActivationGrad, e.layer - 1, e.batches, {}, 1});
            else if (std::string_view(core::opName(e.op)) == "backward_weight")
                made.push_back({Kind::WeightGrad, e.layer, e.batches, IndexSet{0}, 1});
            break;
    }
}

std::string lineOf(const Event &event)
{
    return std::to_string(event.line);
}

void refuse(Schedule &schedule, const Event &event, const std::string &what)
{
    schedule.refusals.push_back("rank " + std::to_string(event.rank) + " at line " + lineOf(event) +
                                " " + what);
}

Schedule readSchedule(const core::Trace &trace)
{
    Schedule schedule{trace, {}, {}, {}, {}};
    const int ranks = trace.config.ranks;
    schedule.ranks.resize(std::size_t(ranks));
    for (const Event &event : trace.events)
        if (core::isCollective(event.op))
            noteCollective(schedule, event);
    for (const Event &event : trace.overlapped)
        if (core::isCollective(event.op))
            noteCollective(schedule, event);
    std::set<std::vector<int>> seen;
    for (const auto &[id, c] : schedule.collectives)
        if (int(c.members.size()) != ranks && seen.insert(c.members).second)
            schedule.groups.push_back(c.members);

    std::vector<std::vector<Made>> made(static_cast<std::size_t>(ranks));
    std::vector<std::vector<std::size_t>> changesOf(static_cast<std::size_t>(ranks));
    for (std::size_t i = 0; i < trace.changes.size(); ++i)
        changesOf[std::size_t(trace.changes[i].rank)].push_back(i);
    std::map<std::int64_t, Kind> messages; // what each message carries, by its id
    // What a message carries, from what its rank made before it (a send) or what was sent (a
    // receive); what it leaves the rank holding.
    const auto noteMessage = [&](Step &step, std::size_t eventIndex) {
        const Event &e = *step.event;
        std::vector<Made> &mine = made[std::size_t(e.rank)];
        if (e.op == OpKind::PassTo) {
            step.kind = kindSent(mine, trace, changesOf[std::size_t(e.rank)], e, eventIndex);
            messages[e.link] = step.kind;
        } else if (e.op == OpKind::Receive) {
            step.kind = messages.count(e.link) ? messages[e.link] : Kind::Nothing;
        } else if (e.op == OpKind::AllGather) {
            step.kind = kindSent(mine, trace, changesOf[std::size_t(e.rank)], e, eventIndex);
        }
        if (!exportedOp(e.op))
            refuse(schedule, e,
                   std::string("calls ") + core::opName(e.op) + (step.overlapped ? "_start" : "") +
                       ", which the exported program cannot do yet.");
        noteMade(mine, schedule, e, step.kind);
    };
    // A non-blocking collective or message (the learner's *_start) goes where it started: before
    // the first operation of its rank that started no earlier (its input was ready, its result is
    // not needed before it ends). A rank's communication stream runs one at a time, so its started
    // ones keep their order: a received chunk is passed on after it came, and a receive waits only
    // for a message sent earlier in the simulated time (a send never waits), so no ring of
    // receives waits for ever.
    std::vector<std::vector<const Event *>> started(static_cast<std::size_t>(ranks));
    for (const Event &e : trace.overlapped)
        started[std::size_t(e.rank)].push_back(&e);
    std::vector<std::size_t> nextStarted(static_cast<std::size_t>(ranks), 0);
    const auto placeStarted = [&](int rank, const Event *before, std::size_t eventIndex) {
        const std::vector<const Event *> &theirs = started[std::size_t(rank)];
        std::size_t &next = nextStarted[std::size_t(rank)];
        for (; next < theirs.size() && (!before || theirs[next]->start <= before->start); ++next) {
            Step step{theirs[next], Kind::Nothing, true};
            noteMessage(step, eventIndex);
            schedule.ranks[std::size_t(rank)].push_back(step);
        }
    };
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event &e = trace.events[i];
        placeStarted(e.rank, &e, i);
        Step step{&e, Kind::Nothing, false};
        noteMessage(step, i);
        schedule.ranks[std::size_t(e.rank)].push_back(step);
    }
    for (int rank = 0; rank < ranks; ++rank)
        placeStarted(rank, nullptr, trace.events.size());
    // A receive met before its send (another rank's started send, placed later): what it carries.
    for (std::vector<Step> &steps : schedule.ranks)
        for (Step &step : steps)
            if (step.event->op == OpKind::Receive && step.kind == Kind::Nothing &&
                messages.count(step.event->link))
                step.kind = messages[step.event->link];
    return schedule;
}

// ----- Writing the program -----

std::string sourceLine(const TorchExportSource &source, int line)
{
    if (line < 1 || std::size_t(line) > source.sourceLines.size())
        return {};
    std::string text = source.sourceLines[std::size_t(line) - 1];
    const std::size_t first = text.find_first_not_of(" \t");
    text = first == std::string::npos ? "" : text.substr(first);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.pop_back();
    constexpr std::size_t kLongest = 160;
    if (text.size() > kLongest) {
        std::size_t cut = kLongest;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
            --cut; // not inside a character
        text = text.substr(0, cut) + " ...";
    }
    return text;
}

// Writes rank `rank`'s function; false, having stopped, once the program is past
// kMaxTorchProgramBytes.
bool writeRank(std::ostringstream &out, const Schedule &schedule, int rank,
               const TorchExportSource &source)
{
    out << "\ndef rank_" << rank << "(r):\n";
    const std::vector<Step> &steps = schedule.ranks[std::size_t(rank)];
    if (steps.empty())
        out << "    pass  # this rank made no operation\n";
    int lastLine = -1;
    for (const Step &step : steps) {
        const Event &e = *step.event;
        if (e.line != lastLine) {
            const std::string text = sourceLine(source, e.line);
            out << "    # line " << e.line << (text.empty() ? "" : ": " + commentText(text))
                << "\n";
            lastLine = e.line;
        }
        if (step.overlapped && e.op == OpKind::PassTo)
            out << "    # (started without waiting in the learner's code; a send never waits)\n";
        else if (step.overlapped)
            out << "    # (started without waiting in the learner's code; here it waits)\n";
        if (step.kind == Kind::Nothing && (e.op == OpKind::PassTo || e.op == OpKind::Receive))
            out << "    # (the learner's message is no puzzle object: its place only)\n";
        out << "    " << exportedOp(e.op)->call(step, schedule) << "\n";
        if (out.tellp() > std::streamoff(kMaxTorchProgramBytes))
            return false;
    }
    return true;
}

void writeHeader(std::ostringstream &out, const core::Trace &trace, const TorchExportSource &source)
{
    const core::RunConfig &c = trace.config;
    out << "#!/usr/bin/env python3\n"
           "# A plain PyTorch program, written by Rankstep's export: one training step of a\n"
           "# model of linear layers with tanh, on torch.distributed, in the schedule of:\n"
        << "#   function: " << commentText(source.function) << "\n"
        << "#   file:     " << commentText(source.fileName) << "\n"
        << "# at " << c.ranks << " ranks, " << c.layers << " layers and " << c.batches << " batches"
        << (c.layout.context > 1
                ? ", each layer with causal attention over the\n"
                  "# sequence, which a context group of " +
                      std::to_string(c.layout.context) + " ranks splits into chunks"
                : std::string())
        << ". It needs only PyTorch. Run it as torchrun runs any program:\n"
        << "#   torchrun --standalone --nproc_per_node " << c.ranks << " THIS.py --check\n"
        << "# (Debian's torchrun on Python 3.11 needs --redirects 1 --tee 1 as well.)\n"
           "# --check also trains the model in one process on every batch and says whether the\n"
           "# weights match. Each block of a rank's schedule below says which line of the\n"
           "# learner's file made it.\n";
    if (!trace.check.passed)
        out << "#\n# The simulation found this schedule wrong:\n#   "
            << commentText(trace.check.message) << "\n";
    out << "import argparse\nimport datetime\nimport os\nimport sys\n\nimport torch\n"
           "import torch.distributed as dist\n\n"
        << "RANKS, LAYERS, BATCHES = " << c.ranks << ", " << c.layers << ", " << c.batches
        << "\nCONTEXT = " << c.layout.context
        << "  # the ranks of a context group, each with a chunk of every sequence"
        << "\nHIDDEN, LENGTH, SEED = " << source.hidden << ", " << source.length << ", "
        << source.seed << "  # the sizes and seed of `rankstep-cli real`\n"
        << "EVERY_RANK = range(0, RANKS)\n";
}

// The model's text without its module docstring and licence line.
std::string modelText()
{
    const std::string text = kTorchExportModel;
    const std::size_t open = text.find("\"\"\"");
    const std::size_t close = open == std::string::npos ? open : text.find("\"\"\"", open + 3);
    const std::size_t body = close == std::string::npos ? 0 : text.find('\n', close) + 1;
    return "\n# ----- The model and its data: what `rankstep-cli real` trains "
           "-----------------------"
           "-----------\n# Layer l is tanh(a[l] @ W[l]); the data and the first weights are "
           "seeded, the same on\n# every rank and in one process.\n" +
           text.substr(body);
}

void writeFinal(std::ostringstream &out, const core::Trace &trace)
{
    out << "\n# What each rank set with set_final_weight: (layer, total, shards).\nFINAL = {\n";
    for (std::size_t rank = 0; rank < trace.finalWeights.size(); ++rank) {
        out << "    " << rank << ": [";
        bool first = true;
        for (const auto &[layer, weight] : trace.finalWeights[rank]) {
            out << (first ? "" : ", ") << "(" << layer << ", " << weight.total << ", "
                << setText(weight.shards) << ")";
            first = false;
        }
        out << "],\n";
    }
    out << "}\n";
}

} // namespace

std::string commentText(const std::string &text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x20 && byte < 0x7F) {
            out += char(byte);
            ++i;
            continue;
        }
        char escape[16];
        const std::size_t length = io::utf8SequenceLength(text, i);
        if (length <= 1) {
            std::snprintf(escape, sizeof escape, "\\x%02x", unsigned(byte));
            ++i;
        } else {
            std::uint32_t code = byte & (0xFF >> (length + 1));
            for (std::size_t k = 1; k < length; ++k)
                code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
            std::snprintf(escape, sizeof escape, code > 0xFFFF ? "\\U%08x" : "\\u%04x",
                          unsigned(code));
            i += length;
        }
        out += escape;
    }
    return out;
}

TorchProgram torchProgram(const core::Trace &trace, const TorchExportSource &source)
{
    TorchProgram program;
    const Schedule schedule = readSchedule(trace);
    if (!schedule.refusals.empty()) {
        program.refused = schedule.refusals.front();
        return program;
    }
    std::ostringstream out;
    writeHeader(out, trace, source);
    out << modelText() << kTorchExportRuntime;
    out << "\n\n# ----- The learner's schedule, rank by rank "
           "-------------------------------------------------------\n"
           "# Every call is one operation of the learner's, in the order the rank made them; "
           "the sums\n# of gradients the learner's code made by hand (a + b) are made where a "
           "gradient is\n# used, from its batches.\n";
    for (int rank = 0; rank < trace.config.ranks; ++rank) {
        if (!writeRank(out, schedule, rank, source)) {
            // A loop of the learner's can make millions of operations, a line or two of the
            // program each (before, 100,000 turns of a loop wrote 80 MB; the operation budget
            // allowed gigabytes, all held in memory first).
            program.refused = "the program would be larger than " +
                              std::to_string(kMaxTorchProgramBytes >> 20) + " MiB (rank " +
                              std::to_string(rank) + " alone makes " +
                              std::to_string(schedule.ranks[std::size_t(rank)].size()) +
                              " operations): is a loop making operations it does not need?";
            return program;
        }
    }
    out << "\n\nSCHEDULE = [";
    for (int rank = 0; rank < trace.config.ranks; ++rank)
        out << (rank ? ", " : "") << "rank_" << rank;
    out << "]\n\n# The groups the collectives used, other than every rank.\nGROUPS = [";
    for (std::size_t i = 0; i < schedule.groups.size(); ++i)
        out << (i ? ", " : "") << numbers(schedule.groups[i]);
    out << "]\n";
    writeFinal(out, trace);
    out << "\nif __name__ == \"__main__\":\n    sys.exit(main())\n";
    program.text = out.str();
    for (const auto &steps : schedule.ranks)
        for (const Step &step : steps)
            if (step.kind == Kind::Nothing && (step.event->op == OpKind::PassTo) &&
                program.notes.size() < 3)
                program.notes.push_back(
                    "Line " + lineOf(*step.event) +
                    " passes a value that is no puzzle object "
                    "(a dict or a tuple, say): the program sends an empty message in its place, "
                    "and a rank that needs a weight it never received loads it itself.");
    return program;
}

} // namespace rankstep::cli
