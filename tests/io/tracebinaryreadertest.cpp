// SPDX-License-Identifier: MIT
// traceFromBinary on input that is not what traceToBinary wrote: a Usage error that says where,
// never a crash, a hang or an allocation the input cannot justify.
#include "testtraces.h"

#include "core/io/binarycodec.h"
#include "core/io/tracebinary.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace rankstep::io {
namespace {

std::string varint(std::uint64_t value)
{
    std::string out;
    for (; value >= 0x80; value >>= 7)
        out += char((value & 0x7f) | 0x80);
    return out + char(value);
}

std::uint64_t readVarint(const std::string &bytes, std::size_t &at)
{
    std::uint64_t value = 0;
    for (unsigned shift = 0; at < bytes.size(); shift += 7) {
        const auto part = static_cast<unsigned char>(bytes[at++]);
        value |= std::uint64_t(part & 0x7fU) << shift;
        if (part < 0x80)
            break;
    }
    return value;
}

// The payloads of the sections, by id (1 config, 2 result, 3 events, ..., 8 final weights).
std::vector<std::string> sectionsOf(const std::string &binary)
{
    std::vector<std::string> sections(1);
    for (std::size_t at = 8; at < binary.size();) {
        EXPECT_EQ(readVarint(binary, at), sections.size());
        const std::size_t size = readVarint(binary, at);
        sections.push_back(binary.substr(at, size));
        at += size;
    }
    return sections;
}

// Where section `id` ends in binary.
std::size_t sectionEnd(const std::string &binary, std::size_t id)
{
    std::size_t at = 8;
    for (std::size_t section = 1; section <= id; ++section) {
        readVarint(binary, at);
        at += readVarint(binary, at);
    }
    return at;
}

std::string assemble(const std::vector<std::string> &sections)
{
    std::string binary = std::string("RSTB\x01\x00\x00\x00", 8);
    for (std::size_t id = 1; id < sections.size(); ++id)
        binary += varint(id) + varint(sections[id].size()) + sections[id];
    return binary;
}

// The message of the error traceFromBinary gives (fails the test when it reads the input).
std::string errorOf(const std::string &binary)
{
    auto read = traceFromBinary(binary);
    EXPECT_FALSE(read.ok());
    if (read.ok())
        return {};
    EXPECT_EQ(read.error().kind, core::ErrorKind::Usage);
    EXPECT_TRUE(read.error().message.starts_with("cannot read the binary trace: "))
        << read.error().message;
    return read.error().message;
}

class TraceBinaryReader : public ::testing::Test
{
protected:
    const std::string m_binary = traceToBinary(testing::referenceTrace("basic"), {"b.py", "b"});
};

TEST_F(TraceBinaryReader, ReadsTheUndamagedTraceItDamagesBelow)
{
    TraceJsonOptions options;
    ASSERT_TRUE(traceFromBinary(m_binary, &options).ok());
    EXPECT_EQ(options.file, "b.py");
    EXPECT_EQ(options.function, "b");
    EXPECT_EQ(assemble(sectionsOf(m_binary)), m_binary);
}

TEST_F(TraceBinaryReader, RejectsEveryTruncation)
{
    ASSERT_GT(m_binary.size(), 200u);
    for (std::size_t length = 0; length < m_binary.size(); ++length) {
        auto read = traceFromBinary(std::string_view(m_binary).substr(0, length));
        ASSERT_FALSE(read.ok()) << "a prefix of " << length << " bytes was accepted";
        ASSERT_EQ(read.error().kind, core::ErrorKind::Usage);
    }
}

TEST_F(TraceBinaryReader, NamesTheSectionWhereATruncatedFileEnds)
{
    const std::string message = errorOf(m_binary.substr(0, sectionEnd(m_binary, 3) - 10));
    EXPECT_NE(message.find(": events (byte "), std::string::npos) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << message;
}

TEST_F(TraceBinaryReader, RejectsOtherFilesVersionsAndTrailingBytes)
{
    EXPECT_NE(errorOf("{\"format\": \"rankstep-trace\"}").find("not a Rankstep binary trace"),
              std::string::npos);
    std::string version = m_binary;
    version[4] = 2;
    EXPECT_NE(errorOf(version).find("version 2 is not supported"), std::string::npos);
    EXPECT_NE(errorOf(m_binary + "x").find("1 bytes after the last section"), std::string::npos);
}

TEST_F(TraceBinaryReader, RefusesACountTheRemainingBytesCannotHold)
{
    std::vector<std::string> sections = sectionsOf(m_binary);
    sections[3] = varint(std::uint64_t(1) << 60) + sections[3].substr(1);
    const std::string message = errorOf(assemble(sections));
    EXPECT_NE(message.find("events.count"), std::string::npos) << message;
    EXPECT_NE(message.find("cannot fit"), std::string::npos) << message;
}

TEST_F(TraceBinaryReader, RefusesAnEventOfARankOutsideTheRun)
{
    std::vector<std::string> sections = sectionsOf(m_binary);
    // One forward on rank 5 of a one-rank run.
    sections[3] = varint(1) + '\0' + varint(5) + std::string(8, '\0');
    const std::string message = errorOf(assemble(sections));
    EXPECT_NE(message.find("events[0].rank"), std::string::npos) << message;
    EXPECT_NE(message.find("expected a value from 0 to 0, got 5"), std::string::npos) << message;
}

TEST_F(TraceBinaryReader, RefusesABatchNumberAboveTheJsonLimit)
{
    std::vector<std::string> sections = sectionsOf(m_binary);
    // A forward whose batches are one run starting at 70000.
    sections[3] =
        varint(1) + '\0' + '\0' + '\0' + varint(1) + varint(70000) + '\0' + std::string(7, '\0');
    const std::string message = errorOf(assemble(sections));
    EXPECT_NE(message.find("events[0].batches"), std::string::npos) << message;
}

// An event's link is a 32-bit id (core/trace.h): a larger one is refused by name, not cut.
TEST_F(TraceBinaryReader, RefusesALinkAboveTheLargestId)
{
    std::vector<std::string> sections = sectionsOf(m_binary);
    // One forward with a link (its flag in the op byte): rank to line all 0, then the link.
    const auto forwardWithLink = [&](std::uint64_t link) {
        sections[3] = varint(1) + char(binary::kEventLink) + std::string(9, '\0') + varint(link);
        return assemble(sections);
    };
    const std::string message = errorOf(forwardWithLink(std::uint64_t(core::kMostTraceLink) + 1));
    EXPECT_NE(message.find("events[0].link (byte "), std::string::npos) << message;
    EXPECT_NE(message.find("): expected a value from 0 to 2147483647, got 2147483648"),
              std::string::npos)
        << message;
    // The largest id passes the event (the sections after it then miss what it replaced).
    const auto largest = traceFromBinary(forwardWithLink(std::uint64_t(core::kMostTraceLink)));
    EXPECT_TRUE(largest.ok() || largest.error().message.find("link") == std::string::npos)
        << largest.error().message;
}

TEST_F(TraceBinaryReader, RefusesSectionsOutOfOrder)
{
    std::vector<std::string> sections = sectionsOf(m_binary);
    std::string binary = assemble(sections);
    binary[8] = 2; // the first section claims to be the result
    EXPECT_NE(errorOf(binary).find("expected section 1 (config), found 2"), std::string::npos);
}

TEST_F(TraceBinaryReader, SurvivesRandomByteFlips)
{
    std::mt19937 random(20240601);
    const std::string deadlock = traceToBinary(testing::deadlockTrace());
    std::size_t accepted = 0;
    for (int round = 0; round < 4000; ++round) {
        std::string damaged = round % 2 == 0 ? m_binary : deadlock;
        const int flips = 1 + round % 4;
        for (int i = 0; i < flips; ++i) {
            const std::size_t at = random() % damaged.size();
            damaged[at] = char(damaged[at] ^ char(1 + random() % 255));
        }
        auto read = traceFromBinary(damaged);
        if (read.ok())
            ++accepted;
        else
            ASSERT_EQ(read.error().kind, core::ErrorKind::Usage) << read.error().message;
    }
    // Most damage is caught; what is not is a trace with other values, checked like any other.
    EXPECT_LT(accepted, 2000u);
}

} // namespace
} // namespace rankstep::io
