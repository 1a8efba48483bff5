// SPDX-License-Identifier: MIT
#include "waitexplain.h"

#include "core/sentences.h"
#include "explainsentences.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace rankstep::explain {
namespace {

using core::Event;
using core::OpKind;
using core::SimTime;
using core::Trace;

// Who came before whom: each event's previous event on its rank, the events of each collective,
// and the pass_to of each message.
struct Links {
    explicit Links(const Trace &trace)
    {
        std::unordered_map<int, std::size_t> last;
        previous.resize(trace.events.size());
        for (std::size_t i = 0; i < trace.events.size(); ++i) {
            const Event &e = trace.events[i];
            if (auto it = last.find(e.rank); it != last.end())
                previous[i] = it->second;
            last[e.rank] = i;
            if (core::isCollective(e.op) && e.link >= 0)
                collective[e.link].push_back(i);
            else if (e.op == OpKind::PassTo && e.link >= 0)
                sender[e.link] = i;
        }
        for (std::size_t i = 0; i < trace.overlapped.size(); ++i)
            ended.emplace(std::pair(trace.overlapped[i].rank, trace.overlapped[i].end().ticks()),
                          i);
    }
    // The started operation of `rank` that ended at `at`, if any: what its await waited for.
    std::optional<std::size_t> awaitedAt(const Trace &trace, int rank, SimTime at) const
    {
        const auto it = ended.find({rank, at.ticks()});
        return it == ended.end() || it->second >= trace.overlapped.size()
                   ? std::nullopt
                   : std::optional(it->second);
    }
    SimTime freeAt(const Trace &trace, std::size_t event) const // when its rank was free
    {
        return previous[event] ? trace.events[*previous[event]].end() : SimTime();
    }

    std::vector<std::optional<std::size_t>> previous;
    std::unordered_map<std::int64_t, std::vector<std::size_t>> collective;
    std::unordered_map<std::int64_t, std::size_t> sender;
    std::map<std::pair<int, std::int64_t>, std::size_t> ended; // started ones, by rank and end
};

std::optional<Link> causeWith(const Trace &trace, const Links &links, std::size_t event)
{
    const Event &e = trace.events[event];
    const SimTime free = links.freeAt(trace, event);
    if (free == e.start)
        return links.previous[event]
                   ? std::optional<Link>({*links.previous[event], Cause::SameRank})
                   : std::nullopt;
    if (core::isCollective(e.op)) {
        const auto it = links.collective.find(e.link);
        if (it != links.collective.end())
            for (const std::size_t other : it->second)
                if (other != event && links.previous[other] &&
                    links.freeAt(trace, other) == e.start)
                    return Link{*links.previous[other], Cause::Collective};
    }
    if (e.op == OpKind::Receive) {
        const auto it = links.sender.find(e.link);
        if (it != links.sender.end() && trace.events[it->second].end() == e.start)
            return Link{it->second, Cause::Message};
    }
    return std::nullopt;
}

std::vector<Link> chainBack(const Trace &trace, const Links &links, std::size_t event,
                            SimTime notBefore)
{
    std::vector<Link> chain;
    auto link = causeWith(trace, links, event);
    while (link && trace.events[link->event].end() > notBefore) {
        chain.push_back(*link);
        link = causeWith(trace, links, link->event);
    }
    return chain;
}

std::string whose(const Event &event, const core::Phrasebook &words)
{
    return words.say(sentence::kRanksEvent,
                     {std::to_string(event.rank), describeEvent(event, words)});
}

// The idle gaps alone (waits without chains): each rank's last end and the started operations'
// ends are all they need. The links of every event (an index per event, every collective's
// members, every message) took 0.3 GB and more at 16,384 ranks, for the timeline's gaps.
std::vector<Wait> gaps(const Trace &trace)
{
    std::map<std::pair<int, std::int64_t>, std::size_t> ended; // as Links::ended
    for (std::size_t i = 0; i < trace.overlapped.size(); ++i)
        ended.emplace(std::pair(trace.overlapped[i].rank, trace.overlapped[i].end().ticks()), i);
    const auto awaitedAt = [&](int rank, SimTime at) -> std::optional<std::size_t> {
        const auto it = ended.find({rank, at.ticks()});
        return it == ended.end() ? std::nullopt : std::optional(it->second);
    };
    // The end of each rank's last event so far (free from 0 before its first): by rank, and in a
    // map for a rank outside the run's count (a hand-made trace).
    std::vector<SimTime> free(std::size_t(std::max(trace.config.ranks, 0)));
    std::unordered_map<int, SimTime> others;
    std::vector<Wait> found;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event &e = trace.events[i];
        SimTime &at = e.rank >= 0 && std::size_t(e.rank) < free.size() ? free[std::size_t(e.rank)]
                                                                       : others[e.rank];
        if (e.start > at)
            found.push_back({e.rank, at, e.start, i, awaitedAt(e.rank, e.start), {}});
        at = e.end();
    }
    return found;
}

} // namespace

std::string describeEvent(const Event &event, const core::Phrasebook &words)
{
    const std::string name = core::opName(event.op);
    if ((event.op == OpKind::PassTo || event.op == OpKind::Receive) && event.peer < 0)
        return name; // a profile's send or recv names no peer
    if (event.op == OpKind::PassTo)
        return words.say(core::sentence::kToRank, {name, std::to_string(event.peer)});
    if (event.op == OpKind::Receive)
        return words.say(core::sentence::kFromRank, {name, std::to_string(event.peer)});
    if (event.layer >= 0)
        return words.say(core::sentence::kOfLayer, {name, std::to_string(event.layer)});
    return name;
}

std::optional<Link> causeOf(const Trace &trace, std::size_t event)
{
    return causeWith(trace, Links(trace), event);
}

std::vector<Wait> waits(const Trace &trace, bool withChains)
{
    if (!withChains)
        return gaps(trace);
    const Links links(trace);
    std::vector<Wait> found;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const SimTime free = links.freeAt(trace, i);
        const Event &e = trace.events[i];
        if (e.start > free)
            found.push_back({e.rank, free, e.start, i, links.awaitedAt(trace, e.rank, e.start),
                             withChains ? chainBack(trace, links, i, free) : std::vector<Link>()});
    }
    return found;
}

std::optional<Wait> waitBefore(const Trace &trace, std::size_t event)
{
    const Links links(trace);
    const SimTime free = links.freeAt(trace, event);
    const Event &e = trace.events.at(event);
    if (e.start <= free)
        return std::nullopt;
    return Wait{e.rank,
                free,
                e.start,
                event,
                links.awaitedAt(trace, e.rank, e.start),
                chainBack(trace, links, event, free)};
}

std::string describeWait(const Trace &trace, const Wait &wait, const core::Phrasebook &words)
{
    const Event &e = trace.events[wait.event];
    std::string text = words.say(
        sentence::kWaited, {std::to_string(wait.rank), (wait.to - wait.from).toString(),
                            wait.from.toString(), wait.to.toString(),
                            wait.awaited && *wait.awaited < trace.overlapped.size()
                                ? words.say(sentence::kAwaitOf,
                                            {describeEvent(trace.overlapped[*wait.awaited], words)})
                                : describeEvent(e, words)});
    for (std::size_t i = 0; i < wait.chain.size(); ++i) {
        const Link &link = wait.chain[i];
        const Event &cause = trace.events[link.event];
        const bool first = i == 0;
        switch (link.cause) {
            case Cause::Collective:
                text = words.say(
                    first ? sentence::kUntilReached : sentence::kWhichWaitedToReach,
                    {std::move(text), std::to_string(cause.rank), describeEvent(cause, words)});
                break;
            case Cause::Message:
                text = words.say(first ? sentence::kForMessage : sentence::kWhichWaitedFor,
                                 {std::move(text), whose(cause, words)});
                break;
            case Cause::SameRank:
                text = words.say(first ? sentence::kUntilEnded : sentence::kWhichCameAfter,
                                 {std::move(text), whose(cause, words)});
                break;
        }
    }
    return words.say(sentence::kSentence, {std::move(text)});
}

std::vector<std::size_t> criticalPath(const Trace &trace)
{
    if (trace.events.empty())
        return {};
    std::size_t last = 0;
    for (std::size_t i = 1; i < trace.events.size(); ++i)
        if (trace.events[i].end() > trace.events[last].end())
            last = i;
    const Links links(trace);
    std::vector<std::size_t> path{last};
    for (auto link = causeWith(trace, links, last); link;
         link = causeWith(trace, links, link->event))
        path.push_back(link->event);
    std::reverse(path.begin(), path.end());
    return path;
}

} // namespace rankstep::explain
