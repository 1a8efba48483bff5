// SPDX-License-Identifier: MIT
#include "memoryseries.h"

#include "core/memoryformat.h"
#include "prefetch.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <unordered_map>

namespace rankstep::gui {

std::vector<MemoryPoint> memorySamples(const core::Trace &trace, int rank)
{
    std::vector<MemoryPoint> samples;
    const core::Event *last = nullptr;
    std::size_t lastIndex = 0;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const core::Event &event = trace.events[i];
        if (event.rank != rank)
            continue;
        // The changes before this call were made when the one before it ended.
        const core::SimTime reached = last ? std::min(last->end(), event.start) : event.start;
        samples.push_back({reached, event.memory});
        last = &event;
        lastIndex = i;
    }
    if (!last)
        return samples;
    for (auto change = trace.changes.rbegin(); change != trace.changes.rend(); ++change)
        if (change->rank == rank) {
            if (change->eventCount > lastIndex) // after the last call: what the rank ends with
                samples.push_back({last->end(), change->memoryAfter});
            break;
        }
    // A rank's events are recorded in its clock order; sorting (stably) only guards hand-made
    // traces, and keeps equal times in call order.
    std::stable_sort(samples.begin(), samples.end(),
                     [](const MemoryPoint &a, const MemoryPoint &b) { return a.time < b.time; });
    return samples;
}

std::vector<MemoryPoint> stepSeries(const std::vector<MemoryPoint> &samples, core::SimTime end)
{
    std::vector<MemoryPoint> points;
    for (const MemoryPoint &sample : samples) {
        if (points.empty()) {
            points.push_back(sample);
            continue;
        }
        const MemoryPoint last = points.back();
        if (sample.memory == last.memory)
            continue; // the line already holds this value
        if (sample.time != last.time)
            points.push_back({sample.time, last.memory});
        points.push_back(sample);
    }
    if (!points.empty() && end > points.back().time)
        points.push_back({end, points.back().memory});
    return points;
}

RankSeries::RankSeries(std::vector<std::vector<MemoryPoint>> eachRank)
    : m_lines(std::move(eachRank)), m_lineOf(m_lines.size())
{
    for (std::size_t rank = 0; rank < m_lineOf.size(); ++rank)
        m_lineOf[rank] = std::uint32_t(rank);
}

RankSeries::RankSeries(std::vector<std::vector<MemoryPoint>> lines,
                       std::vector<std::uint32_t> lineOf)
    : m_lines(std::move(lines)), m_lineOf(std::move(lineOf))
{}

std::size_t RankSeries::pointCount() const
{
    std::size_t points = 0;
    for (const std::vector<MemoryPoint> &line : m_lines)
        points += line.size();
    return points;
}

bool RankSeries::operator==(const RankSeries &other) const
{
    if (size() != other.size())
        return false;
    for (std::size_t rank = 0; rank < size(); ++rank)
        if ((*this)[rank] != other[rank])
            return false;
    return true;
}

namespace {

// A step series made a sample at a time (stepSeries) while the samples come in time order, as a
// rank's clock keeps them, holding only its last point: each point it gains is handed to `take`.
// A sample earlier than the one before ends that (inOrder false): the rank is made again from
// its samples sorted.
struct StepLine {
    MemoryPoint back;       // the last point taken
    std::size_t size = 0;   // points taken
    core::SimTime lastTime; // of the last sample
    bool inOrder = true;

    template <typename Take>
    void add(const MemoryPoint &sample, Take &&take)
    {
        if (!inOrder)
            return;
        if (size > 0 && sample.time < lastTime) {
            inOrder = false;
            return;
        }
        lastTime = sample.time;
        if (size == 0) {
            put(sample, take);
            return;
        }
        if (sample.memory == back.memory)
            return; // the line already holds this value
        if (sample.time != back.time)
            put({sample.time, back.memory}, take);
        put(sample, take);
    }
    template <typename Take>
    void finish(core::SimTime end, Take &&take)
    {
        if (inOrder && size > 0 && end > back.time)
            put({end, back.memory}, take);
    }
    template <typename Take>
    void put(const MemoryPoint &point, Take &take)
    {
        back = point;
        ++size;
        take(point);
    }
};

// What memorySamples says of each rank, an event at a time: a call's memory from the end of the
// call before it.
struct SampleWalk {
    core::SimTime lastEnd;
    std::uint32_t lastIndex = 0; // a trace holds at most core::kMostTraceEvents events
    bool called = false;

    MemoryPoint sample(std::size_t index, const core::Event &event)
    {
        const core::SimTime reached = called ? std::min(lastEnd, event.start) : event.start;
        called = true;
        lastEnd = event.end();
        lastIndex = std::uint32_t(index);
        return {reached, event.memory};
    }
};

// Each rank's last sample: what it holds after its last change, when that came after its last
// call (at that call's end). `walkOf(r)` is rank r's walk over every event.
template <typename WalkOf>
std::vector<std::optional<MemoryPoint>> endSamples(const core::Trace &trace, std::size_t count,
                                                   WalkOf walkOf)
{
    std::vector<std::optional<MemoryPoint>> ends(count);
    std::vector<bool> ended(count, false);
    std::size_t endedCount = 0;
    for (auto change = trace.changes.rbegin(); change != trace.changes.rend(); ++change) {
        if (endedCount == count)
            break; // every rank's last change seen
        const auto r = std::size_t(change->rank);
        if (change->rank < 0 || r >= count || ended[r])
            continue;
        ended[r] = true;
        ++endedCount;
        const SampleWalk &walk = walkOf(r);
        if (walk.called && change->eventCount > walk.lastIndex) // after the last call
            ends[r] = MemoryPoint{walk.lastEnd, change->memoryAfter};
    }
    return ends;
}

// A hash of a line's points (splitmix64's finalizer over each value).
struct LineHash {
    std::uint64_t value = 0x9E3779B97F4A7C15ULL;
    void mix(std::uint64_t word)
    {
        std::uint64_t z = (value ^ word) + 0x9E3779B97F4A7C15ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        value = z ^ (z >> 31);
    }
    void add(const MemoryPoint &point)
    {
        mix(std::uint64_t(point.time.ticks()));
        mix(std::uint64_t(point.memory));
    }
};

// Calls visit(rank, sample) for each event's sample of the ranks in [0, walks.size()), in the
// trace's order.
template <typename Visit>
void forEachSample(const core::Trace &trace, std::vector<SampleWalk> &walks, Visit &&visit)
{
    const std::size_t count = walks.size();
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const core::Event &event = trace.events[i];
        const auto r = std::size_t(event.rank);
        if (event.rank >= 0 && r < count)
            visit(r, walks[r].sample(i, event));
    }
}

// The lines of the ranks whose samples are out of time order (a hand-made trace), from their
// samples sorted (stably: equal times in call order), as memorySamples makes them.
void makeOutOfOrder(const core::Trace &trace, const std::vector<bool> &outOfOrder,
                    const std::vector<std::optional<MemoryPoint>> &ends,
                    std::vector<std::vector<MemoryPoint>> &lines,
                    const std::vector<std::uint32_t> &lineOf)
{
    if (std::none_of(outOfOrder.begin(), outOfOrder.end(), [](bool out) { return out; }))
        return;
    std::vector<SampleWalk> walks(outOfOrder.size());
    std::vector<std::vector<MemoryPoint>> samples(outOfOrder.size());
    forEachSample(trace, walks, [&](std::size_t r, const MemoryPoint &sample) {
        if (outOfOrder[r])
            samples[r].push_back(sample);
    });
    for (std::size_t r = 0; r < outOfOrder.size(); ++r) {
        if (!outOfOrder[r])
            continue;
        if (ends[r])
            samples[r].push_back(*ends[r]);
        std::stable_sort(
            samples[r].begin(), samples[r].end(),
            [](const MemoryPoint &a, const MemoryPoint &b) { return a.time < b.time; });
        lines[lineOf[r]] = stepSeries(samples[r], trace.figures.endTime);
    }
}

// A rank's line in the first walk: made without being kept, only its hash and size.
struct alignas(64) LineShape { // a cache line
    SampleWalk walk;
    StepLine line;
    LineHash hash;

    void add(const MemoryPoint &sample, bool hashed)
    {
        line.add(sample, [this, hashed](const MemoryPoint &point) {
            if (hashed)
                hash.add(point);
        });
    }
    void finish(core::SimTime end, bool hashed)
    {
        line.finish(end, [this, hashed](const MemoryPoint &point) {
            if (hashed)
                hash.add(point);
        });
    }
};

// The line of each group of ranks whose first walk gave one hash and size, made together in the
// second walk: each point is added by the first rank of the group to get there, and compared by
// the others (a rank may run ahead of the ranks before it).
using GroupLines = std::vector<std::vector<MemoryPoint>>;

// How a rank's line is made in the second walk: while it matches its group's line, it only
// compares its points with that line (or adds the next one, when it is the first there); from a
// point that differs it makes its own (a hash shared by different lines). A rank that ran ahead
// of the first of its group made its own line before: at 16,384 ranks a quarter of the ranks did,
// 0.1 GB of points made only to be found equal and dropped.
struct LineCopy {
    SampleWalk walk;
    StepLine line;
    std::uint32_t group = 0; // in GroupLines
    std::size_t matched = 0; // points equal to the group's so far
    bool own = false;
    bool inOrder = true;             // false: made from its samples sorted, after the walks
    std::vector<MemoryPoint> points; // one's own, once it differs

    void take(const MemoryPoint &point, GroupLines &groups)
    {
        if (!own) {
            std::vector<MemoryPoint> &shared = groups[group];
            if (matched == shared.size()) { // the first of the group here
                shared.push_back(point);
                ++matched;
                return;
            }
            if (shared[matched] == point) {
                ++matched;
                return;
            }
            own = true;
            points.assign(shared.begin(), shared.begin() + std::ptrdiff_t(matched));
        }
        points.push_back(point);
    }
    void add(const MemoryPoint &sample, GroupLines &groups)
    {
        line.add(sample, [this, &groups](const MemoryPoint &point) { take(point, groups); });
    }
    void finish(core::SimTime end, GroupLines &groups)
    {
        line.finish(end, [this, &groups](const MemoryPoint &point) { take(point, groups); });
    }
};

// Each rank's group: the ranks with its line's hash and size. A group's line is reserved at its
// size.
std::vector<LineCopy> groupsOf(const std::vector<LineShape> &shapes, GroupLines &groups)
{
    std::vector<LineCopy> copies(shapes.size());
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> byHash; // groups
    std::vector<std::size_t> sizes;                                       // of each group's line
    for (std::size_t r = 0; r < shapes.size(); ++r) {
        copies[r].inOrder = shapes[r].line.inOrder;
        if (!shapes[r].line.inOrder)
            continue; // made from its samples sorted
        auto &candidates = byHash[shapes[r].hash.value];
        const auto same = std::find_if(candidates.begin(), candidates.end(), [&](auto group) {
            return sizes[group] == shapes[r].line.size;
        });
        if (same != candidates.end()) {
            copies[r].group = *same;
        } else {
            copies[r].group = std::uint32_t(groups.size());
            candidates.push_back(copies[r].group);
            groups.emplace_back().reserve(shapes[r].line.size);
            sizes.push_back(shapes[r].line.size);
        }
    }
    return copies;
}

} // namespace

struct MemorySeriesMaker::Walks {
    Walks(const core::Trace &walked, bool hash) : trace(walked), hashed(hash) {}

    const core::Trace &trace;
    bool hashed = true;
    std::vector<LineShape> shapes; // the first walk's, until the second starts
    std::vector<LineCopy> copies;  // the second walk's
    GroupLines groups;
    std::vector<std::optional<MemoryPoint>> ends;
    bool second = false; // the second walk started

    // Ends the first walk: each rank's line ends with what it holds at the end of the run.
    void startSecond()
    {
        if (second)
            return;
        second = true;
        ends = endSamples(trace, shapes.size(),
                          [this](std::size_t r) -> const SampleWalk & { return shapes[r].walk; });
        for (std::size_t r = 0; r < shapes.size(); ++r) {
            if (ends[r])
                shapes[r].add(*ends[r], hashed);
            shapes[r].finish(trace.figures.endTime, hashed);
        }
        copies = groupsOf(shapes, groups);
        shapes = {};
    }
};

MemorySeriesMaker::MemorySeriesMaker(const core::Trace &trace, LineMatch match)
    : m_walks(std::make_unique<Walks>(trace, match == LineMatch::Hash))
{
    m_walks->shapes.resize(std::size_t(std::max(trace.config.ranks, 0)));
}

MemorySeriesMaker::~MemorySeriesMaker() = default;

void MemorySeriesMaker::firstWalk(std::size_t from, std::size_t to)
{
    std::vector<LineShape> &shapes = m_walks->shapes;
    const bool hashed = m_walks->hashed;
    const auto &events = m_walks->trace.events;
    for (std::size_t i = from; i < to; ++i) {
        prefetchRankAhead(events, i, to, shapes);
        const core::Event &event = events[i];
        const auto r = std::size_t(event.rank);
        if (event.rank < 0 || r >= shapes.size())
            continue;
        LineShape &shape = shapes[r];
        shape.add(shape.walk.sample(i, event), hashed);
    }
}

void MemorySeriesMaker::secondWalk(std::size_t from, std::size_t to)
{
    m_walks->startSecond();
    std::vector<LineCopy> &copies = m_walks->copies;
    const auto &events = m_walks->trace.events;
    for (std::size_t i = from; i < to; ++i) {
        prefetchRankAhead(events, i, to, copies);
        const core::Event &event = events[i];
        const auto r = std::size_t(event.rank);
        if (event.rank < 0 || r >= copies.size() || !copies[r].inOrder)
            continue;
        LineCopy &copy = copies[r];
        copy.add(copy.walk.sample(i, event), m_walks->groups);
    }
}

RankSeries MemorySeriesMaker::finish()
{
    m_walks->startSecond();
    const core::Trace &trace = m_walks->trace;
    std::vector<LineCopy> copies = std::move(m_walks->copies);
    GroupLines groups = std::move(m_walks->groups);
    const std::vector<std::optional<MemoryPoint>> ends = std::move(m_walks->ends);
    const std::size_t count = copies.size();
    std::vector<bool> outOfOrder(count);
    for (std::size_t r = 0; r < count; ++r) {
        outOfOrder[r] = !copies[r].inOrder;
        if (outOfOrder[r])
            continue;
        if (ends[r])
            copies[r].add(*ends[r], groups);
        copies[r].finish(trace.figures.endTime, groups);
    }
    // A group's line is a line of the series from its first rank that made it whole.
    constexpr std::uint32_t kNone = 0xFFFFFFFFU;
    std::vector<std::uint32_t> lineOfGroup(groups.size(), kNone);
    std::vector<std::vector<MemoryPoint>> lines;
    std::vector<std::uint32_t> lineOf(count, 0);
    for (std::size_t r = 0; r < count; ++r) {
        LineCopy &copy = copies[r];
        if (copy.inOrder && !copy.own) {
            std::uint32_t &shared = lineOfGroup[copy.group];
            const std::vector<MemoryPoint> &line =
                shared == kNone ? groups[copy.group] : lines[shared];
            if (copy.matched == line.size()) {
                if (shared == kNone) {
                    shared = std::uint32_t(lines.size());
                    lines.push_back(std::move(groups[copy.group]));
                    lines.back().shrink_to_fit(); // kept as long as the run is shown
                }
                lineOf[r] = shared;
                continue;
            }
            // A part of the group's line (the group's ranks make lines of one size, so only if
            // that changes).
            copy.points.assign(line.begin(), line.begin() + std::ptrdiff_t(copy.matched));
        }
        lineOf[r] = std::uint32_t(lines.size());
        copy.points.shrink_to_fit();
        lines.push_back(std::move(copy.points));
    }
    makeOutOfOrder(trace, outOfOrder, ends, lines, lineOf);
    return RankSeries(std::move(lines), std::move(lineOf));
}

RankSeries memorySeries(const core::Trace &trace, LineMatch match)
{
    // Two walks over the events (not one per rank: a million events over 64 ranks). The first
    // makes each rank's line without keeping it, only its hash and size; the second keeps one
    // line for the ranks of a hash and size, each other rank's compared with it point by point.
    MemorySeriesMaker maker(trace, match);
    maker.firstWalk(0, trace.events.size());
    maker.secondWalk(0, trace.events.size());
    return maker.finish();
}

std::shared_ptr<const RankSeries> sharedMemorySeries(
    const std::shared_ptr<const core::Trace> &trace)
{
    // The last trace asked for and its series, neither kept alive here: the trace is known by its
    // owner (never by an address another trace may reuse).
    static std::weak_ptr<const core::Trace> lastTrace;
    static std::weak_ptr<const RankSeries> lastSeries;
    if (!trace)
        return std::make_shared<const RankSeries>();
    const bool same =
        !lastTrace.expired() && !lastTrace.owner_before(trace) && !trace.owner_before(lastTrace);
    if (same)
        if (auto series = lastSeries.lock())
            return series;
    auto series = std::make_shared<const RankSeries>(memorySeries(*trace));
    lastTrace = trace;
    lastSeries = series;
    return series;
}

std::vector<LineShare> sharedLines(const RankSeries &series)
{
    return sharedLines(series, std::vector<bool>(series.size(), true));
}

std::vector<LineShare> sharedLines(const RankSeries &series, const std::vector<bool> &included)
{
    // Ranks that refer to one line share it. Distinct lines that are equal all the same are found
    // through a hash of each line, checked point by point within a hash: each line is compared
    // about once, not with every other line (1024 ranks of FSDP, every line the same, compared a
    // million pairs of lines: most of the time the app took to show that run).
    const auto hashOf = [](const std::vector<MemoryPoint> &line) {
        LineHash hash;
        hash.mix(line.size());
        for (const MemoryPoint &point : line)
            hash.add(point);
        return hash.value;
    };
    constexpr std::size_t kNone = std::size_t(-1);
    std::vector<std::size_t> groupOf(series.lineCount(), kNone); // of each line, once seen
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> linesByHash; // a group's first
    std::vector<std::vector<std::size_t>> groups; // ranks with equal lines, in rank order
    for (std::size_t rank = 0; rank < series.size(); ++rank) {
        if (rank >= included.size() || !included[rank])
            continue; // shares nothing, and counts for no one else
        std::size_t &group = groupOf[series.lineOf(rank)];
        if (group == kNone) {
            auto &candidates = linesByHash[hashOf(series[rank])];
            const auto same = std::find_if(candidates.begin(), candidates.end(), [&](auto line) {
                return series.line(line) == series[rank];
            });
            if (same != candidates.end()) {
                group = groupOf[*same];
            } else {
                candidates.push_back(series.lineOf(rank));
                group = groups.size();
                groups.emplace_back();
            }
        }
        groups[group].push_back(rank);
    }
    std::vector<LineShare> shares(series.size());
    for (const std::vector<std::size_t> &group : groups)
        for (std::size_t i = 0; i < group.size(); ++i) // ranks joined in rank order
            shares[group[i]] = LineShare{int(i), int(group.size())};
    return shares;
}

std::optional<core::SimTime> nearestSampleTime(const core::Trace &trace, double steps)
{
    std::optional<core::SimTime> best;
    double bestDistance = 0;
    for (const core::Event &event : trace.events) {
        const double distance = std::abs(event.start.toDouble() - steps);
        const bool better =
            !best || distance < bestDistance || (distance == bestDistance && event.start < *best);
        if (better) {
            best = event.start;
            bestDistance = distance;
        }
    }
    return best;
}

double niceStep(double span, int maxTicks)
{
    if (!(span > 0) || maxTicks < 1)
        return 1;
    const double raw = span / maxTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0}) {
        if (factor * magnitude >= raw * (1 - 1e-9))
            return factor * magnitude;
    }
    return 10 * magnitude;
}

std::vector<std::int64_t> memoryTicks(std::int64_t top, int maxTicks)
{
    const auto step =
        std::max<std::int64_t>(1, std::llround(niceStep(static_cast<double>(top), maxTicks)));
    std::vector<std::int64_t> ticks = {0};
    while (ticks.back() < top || ticks.size() < 2)
        ticks.push_back(ticks.back() + step);
    return ticks;
}

QString formatMemory(std::int64_t bytes)
{
    return QString::fromStdString(core::formatMemory(bytes));
}

} // namespace rankstep::gui
