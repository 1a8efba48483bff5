// SPDX-License-Identifier: MIT
// traceFromBinary and traceFromBinaryFile: the parts of a binary trace decoded in order, or for a
// large file the events and the changes at once on two threads (docs/trace-format.md).
#include "tracedecoder.h"

#include "core/regularfile.h"
#include "tracebinary.h"
#include "tracelimits.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

namespace rankstep::io {
namespace {

using binary::TraceDecoder;

// What a part of the file ended with: nothing, a message, or another exception to rethrow.
struct PartOutcome {
    std::optional<std::string> message;
    std::exception_ptr other;
    bool failed() const { return message || other; }
};

constexpr const char *kTooLarge = "it is too large for the memory available";

template <typename F>
PartOutcome runPart(F &&work)
{
    PartOutcome outcome;
    try {
        work();
    } catch (const binary::BinaryError &failure) {
        outcome.message = failure.message;
    } catch (const std::bad_alloc &) {
        outcome.message = kTooLarge;
    } catch (...) {
        outcome.other = std::current_exception();
    }
    return outcome;
}

// The events on this thread and the changes on a second at once (sections 3 and 4 hold no
// strings, and the events' count bounds what the changes refer to); whichever ends first goes
// on with the slices and the sections after them, which need both counts and only the strings
// of sections 1 and 2. Throws what the part earliest in the file failed with, so that a damaged
// file fails as a read in order does.
void decodeParts(TraceDecoder &head, const binary::PartReaders &parts, RecordTally &tally)
{
    const std::uint64_t changesAt = head.reader().sectionEnd();
    TraceDecoder changes(parts.at(changesAt), changesAt, head);
    std::array<PartOutcome, 3> outcomes; // the events, the changes, the rest
    outcomes[1] = runPart([&] { changes.beginChanges(head.eventCount()); });
    const std::uint64_t restAt = changes.reader().sectionEnd();
    const std::size_t eventCount = head.eventCount(), changeCount = changes.changeCount();
    // The rest is for the first part to end well; none once a part failed (its message wins).
    std::atomic<bool> restTaken = outcomes[1].failed();
    const auto takeRest = [&restTaken](const PartOutcome &part) {
        if (part.failed())
            restTaken = true;
        return !part.failed() && !restTaken.exchange(true);
    };
    const auto changesPart = [&] {
        outcomes[1] = runPart([&] { changes.readChangesBody(); });
        if (takeRest(outcomes[1]))
            outcomes[2] = runPart([&] { changes.readRest(eventCount, changeCount); });
    };
    std::thread second;
    bool alone = outcomes[1].failed();
    if (!alone) {
        try {
            second = std::thread(changesPart);
        } catch (const std::system_error &) {
            alone = true; // no thread to be had: the changes after the events
        }
    }
    outcomes[0] = runPart([&] { head.readEventsBody(); });
    if (outcomes[0].failed() && parts.abandon)
        parts.abandon(); // what the later parts find is of no interest now
    if (takeRest(outcomes[0]))
        outcomes[2] = runPart([&] {
            TraceDecoder rest(parts.at(restAt), restAt, head);
            rest.readRest(eventCount, changeCount);
        });
    if (second.joinable())
        second.join();
    else if (alone && !outcomes[0].failed() && !outcomes[1].failed())
        changesPart();
    for (const PartOutcome &outcome : outcomes) {
        if (outcome.other)
            std::rethrow_exception(outcome.other);
        if (outcome.message)
            throw binary::BinaryError{*outcome.message};
    }
    tally = head.tally();
    tally.mostMemoryAfter = changes.tally().mostMemoryAfter;
}

} // namespace

namespace binary {

core::Result<core::Trace> decodeTrace(ByteReader in, TraceJsonOptions *options,
                                      const PartReaders &parts)
{
    const auto failed = [](const std::string &why) {
        return core::Error{core::ErrorKind::Usage, -1, 0, "cannot read the binary trace: " + why};
    };
    try {
        TraceJsonOptions read;
        core::Trace trace;
        TraceDecoder head(std::move(in), trace);
        head.readHead(read);
        RecordTally tally;
        if (parts.at) {
            decodeParts(head, parts, tally);
        } else {
            head.readEventsBody();
            head.beginChanges(head.eventCount());
            head.readChangesBody();
            head.readRest(head.eventCount(), head.changeCount());
            tally = head.tally();
        }
        if (auto outside = checkTraceLimits(trace, tally))
            return failed(*outside);
        if (options != nullptr)
            *options = std::move(read);
        return trace;
    } catch (const binary::BinaryError &failure) {
        return failed(failure.message);
    } catch (const std::bad_alloc &) {
        return failed(kTooLarge);
    }
}

core::Result<core::Trace> decodeTrace(ByteReader in, TraceJsonOptions *options)
{
    return decodeTrace(std::move(in), options, {});
}

} // namespace binary

namespace {

// The bytes of a file for readers at several places at once, with the progress of them all.
class FileParts
{
public:
    FileParts(const core::RegularFile &file, const ReadProgress &progress)
        : m_file(file), m_progress(progress)
    {}
    binary::ByteReader readerAt(std::uint64_t at)
    {
        return binary::ByteReader(m_file.size(),
                                  [this, at](unsigned char *to, std::size_t wanted) mutable {
                                      return read(at, to, wanted);
                                  });
    }
    void stop() { m_stopped = true; }

private:
    std::size_t read(std::uint64_t &at, unsigned char *to, std::size_t wanted)
    {
        if (m_stopped)
            throw binary::BinaryError{"the read was stopped"};
        auto got = m_file.readAt(at, to, wanted);
        if (!got)
            throw binary::BinaryError{got.error().message};
        at += *got;
        const std::lock_guard lock(m_mutex);
        if (m_stopped) // while this part read, another was stopped: nothing more is told
            throw binary::BinaryError{"the read was stopped"};
        // The parts' windows may overlap by a window's bytes: never past the size.
        m_read = std::min<std::uint64_t>(m_read + *got, m_file.size());
        if (m_progress && !m_progress(m_read, m_file.size())) {
            m_stopped = true;
            throw binary::BinaryError{"the read was stopped"};
        }
        return *got;
    }

    const core::RegularFile &m_file;
    const ReadProgress &m_progress;
    std::mutex m_mutex; // one progress call at a time, and m_read
    std::uint64_t m_read = 0;
    std::atomic<bool> m_stopped = false; // cancelled, or an earlier part failed
};

} // namespace

core::Result<core::Trace> traceFromBinary(std::string_view data, TraceJsonOptions *options)
{
    if (data.size() < binary::kPartsFromBytes)
        return binary::decodeTrace(binary::ByteReader(data), options);
    return binary::decodeTrace(binary::ByteReader(data), options,
                               {[data](std::uint64_t) { return binary::ByteReader(data); }, {}});
}

core::Result<core::Trace> traceFromBinaryFile(const std::string &path, TraceJsonOptions *options)
{
    return traceFromBinaryFile(path, options, {});
}

core::Result<core::Trace> traceFromBinaryFile(const std::string &path, TraceJsonOptions *options,
                                              const ReadProgress &progress)
{
    auto file = core::RegularFile::open(path, core::kMaxTraceFileBytes);
    if (!file)
        return file.error();
    FileParts parts(*file, progress);
    if (file->size() < binary::kPartsFromBytes)
        return binary::decodeTrace(parts.readerAt(0), options);
    return binary::decodeTrace(parts.readerAt(0), options,
                               {[&parts](std::uint64_t at) { return parts.readerAt(at); },
                                [&parts] {
                                    parts.stop();
                                }});
}

} // namespace rankstep::io
