// SPDX-License-Identifier: MIT
#include "realtrace.h"

#include "jsonfields.h"

#include "core/layout.h"
#include "core/router.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

namespace rankstep::io {
namespace {

constexpr int kMaxRanks = 4096;
constexpr int kMaxCount = 1 << 16;
static_assert(kMaxRanks - 1 <= core::kMostPeer, "an event's peer holds every rank");

std::string at(const std::string &path, std::size_t index)
{
    return path + "[" + std::to_string(index) + "]";
}

// Seconds as ticks; a negative, infinite or absurd time (past a year) is refused.
core::SimTime seconds(const Fields &fields, std::string_view key)
{
    const JsonValue &value = fields.get(key);
    if (value.type != JsonValue::Type::Number)
        failAt(value, fields.pathOf(key), "expected a number of seconds");
    const double s = std::strtod(value.text.c_str(), nullptr);
    if (!std::isfinite(s) || s < 0 || s > 365.0 * 24 * 3600)
        failAt(value, fields.pathOf(key), "expected seconds from 0 to a year");
    return core::SimTime::fromTicks(std::llround(s * kRealTicksPerSecond));
}

template <typename E>
E named(const Fields &fields, std::string_view key, const char *(*nameOf)(E), int count)
{
    const std::string &text = fields.string(key);
    for (int i = 0; i < count; ++i)
        if (text == nameOf(static_cast<E>(i)))
            return static_cast<E>(i);
    failAt(fields.get(key), fields.pathOf(key), "unknown value \"" + text + "\"");
}

std::optional<core::OpKind> opOf(const std::string &name)
{
    for (int i = 0; i < core::kOpCount; ++i)
        if (name == core::opName(core::OpKind(i)))
            return core::OpKind(i);
    return std::nullopt;
}

// One rank's event or storage change before the merge.
struct Item {
    core::SimTime time; // when it happened: an event's start, a change's moment
    int rank = 0;
    std::size_t index = 0; // in the rank's own order
    bool isEvent = false;
    std::size_t which = 0; // into the rank's events or changes
};

struct RankRecord {
    std::vector<core::Event> events;
    std::vector<std::vector<int>> groups; // a collective's members, sorted
    std::vector<std::pair<core::StorageChange, std::optional<core::Object>>> changes;
    std::vector<core::SimTime> changeTimes;
    std::vector<std::size_t> changeAfter; // how many of the rank's events came before each
};

class Reader
{
public:
    core::Trace read(const JsonValue &root);

private:
    core::Object readObject(const Fields &fields) const;
    void readRank(const Fields &entry);
    void merge();

    core::Trace m_trace;
    std::vector<RankRecord> m_ranks;
};

core::Object Reader::readObject(const Fields &fields) const
{
    core::Object object;
    object.kind = named(fields, "kind", core::kindName, core::kObjectKindCount);
    object.layer = fields.integer32("layer", -1, m_trace.config.layers); // the output: LAYERS
    object.step = fields.integer32("step", 0, std::numeric_limits<int>::max());
    object.batches = fields.indices("batches");
    object.shards = fields.indices("shards");
    object.total = fields.integer32("total", 0, kMaxCount);
    // A slice, a partial sum, a block and an expert, where the rank's library set them
    // (rankstep_real/lib.py describe): without them a partial sum would read as a sequence shard.
    object.slice = fields.has("slice") && fields.boolean("slice");
    object.partial = fields.has("partial") && fields.boolean("partial");
    object.block = fields.has("block") ? unsigned(fields.integer32("block", 0, 3)) & 3U : 0U;
    if (fields.has("expert"))
        object.expert = std::int16_t(fields.integer32("expert", 0, core::kMostExperts));
    // A sequence chunk (and its keys and values), or a chunk's part of a weight gradient.
    object.context = fields.has("context") && fields.boolean("context");
    object.layers = m_trace.config.layers;
    object.totalBatches = core::hasBatches(object.kind) ? m_trace.config.batches : 1;
    return object;
}

void Reader::readRank(const Fields &entry)
{
    const int rank = entry.integer32("rank", 0, m_trace.config.ranks - 1);
    RankRecord &record = m_ranks[std::size_t(rank)];
    if (!record.events.empty() || !record.changes.empty())
        failAt(entry.get("rank"), entry.pathOf("rank"), "this rank is listed twice");
    const std::vector<JsonValue> &events = entry.array("events");
    for (std::size_t e = 0; e < events.size(); ++e) {
        const Fields fields(events[e], at(entry.pathOf("events"), e));
        core::Event event;
        event.rank = rank;
        const auto op = opOf(fields.string("op"));
        if (!op)
            failAt(fields.get("op"), fields.pathOf("op"), "not an operation of the puzzle");
        event.op = *op;
        event.layer = fields.integer32("layer", -1, m_trace.config.layers - 1);
        event.start = seconds(fields, "start");
        event.duration = seconds(fields, "duration");
        event.memory = fields.integer("memory");
        event.line = fields.integer32("line", 0);
        if (fields.has("batches"))
            event.batches = fields.indices("batches");
        if (fields.has("shards"))
            event.shards = fields.indices("shards");
        if (fields.has("shard_total"))
            event.shardTotal = fields.integer32("shard_total", 0, kMaxCount);
        if (fields.has("peer"))
            event.setPeer(fields.integer32("peer", 0, m_trace.config.ranks - 1));
        if ((event.op == core::OpKind::PassTo || event.op == core::OpKind::Receive) &&
            event.peer < 0)
            failAt(events[e], fields.path(), "a message without a peer");
        std::vector<int> group;
        if (fields.has("group"))
            group =
                readInts(fields.get("group"), fields.pathOf("group"), 0, m_trace.config.ranks - 1);
        std::sort(group.begin(), group.end());
        record.events.push_back(event);
        record.groups.push_back(std::move(group));
    }
    if (!entry.has("changes"))
        return;
    const std::vector<JsonValue> &changes = entry.array("changes");
    std::size_t after = 0;
    for (std::size_t c = 0; c < changes.size(); ++c) {
        const Fields fields(changes[c], at(entry.pathOf("changes"), c));
        core::StorageChange change;
        change.rank = rank;
        change.map = named(fields, "map", core::mapName, core::kMapCount);
        const JsonValue &key = fields.get("key");
        if (key.isArray())
            change.key =
                core::Key::ofTuple(readInts(key, fields.pathOf("key"), -kMaxCount, kMaxCount));
        else
            change.key =
                core::Key(int(readInteger(key, fields.pathOf("key"), -kMaxCount, kMaxCount)));
        const std::string &op = fields.string("op");
        if (op != "set" && op != "delete")
            failAt(fields.get("op"), fields.pathOf("op"), "expected \"set\" or \"delete\"");
        std::optional<core::Object> object;
        if (op == "set")
            object = readObject(fields.object("object"));
        change.line = fields.integer32("line", 0);
        change.memoryAfter = fields.integer("memory_after");
        // In the rank's order: never before a change already read, never past its events.
        after = std::size_t(
            fields.integer("events", std::int64_t(after), std::int64_t(record.events.size())));
        record.changes.emplace_back(change, std::move(object));
        record.changeTimes.push_back(seconds(fields, "time"));
        record.changeAfter.push_back(after);
    }
}

void Reader::merge()
{
    std::vector<Item> items;
    for (std::size_t r = 0; r < m_ranks.size(); ++r) {
        const RankRecord &record = m_ranks[r];
        std::size_t index = 0, change = 0;
        core::SimTime clock; // each rank's items keep their order: times never go back
        const auto add = [&](core::SimTime time, bool isEvent, std::size_t which) {
            clock = std::max(clock, time);
            items.push_back(Item{clock, int(r), index++, isEvent, which});
        };
        for (std::size_t e = 0; e <= record.events.size(); ++e) {
            for (; change < record.changes.size() && record.changeAfter[change] <= e; ++change)
                add(record.changeTimes[change], false, change);
            if (e < record.events.size())
                add(record.events[e].start, true, e);
        }
    }
    std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
        return std::tie(a.time, a.rank, a.index) < std::tie(b.time, b.rank, b.index);
    });

    std::map<std::tuple<core::OpKind, int, std::vector<int>, int>, std::int32_t> collectives;
    std::map<std::tuple<core::OpKind, int, std::vector<int>, int>, int> calls; // per rank
    std::map<std::tuple<int, int, int>, std::int32_t> messages; // sender, receiver, n-th
    std::map<std::tuple<int, int, bool>, int> sent;             // sender, receiver, is receive
    std::int32_t nextLink = 0; // below the events, which read() keeps within kMostTraceLink
    std::vector<std::size_t> remaining(m_ranks.size());
    for (std::size_t r = 0; r < m_ranks.size(); ++r)
        remaining[r] = m_ranks[r].events.size() + m_ranks[r].changes.size();

    core::Slice slice;
    bool open = false;
    const auto closeSlice = [&] {
        if (open)
            m_trace.slices.push_back(slice);
        open = false;
    };
    for (const Item &item : items) {
        if (open && slice.rank != item.rank)
            closeSlice();
        if (!open) {
            slice = core::Slice{};
            slice.rank = item.rank;
            slice.eventBegin = slice.eventEnd = std::uint32_t(m_trace.events.size());
            slice.changeBegin = slice.changeEnd = std::uint32_t(m_trace.changes.size());
            slice.end = core::SliceEnd::Collective;
            open = true;
        }
        RankRecord &record = m_ranks[std::size_t(item.rank)];
        if (item.isEvent) {
            core::Event event = record.events[item.which];
            if (core::isCollective(event.op)) {
                std::vector<int> group = record.groups[item.which];
                if (group.empty())
                    for (int r = 0; r < m_trace.config.ranks; ++r)
                        group.push_back(r);
                const int n = calls[{event.op, event.layer, group, item.rank}]++;
                const auto key = std::tuple(event.op, event.layer, std::move(group), n);
                const auto found = collectives.try_emplace(key, nextLink);
                nextLink += found.second ? 1 : 0;
                event.link = found.first->second;
            } else if (event.op == core::OpKind::PassTo || event.op == core::OpKind::Receive) {
                const bool receive = event.op == core::OpKind::Receive;
                const int from = receive ? event.peer : item.rank;
                const int to = receive ? item.rank : event.peer;
                const int n = sent[{from, to, receive}]++;
                const auto found = messages.try_emplace({from, to, n}, nextLink);
                nextLink += found.second ? 1 : 0;
                event.link = found.first->second;
            }
            m_trace.events.push_back(event);
            slice.eventEnd = std::uint32_t(m_trace.events.size());
            slice.line = event.line;
            if (core::isCommunication(event.op)) {
                slice.end = event.op == core::OpKind::Receive || event.op == core::OpKind::PassTo
                                ? core::SliceEnd::Receive
                                : core::SliceEnd::Collective;
                const std::string name = core::opName(event.op);
                slice.detail = m_trace.details.intern(
                    event.layer >= 0 ? name + "(layer " + std::to_string(event.layer) + ")" : name);
            }
        } else {
            auto [change, object] = record.changes[item.which];
            change.eventCount = std::uint32_t(m_trace.events.size());
            m_trace.changes.append(change, std::move(object));
            slice.changeEnd = std::uint32_t(m_trace.changes.size());
            slice.line = change.line;
        }
        if (--remaining[std::size_t(item.rank)] == 0) {
            slice.end = core::SliceEnd::Finished;
            slice.detail = 0;
        }
    }
    closeSlice();
}

core::Trace Reader::read(const JsonValue &root)
{
    const Fields top(root, "");
    if (top.string("format") != "rankstep-trace" || !top.has("clock") ||
        top.string("clock") != "seconds")
        failAt(root, "format", "expected the report of `rankstep-cli real --json`");
    const Fields config = top.object("config");
    m_trace.config.ranks = config.integer32("ranks", 1, kMaxRanks);
    m_trace.config.layers = config.integer32("layers", 1, kMaxCount);
    m_trace.config.batches = config.integer32("batches", 1, kMaxCount);
    m_trace.config.cost.sizes.hidden = config.integer("hidden", 1, kMaxCount);
    m_trace.config.cost.sizes.length = config.integer("length", 1, kMaxCount);
    if (config.has("layout")) { // the run's layout, as a simulated trace carries it
        const Fields layout = config.object("layout");
        core::Layout &degrees = m_trace.config.layout;
        degrees.tensor = layout.integer32("tensor", 1, kMaxRanks);
        degrees.context = layout.integer32("context", 1, kMaxRanks);
        degrees.pipeline = layout.integer32("pipeline", 1, kMaxRanks);
        degrees.expert = layout.integer32("expert", 1, kMaxRanks);
        if (const std::string problem = core::layoutProblem(m_trace.config.ranks, degrees);
            !problem.empty())
            failAt(config.get("layout"), "config.layout", problem);
    }
    m_ranks.resize(std::size_t(m_trace.config.ranks));
    m_trace.finalWeights.resize(std::size_t(m_trace.config.ranks));

    const std::vector<JsonValue> &ranks = top.array("ranks");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const Fields entry(ranks[i], at("ranks", i));
        readRank(entry);
        if (!entry.has("final_weights"))
            continue;
        const int rank = entry.integer32("rank", 0, m_trace.config.ranks - 1);
        const std::vector<JsonValue> &finals = entry.array("final_weights");
        for (std::size_t f = 0; f < finals.size(); ++f) {
            const Fields fields(finals[f], at(entry.pathOf("final_weights"), f));
            const int layer = fields.integer32("layer", 0, m_trace.config.layers - 1);
            m_trace.finalWeights[std::size_t(rank)][layer] = readObject(fields.object("object"));
        }
    }
    // A link is the number of a message or collective, fewer than the events (core/trace.h).
    std::size_t events = 0;
    for (const RankRecord &record : m_ranks)
        events += record.events.size();
    if (events > std::size_t(core::kMostTraceLink))
        failAt(top.get("ranks"), "ranks",
               "holds " + std::to_string(events) + " events, more than the " +
                   std::to_string(core::kMostTraceLink) + " a trace numbers its links in");
    merge();

    const Fields result = top.object("result");
    m_trace.status = core::RunStatus::Ok;
    m_trace.check.passed = result.boolean("weights_match");
    m_trace.check.message = m_trace.check.passed
                                ? "The weights match one process trained on every batch."
                                : "The weights differ from one process trained on every batch.";
    m_trace.figures = core::computeFigures(m_trace.events, m_trace.config.ranks);
    return std::move(m_trace);
}

} // namespace

core::Result<core::Trace> realTraceFromJson(std::string_view text)
{
    core::Result<JsonValue> parsed = parseJson(text);
    if (!parsed)
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read the real run: " + parsed.error().message};
    try {
        return Reader().read(*parsed);
    } catch (const FieldError &error) {
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read the real run: " + error.message};
    }
}

} // namespace rankstep::io
