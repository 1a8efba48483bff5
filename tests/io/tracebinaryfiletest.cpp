// SPDX-License-Identifier: MIT
// A binary trace decoded as it is read, in pieces (traceFromBinaryFile, what the app opens a file
// with), gives what the plain decode of the whole bytes gives (traceFromBinary): the same trace
// for every run, and for damaged bytes the same message, whatever the size of the pieces.
#include "synthetictrace.h"
#include "testtraces.h"

#include "core/io/binarycodec.h"
#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace rankstep::io {
namespace {

namespace fs = std::filesystem;

std::string plainDecode(std::string_view bytes)
{
    TraceJsonOptions options;
    const auto trace = traceFromBinary(bytes, &options);
    return testing::decodeOutcome(trace, options);
}

// `bytes` decoded from a source that hands out at most `most` bytes a call (a random number of
// them when `uneven`), through a window of `window` bytes.
std::string piecewiseDecode(std::string_view bytes, std::size_t window, std::size_t most,
                            bool uneven = false)
{
    std::size_t at = 0;
    std::mt19937 random(unsigned(bytes.size()));
    binary::ByteReader in(
        bytes.size(),
        [&](unsigned char *to, std::size_t size) {
            std::size_t n = std::min({size, most, bytes.size() - at});
            if (uneven && n > 1)
                n = 1 + random() % n;
            std::memcpy(to, bytes.data() + at, n);
            at += n;
            return n;
        },
        window);
    TraceJsonOptions options;
    const auto trace = binary::decodeTrace(std::move(in), &options);
    return testing::decodeOutcome(trace, options);
}

std::vector<core::Trace> sampleTraces()
{
    std::vector<core::Trace> traces;
    for (const testing::PuzzleCase &puzzle : testing::referencePuzzles())
        traces.push_back(testing::referenceTrace(puzzle.name));
    traces.push_back(testing::deadlockTrace());
    traces.push_back(testing::mismatchTrace());
    traces.push_back(testing::checkErrorTrace());
    traces.push_back(testing::syntheticTrace(3000, 5000));
    return traces;
}

TEST(TraceBinaryFile, EveryTraceReadInPiecesIsTheTraceOfItsWholeBytes)
{
    for (const core::Trace &trace : sampleTraces()) {
        const std::string bytes = traceToBinary(trace, {"puzzle.py", "puzzle"});
        const std::string plain = plainDecode(bytes);
        ASSERT_EQ(plain.rfind("error", 0), std::string::npos) << plain;
        for (const std::size_t window : {1U, 2U, 7U, 64U, 4096U, 1U << 22})
            EXPECT_EQ(piecewiseDecode(bytes, window, window), plain) << "window " << window;
        EXPECT_EQ(piecewiseDecode(bytes, 100, 100, true), plain) << "uneven pieces";
        EXPECT_EQ(piecewiseDecode(bytes, 64, 3), plain) << "short reads";
    }
}

TEST(TraceBinaryFile, EveryDamagedTraceFailsWithThePlainDecodesMessage)
{
    const std::string bytes = traceToBinary(testing::referenceTrace("pipeline"), {"p.py", "p"});
    std::mt19937 random(11);
    std::size_t failures = 0;
    for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 16) { // truncated anywhere
        const std::string_view prefix = std::string_view(bytes).substr(0, cut);
        const std::string plain = plainDecode(prefix);
        failures += plain.rfind("error", 0) == 0 ? 1 : 0;
        EXPECT_EQ(piecewiseDecode(prefix, 5, 5), plain) << "cut at " << cut;
    }
    for (int flip = 0; flip < 300; ++flip) { // a byte changed anywhere
        std::string damaged = bytes;
        damaged[random() % damaged.size()] = char(random() % 256);
        const std::string plain = plainDecode(damaged);
        failures += plain.rfind("error", 0) == 0 ? 1 : 0;
        EXPECT_EQ(piecewiseDecode(damaged, 9, 9, true), plain) << "flip " << flip;
    }
    EXPECT_GT(failures, 100U); // the damage was seen
}

TEST(TraceBinaryFile, ASourceThatEndsBeforeItsSizeIsATruncatedFile)
{
    const std::string bytes = traceToBinary(testing::referenceTrace("ddp"));
    const std::size_t shrunk = bytes.size() / 2; // the file shrank while it was read
    std::size_t at = 0;
    binary::ByteReader in(
        bytes.size(),
        [&](unsigned char *to, std::size_t size) {
            const std::size_t n = std::min(size, shrunk - at);
            std::memcpy(to, bytes.data() + at, n);
            at += n;
            return n;
        },
        256);
    const auto trace = binary::decodeTrace(std::move(in), nullptr);
    ASSERT_FALSE(trace.ok());
    EXPECT_NE(trace.error().message.find("the file ends after " + std::to_string(shrunk) +
                                         " of its " + std::to_string(bytes.size()) + " bytes"),
              std::string::npos)
        << trace.error().message;
}

class TraceBinaryFileOnDisk : public ::testing::Test
{
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "rankstep-binaryfile-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        m_dir = pattern;
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(m_dir, ignored);
    }
    fs::path m_dir;
};

TEST_F(TraceBinaryFileOnDisk, AFileDecodesAsItsBytesDo)
{
    for (const core::Trace &trace : sampleTraces()) {
        const std::string bytes = traceToBinary(trace, {"run.py", "run"});
        const fs::path path = m_dir / "run.rstb";
        std::ofstream(path, std::ios::binary) << bytes;
        TraceJsonOptions options;
        const auto read = traceFromBinaryFile(path.string(), &options);
        EXPECT_EQ(testing::decodeOutcome(read, options), plainDecode(bytes));
    }
    std::ofstream(m_dir / "short.rstb", std::ios::binary) << "RSTB\x01";
    const auto truncated = traceFromBinaryFile((m_dir / "short.rstb").string());
    ASSERT_FALSE(truncated.ok());
    EXPECT_EQ(truncated.error().message, traceFromBinary("RSTB\x01").error().message);
}

TEST_F(TraceBinaryFileOnDisk, WhatIsNoRegularFileIsRefusedBeforeAnyRead)
{
    const auto missing = traceFromBinaryFile((m_dir / "missing.rstb").string());
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("no such file"), std::string::npos);
    const auto folder = traceFromBinaryFile(m_dir.string());
    ASSERT_FALSE(folder.ok());
    EXPECT_NE(folder.error().message.find("folder"), std::string::npos);
    const fs::path fifo = m_dir / "pipe.rstb";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto pipe = traceFromBinaryFile(fifo.string()); // never blocks on a FIFO
    ASSERT_FALSE(pipe.ok());
    EXPECT_NE(pipe.error().message.find("FIFO"), std::string::npos);
}

} // namespace
} // namespace rankstep::io
