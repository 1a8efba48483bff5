// SPDX-License-Identifier: MIT
// A binary trace decoded in parts at once (the events and the changes on two threads, the rest on
// whichever ends first) gives what the read in order gives: the same trace, every change and every
// string numbered as it was written, and for damaged bytes the message of the earliest damage.
// A large file read so tells its progress up to its size and stops when told to.
#include "synthetictrace.h"
#include "testtraces.h"

#include "core/io/binarycodec.h"
#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace rankstep::io {
namespace {

namespace fs = std::filesystem;

std::string inOrder(std::string_view bytes)
{
    TraceJsonOptions options;
    const auto trace = binary::decodeTrace(binary::ByteReader(bytes), &options);
    return testing::decodeOutcome(trace, options);
}

// `bytes` decoded in parts whatever their size, each part read from memory or, with `window`,
// through a window of that many bytes from a source that starts where the part does.
std::string inParts(std::string_view bytes, std::size_t window = 0)
{
    const auto readerAt = [bytes, window](std::uint64_t at) {
        if (window == 0)
            return binary::ByteReader(bytes);
        return binary::ByteReader(
            bytes.size(),
            [bytes, at](unsigned char *to, std::size_t size) mutable {
                const auto n = std::size_t(std::min<std::uint64_t>(size, bytes.size() - at));
                std::memcpy(to, bytes.data() + at, n);
                at += n;
                return n;
            },
            window);
    };
    TraceJsonOptions options;
    const auto trace = binary::decodeTrace(readerAt(0), &options, {readerAt, {}});
    return testing::decodeOutcome(trace, options);
}

// A trace whose slices, warnings and marks name strings written before the events (the file,
// the function, the check's message) as well as their own: the numbering counts across the file.
core::Trace traceThatRepeatsEarlierStrings()
{
    core::Trace trace = testing::syntheticTrace(400, 700);
    trace.check.message = "layer 3 is wrong";
    for (std::size_t i = 0; i < trace.slices.size(); i += 3)
        trace.slices[i].detail = trace.details.intern(i % 2 == 0 ? "layer 3 is wrong" : "run");
    trace.warnings.push_back({1, 7, "layer 3 is wrong"});
    trace.marks.push_back({0, 9, 4, 5, "run.py"});
    return trace;
}

std::vector<core::Trace> sampleTraces()
{
    std::vector<core::Trace> traces;
    for (const testing::PuzzleCase &puzzle : testing::referencePuzzles())
        traces.push_back(testing::referenceTrace(puzzle.name));
    traces.push_back(testing::deadlockTrace());
    traces.push_back(testing::mismatchTrace());
    traces.push_back(testing::checkErrorTrace());
    traces.push_back(traceThatRepeatsEarlierStrings());
    std::mt19937 random(5);
    for (int i = 0; i < 6; ++i) // random sizes, an empty changes section among them
        traces.push_back(
            testing::syntheticTrace(1 + random() % 3000, i == 0 ? 0 : random() % 5000));
    return traces;
}

TEST(TraceBinaryParts, EveryTraceDecodedInPartsIsTheTraceReadInOrder)
{
    for (const core::Trace &trace : sampleTraces()) {
        const std::string bytes = traceToBinary(trace, {"run.py", "run"});
        const std::string plain = inOrder(bytes);
        ASSERT_EQ(plain.rfind("error", 0), std::string::npos) << plain;
        EXPECT_EQ(inParts(bytes), plain);
        for (const std::size_t window : {7U, 4096U})
            EXPECT_EQ(inParts(bytes, window), plain) << "window " << window;
    }
}

TEST(TraceBinaryParts, EveryDamagedTraceFailsWithTheMessageOfTheReadInOrder)
{
    const std::string bytes = traceToBinary(testing::referenceTrace("pipeline"), {"p.py", "p"});
    std::mt19937 random(17);
    std::size_t failures = 0;
    for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 16) { // truncated anywhere
        const std::string_view prefix = std::string_view(bytes).substr(0, cut);
        const std::string plain = inOrder(prefix);
        failures += plain.rfind("error", 0) == 0 ? 1 : 0;
        EXPECT_EQ(inParts(prefix), plain) << "cut at " << cut;
        EXPECT_EQ(inParts(prefix, 5), plain) << "cut at " << cut;
    }
    for (int flip = 0; flip < 300; ++flip) { // one byte changed anywhere
        std::string damaged = bytes;
        damaged[random() % damaged.size()] = char(random() % 256);
        const std::string plain = inOrder(damaged);
        failures += plain.rfind("error", 0) == 0 ? 1 : 0;
        EXPECT_EQ(inParts(damaged), plain) << "flip " << flip;
    }
    EXPECT_GT(failures, 100U); // the damage was seen
}

// Where each section's body begins and ends: {id, begin, end}.
struct SectionPlace {
    unsigned id = 0;
    std::size_t begin = 0, end = 0;
};
std::vector<SectionPlace> sectionPlaces(const std::string &bytes)
{
    std::vector<SectionPlace> places;
    std::size_t at = 8;
    const auto natural = [&] {
        std::uint64_t value = 0;
        for (unsigned shift = 0;; shift += 7) {
            const auto part = std::uint8_t(bytes[at++]);
            value |= std::uint64_t(part & 0x7fU) << shift;
            if (part < 0x80)
                return value;
        }
    };
    while (at < bytes.size()) {
        SectionPlace place;
        place.id = unsigned(natural());
        const std::uint64_t size = natural();
        place.begin = at;
        place.end = at + size;
        places.push_back(place);
        at = place.end;
    }
    return places;
}

// Damage in the events, the changes and the slices at once: the events' is the message, as in
// order; without the events', the changes'.
TEST(TraceBinaryParts, TheEarliestDamageInTheFileIsTheMessage)
{
    const std::string bytes = traceToBinary(testing::syntheticTrace(500, 900), {"run.py", "run"});
    std::string damaged = bytes;
    for (const SectionPlace &place : sectionPlaces(bytes))
        if (place.id >= 3 && place.id <= 5) // a varint of 11 bytes, after the section's count
            std::fill_n(damaged.begin() + std::ptrdiff_t(place.begin + place.end) / 2, 11, '\xff');
    const std::string plain = inOrder(damaged);
    EXPECT_NE(plain.find("error: cannot read the binary trace: events["), std::string::npos)
        << plain;
    EXPECT_EQ(inParts(damaged), plain);
    EXPECT_EQ(inParts(damaged, 64), plain);

    std::string later = bytes; // the changes and the slices only
    for (const SectionPlace &place : sectionPlaces(bytes))
        if (place.id == 4 || place.id == 5)
            std::fill_n(later.begin() + std::ptrdiff_t(place.begin + place.end) / 2, 11, '\xff');
    const std::string changes = inOrder(later);
    EXPECT_NE(changes.find("error: cannot read the binary trace: changes["), std::string::npos)
        << changes;
    EXPECT_EQ(inParts(later), changes);
    EXPECT_EQ(inParts(later, 64), changes);
}

class TraceBinaryPartsOnDisk : public ::testing::Test
{
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "rankstep-binaryparts-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        m_dir = pattern;
        // Large enough to be decoded in parts.
        m_bytes = traceToBinary(testing::syntheticTrace(200000, 400000), {"big.py", "big"});
        ASSERT_GE(m_bytes.size(), binary::kPartsFromBytes);
        m_path = m_dir / "big.rstb";
        std::ofstream(m_path, std::ios::binary) << m_bytes;
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(m_dir, ignored);
    }
    fs::path m_dir, m_path;
    std::string m_bytes;
};

TEST_F(TraceBinaryPartsOnDisk, ALargeFileDecodesAsItsBytesDoAndTellsItsProgressUpToItsSize)
{
    std::mutex mutex;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
    TraceJsonOptions options;
    const auto read =
        traceFromBinaryFile(m_path.string(), &options, [&](std::uint64_t done, std::uint64_t size) {
            const std::lock_guard lock(mutex);
            calls.emplace_back(done, size);
            return true;
        });
    EXPECT_EQ(testing::decodeOutcome(read, options), inOrder(m_bytes));
    ASSERT_FALSE(calls.empty());
    for (std::size_t i = 0; i < calls.size(); ++i) {
        EXPECT_EQ(calls[i].second, m_bytes.size());
        EXPECT_LE(calls[i].first, m_bytes.size());
        if (i > 0) {
            EXPECT_GE(calls[i].first, calls[i - 1].first) << "call " << i;
        }
    }
    EXPECT_EQ(calls.back().first, m_bytes.size());
}

TEST_F(TraceBinaryPartsOnDisk, AStopStopsEveryPart)
{
    std::mutex mutex;
    std::size_t callsAfterStop = 0;
    bool stopped = false;
    const auto read =
        traceFromBinaryFile(m_path.string(), nullptr, [&](std::uint64_t done, std::uint64_t size) {
            const std::lock_guard lock(mutex);
            callsAfterStop += stopped ? 1 : 0;
            stopped = stopped || done > size / 2;
            return !stopped;
        });
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.error().message.find("the read was stopped"), std::string::npos)
        << read.error().message;
    EXPECT_TRUE(stopped);
    EXPECT_EQ(callsAfterStop, 0U); // no part read on
}

} // namespace
} // namespace rankstep::io
