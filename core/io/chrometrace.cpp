// SPDX-License-Identifier: MIT
#include "chrometrace.h"

#include "jsonwriter.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace rankstep::io {

namespace {

constexpr int kPid = 1;

// Perfetto treats tid 0 as the idle (swapper) thread, so rank N runs on tid N + 1, and its
// communication stream (non-blocking collectives, Trace::overlapped) on tid kStreamTid + N + 1.
constexpr int kStreamTid = 1 << 20;
int tidOf(int rank, bool stream = false)
{
    return rank + 1 + (stream ? kStreamTid : 0);
}

std::string eventName(const core::Event &event)
{
    std::string name = core::opName(event.op);
    if (event.layer >= 0)
        name += " L" + std::to_string(event.layer);
    if (event.op == core::OpKind::PassTo)
        name += " -> rank " + std::to_string(event.peer);
    else if (event.op == core::OpKind::Receive)
        name += " <- rank " + std::to_string(event.peer);
    return name;
}

// Starts one entry of traceEvents with the members every phase has.
JsonObject &header(JsonObject &fields, std::string_view name, const char *phase, int rank,
                   std::int64_t ts, bool stream = false)
{
    return fields.string("name", name)
        .string("ph", phase)
        .integer("pid", kPid)
        .integer("tid", tidOf(rank, stream))
        .integer("ts", ts);
}

class ChromeWriter
{
public:
    explicit ChromeWriter(const core::Trace &trace) : m_trace(trace) {}
    std::string write();

private:
    JsonObject entry()
    {
        m_out += m_first ? "\n" : ",\n";
        m_first = false;
        return JsonObject(m_out);
    }
    void metadata(int ranks);
    void complete(const core::Event &event, bool stream = false);
    void counters(int ranks);
    void counter(int rank, std::int64_t ts, std::int64_t bytes);
    void flows();
    void flow(const core::Event &event, const char *phase);

    const core::Trace &m_trace;
    std::string m_out;
    bool m_first = true;
    std::vector<std::optional<std::int64_t>> m_lastBytes; // per rank, the counter's last value
};

std::string ChromeWriter::write()
{
    int ranks = std::max(m_trace.config.ranks, 0);
    for (const core::Event &event : m_trace.events)
        ranks = std::max(ranks, event.rank + 1);
    // Perfetto (up to 2023) recognises JSON only when the text starts with {"traceEvents":[.
    m_out = "{\"traceEvents\": [";
    metadata(ranks);
    for (const core::Event &event : m_trace.events)
        complete(event);
    for (const core::Event &event : m_trace.overlapped)
        complete(event, true);
    counters(ranks);
    flows();
    m_out += "],\n\"displayTimeUnit\": \"ms\"}\n";
    return std::move(m_out);
}

void ChromeWriter::metadata(int ranks)
{
    JsonObject process = entry();
    header(process, "process_name", "M", 0, 0);
    JsonObject(process.open("args")).string("name", "Rankstep").close();
    process.close();
    for (int rank = 0; rank < ranks; ++rank) {
        JsonObject name = entry();
        header(name, "thread_name", "M", rank, 0);
        JsonObject(name.open("args")).string("name", "rank " + std::to_string(rank)).close();
        name.close();
        JsonObject order = entry();
        header(order, "thread_sort_index", "M", rank, 0);
        JsonObject(order.open("args")).integer("sort_index", rank).close();
        order.close();
    }
    if (m_trace.overlapped.empty())
        return;
    for (int rank = 0; rank < ranks; ++rank) { // the communication streams, below the ranks
        JsonObject name = entry();
        header(name, "thread_name", "M", rank, 0, true);
        JsonObject(name.open("args"))
            .string("name", "rank " + std::to_string(rank) + " communication")
            .close();
        name.close();
        JsonObject order = entry();
        header(order, "thread_sort_index", "M", rank, 0, true);
        JsonObject(order.open("args")).integer("sort_index", ranks + rank).close();
        order.close();
    }
}

void ChromeWriter::complete(const core::Event &event, bool stream)
{
    JsonObject fields = entry();
    header(fields, eventName(event), "X", event.rank, event.start.ticks(), stream)
        .integer("dur", event.duration.ticks())
        .string("cat", core::isCommunication(event.op) ? "communication" : "compute");
    JsonObject args(fields.open("args"));
    args.string("op", core::opName(event.op))
        .integer("layer", event.layer)
        .indices("batches", event.batches)
        .integer("memory", event.memory)
        .integer("line", event.line);
    if (event.op == core::OpKind::PassTo || event.op == core::OpKind::Receive)
        args.integer("peer", event.peer);
    if (event.link >= 0)
        args.integer("link", event.link);
    args.close();
    fields.close();
}

// A rank's memory steps at each of its storage changes and is sampled again at each event start
// (the event's memory). A change happens at the rank's clock then: the end of the last event the
// rank recorded before it (0 before its first event). Repeats of the last value are left out.
void ChromeWriter::counters(int ranks)
{
    m_lastBytes.assign(std::size_t(ranks), std::nullopt);
    std::vector<std::int64_t> clock(std::size_t(ranks), 0);
    std::size_t next = 0;
    const auto eventsBefore = [&](std::size_t count) {
        for (; next < std::min(count, m_trace.events.size()); ++next) {
            const core::Event &event = m_trace.events[next];
            if (event.rank < 0)
                continue;
            counter(event.rank, event.start.ticks(), event.memory);
            clock[std::size_t(event.rank)] = event.end().ticks();
        }
    };
    for (const core::StorageChange &change : m_trace.changes) {
        eventsBefore(change.eventCount);
        if (change.rank >= 0 && change.rank < ranks)
            counter(change.rank, clock[std::size_t(change.rank)], change.memoryAfter);
    }
    eventsBefore(m_trace.events.size());
}

void ChromeWriter::counter(int rank, std::int64_t ts, std::int64_t bytes)
{
    if (rank < 0 || std::size_t(rank) >= m_lastBytes.size())
        return;
    if (m_lastBytes[std::size_t(rank)] == bytes)
        return;
    m_lastBytes[std::size_t(rank)] = bytes;
    JsonObject fields = entry();
    header(fields, "memory rank " + std::to_string(rank), "C", rank, ts);
    JsonObject(fields.open("args")).integer("bytes", bytes).close();
    fields.close();
}

// One arrow per message that was both sent and received, from the middle of the pass_to to the
// middle of the receive: inside both slices, so each end binds to its own slice.
void ChromeWriter::flows()
{
    std::map<std::int64_t, std::pair<const core::Event *, const core::Event *>> messages;
    for (const core::Event &event : m_trace.events) {
        if (event.link < 0)
            continue;
        if (event.op == core::OpKind::PassTo)
            messages[event.link].first = &event;
        else if (event.op == core::OpKind::Receive)
            messages[event.link].second = &event;
    }
    for (const auto &[link, ends] : messages) {
        if (!ends.first || !ends.second)
            continue;
        flow(*ends.first, "s");
        flow(*ends.second, "f");
    }
}

void ChromeWriter::flow(const core::Event &event, const char *phase)
{
    JsonObject fields = entry();
    header(fields, "message", phase, event.rank, (event.start + event.end()).ticks() / 2)
        .string("cat", "message")
        .integer("id", event.link);
    if (phase[0] == 'f')
        fields.string("bp", "e");
    fields.close();
}

} // namespace

std::string traceToChromeJson(const core::Trace &trace)
{
    return ChromeWriter(trace).write();
}

} // namespace rankstep::io
