// SPDX-License-Identifier: MIT
// TraceDecoder: decodes the parts of a binary trace (tracebinaryreader.cpp), which
// tracebinaryparts.cpp reads in order or at once on two threads. Internal to rankstep_io.
#pragma once

#include "binarycodec.h"
#include "core/trace.h"
#include "tracejson.h"
#include "tracelimits.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rankstep::io::binary {

// Where a rank stood after its last event or change: deltas are taken from there.
struct RankState {
    std::int64_t end = 0;
    std::int64_t memory = 0;
};

// Decodes one part of a file into `trace`: the sections up to the events, the events, the
// changes or the sections after them (decodeParts puts them together). Each part is read with
// its own reader, so that the events and the changes may be decoded at once on two threads.
class TraceDecoder
{
public:
    TraceDecoder(ByteReader in, core::Trace &trace) : m_in(std::move(in)), m_trace(trace) {}
    // A decoder of a later part of the same file, which knows the run's configuration from
    // `head` and reads on with `in` from byte `at` (ByteReader::startAt).
    TraceDecoder(ByteReader in, std::uint64_t at, const TraceDecoder &head)
        : m_in(std::move(in)), m_trace(head.m_trace), m_config(head.m_config)
    {
        m_in.startAt(at, head.m_in);
    }
    ByteReader &reader() { return m_in; }
    // The header, config and result, and the events' count: what every later part needs.
    void readHead(TraceJsonOptions &options);
    void readEventsBody(); // the events the count announced, to the end of their section
    // The changes' header and count, then the changes; `events`: the events' count.
    void beginChanges(std::size_t events);
    void readChangesBody();
    // The slices and every section after them, given the events' and the changes' counts.
    void readRest(std::size_t events, std::size_t changes);
    std::size_t eventCount() const { return m_eventCount; }
    // What checkTraceLimits reads of the events and changes this decoder made.
    const RecordTally &tally() const { return m_tally; }
    std::size_t changeCount() const { return m_changeCount; }

private:
    // A rank of this run, for everything a viewer indexes per-rank data with.
    int readRank(const char *field)
    {
        return int(m_in.whole(field, std::int64_t(m_config.ranks) - 1));
    }
    void readConfig(TraceJsonOptions &options);
    void readResult();
    void readFigures();
    void readDiagnosis();
    core::Event readEvent(std::vector<RankState> &ranks);
    core::StorageChange readChange(std::vector<RankState> &ranks, std::size_t eventCount,
                                   std::optional<core::Object> &object);
    core::Object readObject();
    void readSlices();
    void readNotes();
    void readFinals();
    void readCost();
    void readOverlapped();
    void readShape();
    void readHeldOutside();

    ByteReader m_in;
    core::Trace &m_trace;
    // The run's ranks, layers and batches as config gave them: what the parts check values
    // against while a later part fills in the rest of m_trace.config.
    core::RunConfig m_config;
    std::size_t m_eventCount = 0;  // as the events section announces them
    std::size_t m_changeCount = 0; // as the changes section announces them
    RecordTally m_tally;
};

} // namespace rankstep::io::binary
