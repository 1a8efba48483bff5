// SPDX-License-Identifier: MIT
#include "chrometracereader.h"

#include "jsonfields.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace rankstep::io {
namespace {

static_assert(kMaxChromeEvents <= std::size_t(core::kMostTraceLink) &&
                  kMaxChromeRanks - 1 <= core::kMostPeer,
              "an event's link numbers every message and collective, its peer names every rank");
constexpr double kMostMicroseconds = 365.0 * 24 * 3600 * 1e6; // a year

struct Raw {
    double start = 0, duration = 0; // microseconds as written
    int pid = 0;
    int tid = 0;
    std::size_t index = 0; // in the file, for a stable order
    const JsonValue *value = nullptr;
};

std::string at(std::size_t index)
{
    return "traceEvents[" + std::to_string(index) + "]";
}

// "rank 12" (or "rank 12 communication") as 12; nothing for any other name.
std::optional<int> rankOfName(const std::string &name)
{
    if (name.rfind("rank ", 0) != 0)
        return std::nullopt;
    std::size_t digits = 5;
    while (digits < name.size() && digits < 11 && name[digits] >= '0' && name[digits] <= '9')
        ++digits;
    if (digits == 5 || (digits < name.size() && name[digits] != ' '))
        return std::nullopt;
    const long rank = std::strtol(name.c_str() + 5, nullptr, 10);
    if (rank >= kMaxChromeRanks)
        return std::nullopt;
    return int(rank);
}

bool has(const std::string &text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

// The number `text` holds, of at most 6 digits; nothing for anything else.
std::optional<int> number(std::string_view text)
{
    if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != text.npos)
        return std::nullopt;
    return int(std::strtol(std::string(text).c_str(), nullptr, 10));
}

// A puzzle operation's own name: "forward L0", "allreduce L1", "loss" (Rankstep's export, and
// what the real run's lib names its calls in torch.profiler's trace); a pass_to may name its
// receiver ("pass_to L1 to 2").
std::optional<core::OpKind> puzzleOp(std::string name, int &layer, int *peer = nullptr)
{
    if (const std::size_t to = name.find(" to ");
        name.rfind("pass_to", 0) == 0 && to != name.npos) {
        const std::optional<int> receiver = number(std::string_view(name).substr(to + 4));
        if (!receiver)
            return std::nullopt;
        if (peer)
            *peer = *receiver;
        name.resize(to);
    }
    for (int i = 0; i < core::kOpCount; ++i) {
        const std::string op = core::opName(core::OpKind(i));
        if (name == op)
            return core::OpKind(i);
        if (name.rfind(op + " L", 0) == 0 && name.size() > op.size() + 2 &&
            name.find_first_not_of("0123456789", op.size() + 2) == std::string::npos &&
            name.size() <= op.size() + 8) {
            layer = int(std::strtol(name.c_str() + op.size() + 2, nullptr, 10));
            return core::OpKind(i);
        }
    }
    return std::nullopt;
}

// What an operator of torch.profiler (or of Rankstep's own export) does, by its name.
core::OpKind classify(const std::string &name, int &layer)
{
    if (const std::optional<core::OpKind> op = puzzleOp(name, layer))
        return *op;
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (has(lower, "all_reduce") || has(lower, "allreduce"))
        return core::OpKind::AllReduce;
    if (has(lower, "all_gather") || has(lower, "allgather") || has(lower, "broadcast"))
        return core::OpKind::AllGather;
    if (has(lower, "reduce_scatter") || has(lower, "reducescatter"))
        return core::OpKind::ScatterReduce;
    if (has(lower, "gloo:send") || has(lower, "nccl:send") || has(lower, "c10d::send"))
        return core::OpKind::PassTo;
    if (has(lower, "gloo:recv") || has(lower, "nccl:recv") || has(lower, "c10d::recv"))
        return core::OpKind::Receive;
    if (has(lower, "backward"))
        return core::OpKind::Backward;
    if (has(lower, "optimizer") || has(lower, "optim."))
        return core::OpKind::Update;
    if (has(lower, "loss") || has(lower, "cross_entropy"))
        return core::OpKind::Loss;
    return core::OpKind::Forward;
}

class Reader
{
public:
    ChromeRun read(const JsonValue &root);

private:
    void readNames(const std::vector<JsonValue> &events);
    std::optional<int> rankOf(int pid, int tid) const;
    void build(std::vector<Raw> raws);

    ChromeRun m_run;
    std::map<int, int> m_processRanks;                // pid -> rank ("rank N" processes)
    std::map<std::pair<int, int>, int> m_threadRanks; // (pid, tid) -> rank (Rankstep's export)
    std::map<int, int> m_pidRanks;                    // without names: pids in order
    // The file names the puzzle's operations (Rankstep's export, or a profile of a real run whose
    // lib named its calls): only those are shown, not torch's operators around them.
    bool m_puzzleNamed = false;
};

void Reader::readNames(const std::vector<JsonValue> &events)
{
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (!events[i].isObject())
            continue;
        const Fields fields(events[i], at(i));
        if (!fields.has("ph") || fields.string("ph") != "M" || !fields.has("args") ||
            !fields.has("name"))
            continue;
        const JsonValue *name = fields.get("args").find("name");
        if (name == nullptr || name->type != JsonValue::Type::String)
            continue;
        const int pid = fields.integer32("pid", 0);
        if (fields.string("name") == "process_name" && name->text == "Rankstep")
            m_run.simulated = true;
        const std::optional<int> rank = rankOfName(name->text);
        if (!rank)
            continue;
        if (fields.string("name") == "process_name")
            m_processRanks[pid] = *rank;
        else if (fields.string("name") == "thread_name")
            m_threadRanks[{pid, fields.integer32("tid", 0)}] = *rank;
    }
}

std::optional<int> Reader::rankOf(int pid, int tid) const
{
    if (const auto thread = m_threadRanks.find({pid, tid}); thread != m_threadRanks.end())
        return thread->second;
    if (const auto process = m_processRanks.find(pid); process != m_processRanks.end())
        return process->second;
    if (!m_threadRanks.empty() || !m_processRanks.empty())
        return std::nullopt; // named ranks: anything else (a Python thread's track) is no rank
    return m_pidRanks.at(pid);
}

ChromeRun Reader::read(const JsonValue &root)
{
    const JsonValue *list = root.isArray() ? &root : root.find("traceEvents");
    if (list == nullptr || !list->isArray())
        failAt(root, "traceEvents", "this is not a Chrome trace (no \"traceEvents\" list)");
    const std::vector<JsonValue> &events = list->items;
    if (events.size() > kMaxChromeEvents)
        failAt(*list, "traceEvents",
               "holds " + std::to_string(events.size()) + " events, more than the " +
                   std::to_string(kMaxChromeEvents) + " Rankstep opens");
    readNames(events);
    std::vector<Raw> raws;
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (!events[i].isObject())
            failAt(events[i], at(i), "expected an object");
        const Fields fields(events[i], at(i));
        if (!fields.has("ph") || fields.string("ph") != "X")
            continue; // metadata, counters, instants, flows
        Raw raw;
        raw.start = readNumber(fields.get("ts"), fields.pathOf("ts"));
        raw.duration = fields.has("dur") ? readNumber(fields.get("dur"), fields.pathOf("dur")) : 0;
        if (std::fabs(raw.start) > 1e17 || raw.duration < 0 || raw.duration > kMostMicroseconds)
            failAt(events[i], at(i), "a time out of range (ts or dur)");
        raw.pid = fields.has("pid") ? fields.integer32("pid", 0) : 0;
        raw.tid = fields.has("tid") ? fields.integer32("tid", 0) : 0;
        raw.index = i;
        raw.value = &events[i];
        int layer = -1;
        m_puzzleNamed = m_puzzleNamed || puzzleOp(fields.string("name"), layer).has_value();
        m_pidRanks.emplace(raw.pid, 0);
        raws.push_back(raw);
    }
    int next = 0;
    for (auto &[pid, rank] : m_pidRanks)
        rank = next++;
    if (m_processRanks.empty() && m_threadRanks.empty() && next > kMaxChromeRanks)
        failAt(*list, "traceEvents", "more processes than the ranks Rankstep opens");
    if (raws.empty())
        failAt(*list, "traceEvents", "no complete event (\"ph\": \"X\") to show");
    build(std::move(raws));
    return std::move(m_run);
}

void Reader::build(std::vector<Raw> raws)
{
    core::Trace &trace = m_run.trace;
    double first = raws.front().start;
    for (const Raw &raw : raws)
        first = std::min(first, raw.start);
    // Each rank's outermost operations: sorted by start, an instant (Rankstep's loss) then the
    // longer first, each kept when it starts at or after the end of the last one kept.
    std::vector<std::pair<int, Raw>> ranked;
    int ranks = 1;
    for (const Raw &raw : raws)
        if (const std::optional<int> rank = rankOf(raw.pid, raw.tid)) {
            ranked.emplace_back(*rank, raw);
            ranks = std::max(ranks, *rank + 1);
        }
    std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
        return std::tuple(a.second.start, a.second.duration > 0, -a.second.duration,
                          a.second.index) < std::tuple(b.second.start, b.second.duration > 0,
                                                       -b.second.duration, b.second.index);
    });
    trace.config.ranks = ranks;
    trace.config.batches = 1;
    int layers = 1;
    std::vector<double> lastEnd(std::size_t(ranks), -1e300);
    std::vector<std::size_t> remaining(static_cast<std::size_t>(ranks));
    std::vector<std::pair<core::Event, std::string>> kept;
    // "from 2" inside a receive: the real run's lib names the sender once it is known.
    std::vector<std::vector<std::pair<std::int64_t, int>>> senders(static_cast<std::size_t>(ranks));
    for (const auto &[rank, raw] : ranked) {
        const Fields fields(*raw.value, at(raw.index));
        const std::string &name = fields.string("name");
        if (name.rfind("from ", 0) == 0 && number(std::string_view(name).substr(5))) {
            senders[std::size_t(rank)].emplace_back(std::llround(raw.start - first),
                                                    *number(std::string_view(name).substr(5)));
            continue;
        }
        int puzzleLayer = -1, receiver = -1;
        if (m_puzzleNamed && !puzzleOp(name, puzzleLayer, &receiver))
            continue; // torch's operators inside (or between) the puzzle's calls
        if (raw.start < lastEnd[std::size_t(rank)])
            continue;
        lastEnd[std::size_t(rank)] = raw.start + raw.duration;
        core::Event event;
        event.rank = rank;
        event.start = core::SimTime::fromTicks(std::llround(raw.start - first));
        event.duration = core::SimTime::fromTicks(std::llround(raw.duration));
        event.op = classify(name, event.layer);
        event.setPeer(receiver < ranks ? receiver : -1);
        if (event.layer >= 0x10000)
            failAt(*raw.value, at(raw.index), "a layer past 65535");
        if (const JsonValue *args = raw.value->find("args"); args && args->isObject()) {
            const Fields more(*args, fields.pathOf("args"));
            if (more.has("memory"))
                event.memory = more.integer("memory", 0, std::int64_t(1) << 53);
            if (more.has("line"))
                event.line = more.integer32("line", 0);
            if (more.has("peer"))
                event.setPeer(more.integer32("peer", -1, ranks - 1));
        }
        layers = std::max(layers, event.layer + 1);
        ++remaining[std::size_t(rank)];
        kept.emplace_back(event, fields.string("name"));
    }
    trace.config.layers = layers;
    for (auto &[event, name] : kept)
        if (event.op == core::OpKind::Receive && event.peer < 0)
            for (const auto &[at, sender] : senders[std::size_t(event.rank)])
                if (at >= event.start.ticks() && at <= event.end().ticks() && sender < ranks)
                    event.setPeer(sender);
    // A collective joins the n-th call of one operation on one layer on every rank; a message the
    // n-th pass_to from a rank to a peer with the peer's n-th receive from it.
    std::map<std::tuple<int, int, int>, std::int32_t> messages; // sender, receiver, n-th
    std::map<std::tuple<int, int, bool>, int> sent;             // sender, receiver, is receive
    std::map<std::tuple<core::OpKind, int, int>, std::int32_t> links;
    std::map<std::tuple<core::OpKind, int, int>, int> calls; // op, layer, rank
    std::int32_t nextLink = 0; // below the events, at most kMaxChromeEvents
    core::Slice slice;
    bool open = false;
    for (auto &[event, name] : kept) {
        if (core::isCollective(event.op)) {
            const int n = calls[{event.op, event.layer, event.rank}]++;
            const auto found = links.try_emplace({event.op, event.layer, n}, nextLink);
            nextLink += found.second ? 1 : 0;
            event.link = found.first->second;
        } else if ((event.op == core::OpKind::PassTo || event.op == core::OpKind::Receive) &&
                   event.peer >= 0) {
            const bool receive = event.op == core::OpKind::Receive;
            const int from = receive ? event.peer : event.rank;
            const int to = receive ? event.rank : event.peer;
            const int n = sent[{from, to, receive}]++;
            const auto found = messages.try_emplace({from, to, n}, nextLink);
            nextLink += found.second ? 1 : 0;
            event.link = found.first->second;
        }
        if (open && slice.rank != event.rank) {
            trace.slices.push_back(slice);
            open = false;
        }
        if (!open) {
            slice = core::Slice{};
            slice.rank = event.rank;
            slice.eventBegin = slice.eventEnd = std::uint32_t(trace.events.size());
            slice.end = core::SliceEnd::Collective;
            open = true;
        }
        trace.events.push_back(event);
        slice.eventEnd = std::uint32_t(trace.events.size());
        slice.line = event.line;
        if (core::isCommunication(event.op)) {
            slice.end =
                core::isCollective(event.op) ? core::SliceEnd::Collective : core::SliceEnd::Receive;
            slice.detail = trace.details.intern(name);
        }
        if (--remaining[std::size_t(event.rank)] == 0) {
            slice.end = core::SliceEnd::Finished;
            slice.detail = 0;
        }
    }
    if (open)
        trace.slices.push_back(slice);
    trace.finalWeights.resize(std::size_t(ranks));
    trace.status = core::RunStatus::Ok;
    trace.check.passed = false;
    trace.check.message = m_run.simulated ? "A Chrome trace of a simulated run: not checked."
                                          : "A profile of a real run: the weights were not "
                                            "checked.";
    trace.figures = core::computeFigures(trace.events, ranks);
}

} // namespace

core::Result<ChromeRun> runFromChromeJson(std::string_view text)
{
    core::Result<JsonValue> parsed = parseJson(text);
    if (!parsed)
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read the Chrome trace: " + parsed.error().message};
    try {
        return Reader().read(*parsed);
    } catch (const FieldError &error) {
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read the Chrome trace: " + error.message};
    } catch (const std::out_of_range &) {
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read the Chrome trace: an event of no known process"};
    }
}

} // namespace rankstep::io
