// SPDX-License-Identifier: MIT
#include "memoryexplain.h"

#include "describe.h"
#include "explainsentences.h"

#include "core/memoryformat.h"

#include <algorithm>
#include <map>
#include <utility>

namespace rankstep::explain {
namespace {

using core::ObjectKind;
using core::SimTime;
using core::StorageChange;
using core::Trace;

// One rank's clock at its changes, asked in change order: the end of its last event before each
// (changeTimes for one rank, without a time for every change of every rank).
class RankClock
{
public:
    RankClock(const Trace &trace, int rank) : m_trace(trace), m_rank(rank) {}
    SimTime at(std::size_t change)
    {
        if (m_rank < 0 || m_rank >= m_trace.config.ranks)
            return SimTime(); // as changeTimes: no clock for a rank outside the run's count
        const std::size_t until =
            std::min<std::size_t>(m_trace.changes[change].eventCount, m_trace.events.size());
        for (; m_next < until; ++m_next)
            if (m_trace.events[m_next].rank == m_rank)
                m_clock = m_trace.events[m_next].end();
        return m_clock;
    }

private:
    const Trace &m_trace;
    int m_rank;
    std::size_t m_next = 0; // events seen
    SimTime m_clock;
};

// One rank's dictionaries rebuilt from its changes: each entry the index of the change that set it
// and the rank's clock then.
class RankStorage
{
public:
    explicit RankStorage(const Trace &trace) : m_trace(trace) {}
    void apply(std::size_t change, SimTime time)
    {
        const StorageChange &c = m_trace.changes[change];
        auto slot = std::make_pair(int(c.map), c.key);
        if (c.isSet())
            m_entries[slot] = {change, time};
        else
            m_entries.erase(slot);
    }
    MemoryMoment moment(int rank, SimTime time) const
    {
        MemoryMoment moment{rank,
                            time,
                            0,
                            {},
                            {},
                            std::max(1, m_trace.config.layout.context),
                            m_trace.config.cost.realScale()};
        for (const auto &[slot, entry] : m_entries) {
            const auto [change, since] = entry;
            const StorageChange &c = m_trace.changes[change];
            const core::Object &object = m_trace.changes.objectAt(c.objectId);
            const std::int64_t bytes = core::memoryOf(object, m_trace.config.cost.sizes);
            moment.bytes += bytes;
            moment.byKind.of(object.kind) += bytes;
            moment.objects.push_back({c.map, c.key, object, bytes, c.line, since, change});
        }
        std::stable_sort(moment.objects.begin(), moment.objects.end(),
                         [](const LiveObject &a, const LiveObject &b) {
                             return a.bytes != b.bytes ? a.bytes > b.bytes : a.since < b.since;
                         });
        return moment;
    }
    KindBytes byKind() const
    {
        KindBytes kinds;
        for (const auto &[slot, entry] : m_entries) {
            const core::Object &object =
                m_trace.changes.objectAt(m_trace.changes[entry.first].objectId);
            kinds.of(object.kind) += core::memoryOf(object, m_trace.config.cost.sizes);
        }
        return kinds;
    }

private:
    const Trace &m_trace;
    std::map<std::pair<int, core::Key>, std::pair<std::size_t, SimTime>> m_entries;
};

} // namespace

std::int64_t KindBytes::total() const
{
    std::int64_t sum = 0;
    for (const std::int64_t b : bytes)
        sum += b;
    return sum;
}

const char *kindKey(ObjectKind kind)
{
    switch (kind) {
        case ObjectKind::Weight:
            return "weight";
        case ObjectKind::OptState:
            return "opt_state";
        case ObjectKind::Activation:
            return "activation";
        case ObjectKind::ActivationGrad:
            return "activation_grad";
        case ObjectKind::WeightGrad:
            return "weight_grad";
        case ObjectKind::KeysValues:
            return "keys_values";
    }
    return "weight";
}

std::vector<SimTime> changeTimes(const Trace &trace)
{
    std::vector<SimTime> times(trace.changes.size());
    std::vector<SimTime> clock(std::size_t(std::max(trace.config.ranks, 0)));
    std::size_t next = 0; // events applied to the clocks
    for (std::size_t i = 0; i < trace.changes.size(); ++i) {
        const StorageChange &change = trace.changes[i];
        for (; next < change.eventCount && next < trace.events.size(); ++next) {
            const core::Event &event = trace.events[next];
            if (std::size_t(event.rank) < clock.size())
                clock[std::size_t(event.rank)] = event.end();
        }
        if (std::size_t(change.rank) < clock.size())
            times[i] = clock[std::size_t(change.rank)];
    }
    return times;
}

SimTime changeTime(const Trace &trace, std::size_t change)
{
    const StorageChange &c = trace.changes[change];
    if (c.rank < 0 || c.rank >= trace.config.ranks)
        return SimTime();
    for (std::size_t i = std::min<std::size_t>(c.eventCount, trace.events.size()); i > 0; --i)
        if (trace.events[i - 1].rank == c.rank)
            return trace.events[i - 1].end();
    return SimTime();
}

MemoryMoment memoryAtEvent(const Trace &trace, std::size_t event)
{
    const core::Event &e = trace.events.at(event);
    RankStorage storage(trace);
    RankClock clock(trace, e.rank);
    for (std::size_t i = 0; i < trace.changes.size() && trace.changes[i].eventCount <= event; ++i)
        if (trace.changes[i].rank == e.rank)
            storage.apply(i, clock.at(i));
    return storage.moment(e.rank, e.start);
}

std::optional<MemoryMoment> peakMemory(const Trace &trace)
{
    const core::Figures &f = trace.figures;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const core::Event &e = trace.events[i];
        if (f.hasEvents && e.rank == f.maxMemoryRank && e.start == f.maxMemoryTime &&
            e.memory == f.maxMemory)
            return memoryAtEvent(trace, i);
    }
    return std::nullopt;
}

MemoryMoment memoryAt(const Trace &trace, int rank, SimTime time)
{
    RankStorage storage(trace);
    RankClock clock(trace, rank);
    for (std::size_t i = 0; i < trace.changes.size(); ++i)
        if (trace.changes[i].rank == rank)
            if (const SimTime at = clock.at(i); at <= time)
                storage.apply(i, at);
    return storage.moment(rank, time);
}

std::vector<KindSample> memoryByKind(const Trace &trace, int rank)
{
    RankStorage storage(trace);
    RankClock clock(trace, rank);
    std::vector<KindSample> samples{{SimTime(), {}}};
    for (std::size_t i = 0; i < trace.changes.size(); ++i) {
        if (trace.changes[i].rank != rank)
            continue;
        const SimTime at = clock.at(i);
        storage.apply(i, at);
        if (samples.back().time == at)
            samples.back().byKind = storage.byKind(); // several changes at one time: the last
        else
            samples.push_back({at, storage.byKind()});
    }
    return samples;
}

std::string describeMoment(const MemoryMoment &moment, const char *what,
                           const core::Phrasebook &words)
{
    std::string held;
    for (const ObjectGroup &group : groupByKind(moment.objects))
        held += (held.empty() ? "" : ", ") + describeGroup(group, words);
    const std::string said = words.say(what, {});
    if (held.empty())
        return words.say(sentence::kMomentEmpty,
                         {said, std::to_string(moment.bytes), std::to_string(moment.rank),
                          timeText(moment.milliseconds, moment.time, words)});
    std::string text = words.say(sentence::kMomentHolds,
                                 {said, std::to_string(moment.bytes), std::to_string(moment.rank),
                                  timeText(moment.milliseconds, moment.time, words), held});
    std::string unfinished = describeUnfinishedHeld(moment.objects, moment.contextSize, words);
    return unfinished.empty()
               ? text
               : words.say(sentence::kUnfinishedHeld, {std::move(text), std::move(unfinished)});
}

std::string describeOverTarget(const Trace &trace, const MemoryMoment &moment, std::int64_t target,
                               const core::Phrasebook &words)
{
    const std::int64_t excess = moment.bytes - target;
    if (excess <= 0)
        return {};
    // Weights and optimizer states are the model itself: what a learner can free sooner are the
    // activations and gradients, so those come first, largest first.
    std::vector<LiveObject> candidates = moment.objects;
    const auto modelState = [](const LiveObject &o) {
        return o.object.kind == ObjectKind::Weight || o.object.kind == ObjectKind::OptState;
    };
    std::stable_partition(candidates.begin(), candidates.end(),
                          [&](const LiveObject &o) { return !modelState(o); });
    std::vector<LiveObject> covering;
    std::int64_t covered = 0;
    for (const LiveObject &object : candidates) {
        if (covered >= excess)
            break;
        covering.push_back(object);
        covered += object.bytes;
    }
    std::string kept;
    for (std::size_t i = 0; i < covering.size(); ++i) {
        const LiveObject &object = covering[i];
        kept += (i == 0 ? "" : ", ") +
                words.say(sentence::kKeptFromTo,
                          {describeObject(object, words), timeText(trace, object.since, words),
                           describeRemoval(trace, moment.rank, object, words)});
    }
    return words.say(sentence::kOverTarget, {std::to_string(excess), std::to_string(target), kept});
}

std::string describeDeviceFit(const Trace &trace, std::int64_t peakBytes,
                              const core::Phrasebook &words)
{
    const std::int64_t device = trace.config.cost.deviceMemory;
    if (device <= 0)
        return {};
    const std::int64_t spare = device - peakBytes;
    return spare >= 0 ? words.say(sentence::kFitsDevice,
                                  {core::formatMemoryExact(device), core::formatMemoryExact(spare)})
                      : words.say(sentence::kOverDevice, {core::formatMemoryExact(-spare),
                                                          core::formatMemoryExact(device)});
}

} // namespace rankstep::explain
