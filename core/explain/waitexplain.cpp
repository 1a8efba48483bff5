// SPDX-License-Identifier: MIT
#include "waitexplain.h"

#include "core/sentences.h"
#include "describe.h"
#include "explainsentences.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace rankstep::explain {
namespace {

using core::Event;
using core::OpKind;
using core::SimTime;
using core::Trace;

// Each event's previous event on its rank, in 32 bits (a trace holds fewer events,
// core::kMostTraceEvents): 8 bytes an event less than optional indices, 0.14 GB at 16,384 ranks.
class PreviousEvents
{
public:
    void resize(std::size_t events) { m_at.assign(events, kNone); }
    void set(std::size_t event, std::size_t previous) { m_at[event] = std::uint32_t(previous); }
    std::optional<std::size_t> operator[](std::size_t event) const
    {
        return m_at[event] == kNone ? std::nullopt : std::optional<std::size_t>(m_at[event]);
    }

private:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFU;
    static_assert(core::kMostTraceEvents < kNone);
    std::vector<std::uint32_t> m_at;
};

// Who came before whom: each event's previous event on its rank, the events of each collective,
// and the pass_to of each message; for the operations started on the communication stream
// (trace.overlapped) the same, and what each rank ran as one of them began.
struct Links {
    explicit Links(const Trace &trace)
    {
        std::unordered_map<int, std::size_t> last;
        previous.resize(trace.events.size());
        for (std::size_t i = 0; i < trace.events.size(); ++i) {
            const Event &e = trace.events[i];
            if (auto it = last.find(e.rank); it != last.end())
                previous.set(i, it->second);
            last[e.rank] = i;
            if (core::isCollective(e.op) && e.link >= 0)
                collective[e.link].push_back(i);
            else if (e.op == OpKind::PassTo && e.link >= 0)
                sender[e.link] = i;
        }
        if (!trace.overlapped.empty()) [[unlikely]]
            linkStarted(trace);
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
    // The rank's last event that ended at `at` (a started operation was called right after it).
    std::optional<std::size_t> ranAt(const Trace &trace, int rank, SimTime at) const
    {
        const auto it = byRank.find(rank);
        if (it == byRank.end())
            return std::nullopt;
        const std::vector<std::size_t> &mine = it->second; // in time order, as the rank ran them
        const auto after = std::upper_bound(
            mine.begin(), mine.end(), at,
            [&trace](SimTime t, std::size_t e) { return t < trace.events[e].end(); });
        if (after == mine.begin() || trace.events[*std::prev(after)].end() != at)
            return std::nullopt;
        return *std::prev(after);
    }

    PreviousEvents previous;
    std::unordered_map<std::int64_t, std::vector<std::size_t>> collective;
    std::unordered_map<std::int64_t, std::size_t> sender;
    std::map<std::pair<int, std::int64_t>, std::size_t> ended; // started ones, by rank and end
    // Only for a run that started operations on the stream:
    std::unordered_map<int, std::vector<std::size_t>> byRank; // each rank's events
    std::vector<std::optional<std::size_t>> streamBefore;     // the stream's previous operation
    std::unordered_map<std::int64_t, std::size_t> startedSender;
    std::unordered_map<std::int64_t, std::vector<std::size_t>> startedCollective;

private:
    void linkStarted(const Trace &trace)
    {
        for (std::size_t i = 0; i < trace.events.size(); ++i)
            byRank[trace.events[i].rank].push_back(i);
        // A stream runs its operations one after another, in the order they started.
        std::vector<std::size_t> order(trace.overlapped.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const Event &x = trace.overlapped[a], &y = trace.overlapped[b];
            return x.rank != y.rank ? x.rank < y.rank : x.start < y.start;
        });
        streamBefore.resize(order.size());
        for (std::size_t k = 1; k < order.size(); ++k)
            if (trace.overlapped[order[k]].rank == trace.overlapped[order[k - 1]].rank)
                streamBefore[order[k]] = order[k - 1];
        for (std::size_t i = 0; i < trace.overlapped.size(); ++i) {
            const Event &e = trace.overlapped[i];
            ended.emplace(std::pair(e.rank, e.end().ticks()), i);
            if (core::isCollective(e.op) && e.link >= 0)
                startedCollective[e.link].push_back(i);
            else if (e.op == OpKind::PassTo && e.link >= 0)
                startedSender[e.link] = i;
        }
    }
};

// Why a rank's event or started operation began where it did: what of `rank` ended at `at`, the
// event it ran or a started operation it awaited.
std::optional<Link> ranBefore(const Trace &trace, const Links &links, int rank, SimTime at,
                              Cause ran)
{
    if (const auto event = links.ranAt(trace, rank, at))
        return Link{*event, ran};
    if (const auto awaited = links.awaitedAt(trace, rank, at))
        return Link{*awaited, Cause::Await, true};
    return std::nullopt;
}

// A started operation begins at the latest of its call, its stream's end and, for a receive, the
// message's arrival; a started collective when its last member joined or its stream freed.
std::optional<Link> startedCause(const Trace &trace, const Links &links, std::size_t started)
{
    const Event &e = trace.overlapped[started];
    if (e.op == OpKind::Receive && e.link >= 0) {
        if (const auto it = links.startedSender.find(e.link);
            it != links.startedSender.end() && trace.overlapped[it->second].end() == e.start)
            return Link{it->second, Cause::Message, true};
        if (const auto it = links.sender.find(e.link);
            it != links.sender.end() && trace.events[it->second].end() == e.start)
            return Link{it->second, Cause::Message};
    }
    const std::optional<std::size_t> before = links.streamBefore[started];
    if (before && trace.overlapped[*before].end() == e.start)
        return Link{*before, Cause::Stream, true};
    if (core::isCollective(e.op) && e.link >= 0) {
        // The member that joined last, or whose stream freed last: the start is theirs.
        const auto it = links.startedCollective.find(e.link);
        for (const std::size_t member :
             it == links.startedCollective.end() ? std::vector<std::size_t>() : it->second) {
            const std::optional<std::size_t> theirs = links.streamBefore[member];
            if (member != started && theirs && trace.overlapped[*theirs].end() == e.start)
                return Link{*theirs, Cause::Stream, true};
        }
        if (it != links.startedCollective.end())
            for (const std::size_t member : it->second)
                if (auto link = ranBefore(trace, links, trace.overlapped[member].rank, e.start,
                                          Cause::Call))
                    return link;
        return std::nullopt;
    }
    return ranBefore(trace, links, e.rank, e.start, Cause::Call);
}

// `throughAwaits`: an event that began as an await returned links to that started operation
// (explanations); the critical path keeps to the ranks' events.
std::optional<Link> causeWith(const Trace &trace, const Links &links, std::size_t event,
                              bool throughAwaits = false)
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
        if (const auto started = links.startedSender.find(e.link);
            throughAwaits && started != links.startedSender.end() &&
            trace.overlapped[started->second].end() == e.start)
            return Link{started->second, Cause::Message, true};
    }
    if (throughAwaits)
        if (const auto awaited = links.awaitedAt(trace, e.rank, e.start))
            return Link{*awaited, Cause::Await, true};
    return std::nullopt;
}

const Event &linked(const Trace &trace, const Link &link)
{
    return link.started ? trace.overlapped[link.event] : trace.events[link.event];
}

std::optional<Link> causeOfLink(const Trace &trace, const Links &links, const Link &link)
{
    return link.started ? startedCause(trace, links, link.event)
                        : causeWith(trace, links, link.event, true);
}

// Back from `link` (the cause of the waiting event, or of the started operation `awaited` it
// awaited) while the events ended inside the wait. A started operation's own cause is said even
// when it ended before (once, where the chain then stops), so that it is clear when and after
// what its rank started it.
std::vector<Link> chainBack(const Trace &trace, const Links &links, std::optional<Link> link,
                            SimTime notBefore, std::optional<std::size_t> awaited)
{
    std::vector<Link> chain;
    const auto lastStarted = [&]() -> std::optional<std::size_t> {
        if (chain.empty())
            return awaited;
        return chain.back().started ? std::optional(chain.back().event) : std::nullopt;
    };
    // A trace made by hand (an opened file) may link events in a circle, which a run never
    // does: a link met twice ends the chain there.
    std::set<std::pair<bool, std::size_t>> seen;
    while (link) {
        const bool inside = linked(trace, *link).end() > notBefore;
        if (!inside && !lastStarted())
            return chain;
        if (!seen.insert({link->started, link->event}).second)
            return chain;
        chain.push_back(*link);
        if (!inside)
            return chain;
        link = causeOfLink(trace, links, *link);
    }
    // Nothing ended as it began: its rank called it before running anything.
    if (const auto started = lastStarted();
        started && trace.overlapped[*started].start == SimTime())
        chain.push_back({*started, Cause::First, true});
    return chain;
}

// The wait before `event`, its rank free since `free`.
Wait waitAt(const Trace &trace, const Links &links, std::size_t event, SimTime free,
            bool withChains)
{
    const Event &e = trace.events[event];
    Wait wait{e.rank, free, e.start, event, links.awaitedAt(trace, e.rank, e.start), {}, {}};
    if (!withChains)
        return wait;
    wait.causes = chainBack(trace, links,
                            wait.awaited ? startedCause(trace, links, *wait.awaited)
                                         : causeWith(trace, links, event, true),
                            free, wait.awaited);
    for (const Link &link : wait.causes)
        if (!link.started)
            wait.chain.push_back(link);
    return wait;
}

std::string whose(const Event &event, const core::Phrasebook &words)
{
    return words.say(sentence::kRanksEvent,
                     {std::to_string(event.rank), describeEvent(event, words)});
}

// "pass_to_start to rank 1": a started operation by the call that started it.
std::string describeStarted(const Event &event, const core::Phrasebook &words)
{
    const std::string name = std::string(core::opName(event.op)) + "_start";
    if ((event.op == OpKind::PassTo || event.op == OpKind::Receive) && event.peer >= 0)
        return words.say(
            event.op == OpKind::PassTo ? core::sentence::kToRank : core::sentence::kFromRank,
            {name, std::to_string(event.peer)});
    return event.layer >= 0
               ? words.say(core::sentence::kOfLayer, {name, std::to_string(event.layer)})
               : name;
}

// "rank 0's pass_to_start to rank 1 (t 0 to 0.2 on its communication stream)"
std::string whoseStarted(const Trace &trace, const Event &event, const core::Phrasebook &words)
{
    return words.say(sentence::kRanksStarted,
                     {std::to_string(event.rank), describeStarted(event, words),
                      timeText(trace, event.start, words), timeText(trace, event.end(), words)});
}

// One link of a wait's chain said after the text before it. `first`: the link that ended the wait
// itself; `afterStarted`: the text before ends with a started operation, which this link started.
std::string sayLink(const Trace &trace, const Link &link, std::string text, bool first,
                    bool afterStarted, const core::Phrasebook &words)
{
    const Event &cause = linked(trace, link);
    const std::string rank = std::to_string(cause.rank);
    switch (link.cause) {
        case Cause::Collective:
            return words.say(first ? sentence::kUntilReached : sentence::kWhichWaitedToReach,
                             {std::move(text), rank, describeEvent(cause, words)});
        case Cause::Message:
            return words.say(first ? sentence::kForMessage : sentence::kWhichWaitedFor,
                             {std::move(text), link.started ? whoseStarted(trace, cause, words)
                                                            : whose(cause, words)});
        case Cause::SameRank:
            return words.say(first ? sentence::kUntilEnded : sentence::kWhichCameAfter,
                             {std::move(text), whose(cause, words)});
        case Cause::Stream:
            return words.say(sentence::kWhichWaitedToFreeStream,
                             {std::move(text), whoseStarted(trace, cause, words)});
        case Cause::Call:
            return words.say(sentence::kWhichStartedAfter,
                             {std::move(text), rank, timeText(trace, cause.end(), words),
                              words.say(sentence::kItsEvent, {describeEvent(cause, words)})});
        case Cause::Await:
            if (afterStarted) // its rank called the started operation as the await returned
                return words.say(
                    sentence::kWhichStartedAfter,
                    {std::move(text), rank, timeText(trace, cause.end(), words),
                     words.say(sentence::kTheAwaitOfIts,
                               {describeStarted(cause, words), timeText(trace, cause.start, words),
                                timeText(trace, cause.end(), words)})});
            return words.say(sentence::kWhichCameAfter,
                             {std::move(text), words.say(sentence::kTheAwaitOfRanks,
                                                         {rank, describeStarted(cause, words),
                                                          timeText(trace, cause.start, words),
                                                          timeText(trace, cause.end(), words)})});
        case Cause::First:
            return words.say(sentence::kWhichStartedRightAway,
                             {std::move(text), rank, timeText(trace, cause.start, words)});
    }
    return text;
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
            found.push_back({e.rank, at, e.start, i, awaitedAt(e.rank, e.start), {}, {}});
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
        if (trace.events[i].start > free)
            found.push_back(waitAt(trace, links, i, free, withChains));
    }
    return found;
}

std::vector<Wait> waitsOf(const Trace &trace, int rank)
{
    const Links links(trace);
    std::vector<Wait> found;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        if (trace.events[i].rank != rank)
            continue;
        const SimTime free = links.freeAt(trace, i);
        if (trace.events[i].start > free)
            found.push_back(waitAt(trace, links, i, free, true));
    }
    return found;
}

std::optional<Wait> waitBefore(const Trace &trace, std::size_t event)
{
    const Links links(trace);
    const SimTime free = links.freeAt(trace, event);
    if (trace.events.at(event).start <= free)
        return std::nullopt;
    return waitAt(trace, links, event, free, true);
}

std::string describeWait(const Trace &trace, const Wait &wait, const core::Phrasebook &words)
{
    const Event &e = trace.events[wait.event];
    const bool awaited = wait.awaited && *wait.awaited < trace.overlapped.size();
    std::string text =
        words.say(sentence::kWaited,
                  {std::to_string(wait.rank), timeText(trace, wait.to - wait.from, words),
                   timeText(trace, wait.from, words), timeText(trace, wait.to, words),
                   awaited ? words.say(sentence::kAwaitOf,
                                       {describeEvent(trace.overlapped[*wait.awaited], words)})
                           : describeEvent(e, words)});
    // After an await the first link is why the awaited operation ended when it did: a "which".
    // A chain longer than a reader follows (through a deep pipeline's stages and their tensor
    // groups it runs to hundreds of links, a sentence of tens of thousands of characters) says its
    // first links and sums up the rest: how many, and where it began.
    const std::size_t said =
        wait.causes.size() > kMostLinksSaid + 1 ? kMostLinksSaid : wait.causes.size();
    for (std::size_t i = 0; i < said; ++i)
        text = sayLink(trace, wait.causes[i], std::move(text), i == 0 && !awaited,
                       i == 0 ? awaited : wait.causes[i - 1].started, words);
    if (said < wait.causes.size()) {
        const Link &origin = wait.causes.back();
        const Event &began = linked(trace, origin);
        text = words.say(sentence::kChainBackTo,
                         {std::move(text), std::to_string(wait.causes.size() - said),
                          origin.started ? whoseStarted(trace, began, words) : whose(began, words),
                          timeText(trace, began.start, words)});
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
    std::vector<bool> seen(trace.events.size(), false); // a hand-made trace's links may circle
    seen[last] = true;
    for (auto link = causeWith(trace, links, last); link && !seen[link->event];
         link = causeWith(trace, links, link->event)) {
        seen[link->event] = true;
        path.push_back(link->event);
    }
    std::reverse(path.begin(), path.end());
    return path;
}

} // namespace rankstep::explain
