// SPDX-License-Identifier: MIT
#include "tracescan.h"

#include "prefetch.h"

#include <algorithm>

namespace rankstep::gui {

TraceScan scanTrace(const core::Trace &trace)
{
    TraceScanner scanner(trace);
    scanner.walk(0, trace.events.size());
    return scanner.finish();
}

TraceScanner::TraceScanner(const core::Trace &trace) : m_trace(trace)
{
    m_scan.eventsOfRank.assign(std::size_t(std::max(0, trace.config.ranks)), 0);
}

void TraceScanner::walk(std::size_t from, std::size_t to)
{
    TraceScan &scan = m_scan;
    for (std::size_t i = from; i < to; ++i) {
        const core::Event &event = m_trace.events[i];
        if (event.rank >= 0) {
            const auto rank = std::size_t(event.rank);
            if (rank >= scan.eventsOfRank.size())
                scan.eventsOfRank.resize(rank + 1, 0);
            ++scan.eventsOfRank[rank];
        }
        scan.end = std::max(scan.end, event.end());
        scan.splitBackward = scan.splitBackward || event.op == core::OpKind::BackwardInput ||
                             event.op == core::OpKind::BackwardWeight;
        scan.allToAll = scan.allToAll || event.op == core::OpKind::AllToAll;
    }
}

TraceScan TraceScanner::finish()
{
    const auto &overlapped = m_trace.overlapped;
    m_scan.allToAll = m_scan.allToAll ||
                      std::any_of(overlapped.begin(), overlapped.end(),
                                  [](const auto &e) { return e.op == core::OpKind::AllToAll; });
    return std::move(m_scan);
}

RankIndexMaker::RankIndexMaker(const core::Trace &trace,
                               const std::vector<std::uint32_t> &eventsOfRank)
    : m_trace(trace), m_indices(eventsOfRank.size()), m_order(eventsOfRank.size())
{
    // Each rank's list made at its size (grown by doubling, 16,384 ranks' lists were copied about
    // twice and held twice their room at times). An index fits 32 bits: a trace holds at most
    // core::kMostTraceEvents events.
    for (std::size_t r = 0; r < m_indices.size(); ++r)
        m_indices[r].reserve(eventsOfRank[r]);
}

void RankIndexMaker::walk(std::size_t from, std::size_t to)
{
    // Whether each rank's events start, and end, in the trace's order (a simulated run's do),
    // found in this walk: read through each rank's list, the events of 16,384 ranks were a read
    // from far apart in memory for every event, twice.
    for (std::size_t i = from; i < to; ++i) {
        prefetchRankAhead(m_trace.events, i, to, m_indices);
        prefetchRankAhead(m_trace.events, i, to, m_order);
        const core::Event &event = m_trace.events[i];
        const auto rank = std::size_t(event.rank);
        if (event.rank < 0 || rank >= m_indices.size())
            continue;
        Order &last = m_order[rank];
        if (!m_indices[rank].empty() && (event.start < last.start || event.end() < last.end))
            last.kept = false;
        last.start = event.start;
        last.end = event.end();
        m_indices[rank].push_back(std::uint32_t(i));
    }
}

std::vector<RankEvents> RankIndexMaker::finish()
{
    std::vector<RankEvents> ranks;
    ranks.reserve(m_indices.size());
    for (std::size_t r = 0; r < m_indices.size(); ++r)
        ranks.emplace_back(m_trace, std::move(m_indices[r]), m_order[r].kept);
    m_indices = {};
    m_order = {};
    return ranks;
}

MessageLinkMaker::MessageLinkMaker(const core::Trace &trace) : m_trace(trace) {}

void MessageLinkMaker::send(std::int64_t link, std::size_t index)
{
    // A message's id below the count of events fits the table (each message has a pass_to); the
    // table grows by doubling up to that count.
    const std::size_t most = m_trace.events.size();
    if (link >= 0 && std::uint64_t(link) < most) {
        const auto id = std::size_t(link);
        if (id >= m_byId.size())
            m_byId.resize(std::min(most, std::max(id + 1, 2 * m_byId.size())), kNone);
        if (m_byId[id] == kNone)
            m_byId[id] = std::uint32_t(index);
        return;
    }
    m_others.emplace(link, index);
}

std::size_t MessageLinkMaker::sender(std::int64_t link) const
{
    if (link >= 0 && std::uint64_t(link) < m_byId.size())
        return m_byId[std::size_t(link)];
    const auto it = m_others.find(link);
    return it == m_others.end() ? kNone : it->second;
}

void MessageLinkMaker::firstWalk(std::size_t from, std::size_t to)
{
    for (std::size_t i = from; i < to; ++i) {
        const core::Event &event = m_trace.events[i];
        // A message of a profile has no link (-1): no arrow rather than one to every receive.
        if (event.op == core::OpKind::PassTo && event.link >= 0)
            send(event.link, i);
    }
}

void MessageLinkMaker::secondWalk(std::size_t from, std::size_t to)
{
    for (std::size_t i = from; i < to; ++i) {
        const core::Event &event = m_trace.events[i];
        if (event.op != core::OpKind::Receive)
            continue;
        if (const std::size_t sent = sender(event.link); sent != kNone)
            m_links.emplace_back(sent, i);
    }
}

std::vector<std::pair<std::size_t, std::size_t>> MessageLinkMaker::finish()
{
    return std::move(m_links);
}

} // namespace rankstep::gui
