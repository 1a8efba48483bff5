// SPDX-License-Identifier: MIT
// traceFromJson on input that is not what traceToJson wrote: a clear Usage error, never a crash.
#include "testtraces.h"

#include "core/io/tracejson.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace rankstep::io {
namespace {

std::string replaced(std::string text, const std::string &from, const std::string &to)
{
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

// The message of the error traceFromJson gives for json (fails the test when it reads it).
std::string errorOf(const std::string &json)
{
    auto read = traceFromJson(json);
    EXPECT_FALSE(read.ok());
    if (read.ok())
        return {};
    EXPECT_EQ(read.error().kind, core::ErrorKind::Usage);
    EXPECT_TRUE(read.error().message.starts_with("cannot read the trace: "))
        << read.error().message;
    return read.error().message;
}

class TraceReader : public ::testing::Test
{
protected:
    const std::string m_json = traceToJson(testing::referenceTrace("basic"), {"basic.py", "basic"});
};

TEST_F(TraceReader, RejectsEveryTruncation)
{
    // Every cut before the closing brace; only the final newline may go.
    const std::size_t end = m_json.rfind('}');
    ASSERT_GT(end, 1000u);
    for (std::size_t length = 0; length <= end; ++length) {
        auto read = traceFromJson(std::string_view(m_json).substr(0, length));
        ASSERT_FALSE(read.ok()) << "a prefix of " << length << " bytes was accepted";
        ASSERT_EQ(read.error().kind, core::ErrorKind::Usage);
    }
    EXPECT_TRUE(traceFromJson(std::string_view(m_json).substr(0, end + 1)).ok());
}

TEST_F(TraceReader, NamesWhereATruncatedFileEnds)
{
    const std::string message = errorOf(m_json.substr(0, m_json.find("\"slices\"") + 12));
    EXPECT_NE(message.find("the text ends"), std::string::npos) << message;
    EXPECT_NE(message.find("JSON line "), std::string::npos) << message;
}

TEST_F(TraceReader, RejectsGarbageBytes)
{
    std::mt19937 random(20240601);
    for (int round = 0; round < 2000; ++round) {
        std::string bytes(std::size_t(random() % 64), '\0');
        for (char &c : bytes)
            c = char(random() % 256);
        if (round % 2 == 0)
            bytes = "{\"format\": \"rankstep-trace\", " + bytes;
        ASSERT_FALSE(traceFromJson(bytes).ok()) << round;
    }
}

TEST_F(TraceReader, SurvivesSingleByteDamage)
{
    std::mt19937 random(7);
    const std::string alphabet = "{}[],:\"\\-.0123456789eEtrufalsn \x01\xFF";
    for (int round = 0; round < 3000; ++round) {
        std::string damaged = m_json;
        damaged[random() % damaged.size()] = alphabet[random() % alphabet.size()];
        TraceJsonOptions options;
        auto read = traceFromJson(damaged, options);
        if (read.ok()) // a digit changed into another: still a trace, and it writes again
            EXPECT_FALSE(traceToJson(*read, options).empty());
        else
            EXPECT_EQ(read.error().kind, core::ErrorKind::Usage);
    }
}

TEST_F(TraceReader, RejectsOtherFormatsAndVersions)
{
    EXPECT_NE(errorOf("[1, 2, 3]").find("expected an object"), std::string::npos);
    EXPECT_NE(errorOf("{\"traceEvents\": []}").find("not a Rankstep trace"), std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "rankstep-trace", "other-trace")).find("not a Rankstep"),
              std::string::npos);
    const std::string version = errorOf(replaced(m_json, "\"version\": 1", "\"version\": 2"));
    EXPECT_NE(version.find("version 2 is not supported (this Rankstep reads version 1)"),
              std::string::npos)
        << version;
}

TEST_F(TraceReader, NamesTheKeyAndPlaceOfABadValue)
{
    // The second event of basic starts at 4, on line 12.
    EXPECT_EQ(errorOf(replaced(m_json, "\"start\": 4,", "\"start\": 4.2345,")),
              "cannot read the trace: JSON line 12, column 101: ranks[0].events[1].start: expected "
              "a time in steps (a decimal with at most three fractional digits), got 4.2345");
    EXPECT_NE(errorOf(replaced(m_json, "\"op\": \"loss\"", "\"op\": \"lose\""))
                  .find("ranks[0].events[2].op: unknown value \"lose\" (expected one of forward, "),
              std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "\"ranks\": 1,", "\"ranks\": \"1\","))
                  .find("config.ranks: expected an integer from 0 to 65536, got the string \"1\""),
              std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "\"memory\": 1572864,", "\"memory\": 1e3,"))
                  .find("expected an integer"),
              std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "\"passed\": true, ", ""))
                  .find("result.check: the member \"passed\" is missing"),
              std::string::npos);
}

TEST_F(TraceReader, RejectsValuesOutOfRange)
{
    EXPECT_NE(errorOf(replaced(m_json, "\"batches\": [0, 1, 2, 3]", "\"batches\": [0, -1]"))
                  .find("expected an integer from 0 to 65535"),
              std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "\"batches\": [0, 1, 2, 3]", "\"batches\": [65536]"))
                  .find("from 0 to 65535"),
              std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "{\"rank\": 0, \"map\"", "{\"rank\": 1, \"map\""))
                  .find("changes[0].rank: expected an integer from 0 to 0, got 1"),
              std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "{\"rank\": 0, \"events\"", "{\"rank\": 3, \"events\""))
                  .find("ranks[0].rank: expected an integer from 0 to 0"),
              std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "\"seq\": 1}", "\"seq\": 0}")).find("two events have seq 0"),
              std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "\"seq\": 1}", "\"seq\": 99}")).find("seq"),
              std::string::npos);
    EXPECT_NE(errorOf(replaced(m_json, "\"event_count\": 0,", "\"event_count\": 1000,"))
                  .find("event_count"),
              std::string::npos);
    // An event's link is a 32-bit id (core/trace.h): a larger one is refused by name, not cut.
    const std::string ddp = traceToJson(testing::referenceTrace("ddp"), {"ddp.py", "ddp"});
    EXPECT_NE(errorOf(replaced(ddp, "\"link\": 0,", "\"link\": 2147483648,"))
                  .find(".link: expected an integer from 0 to 2147483647, got 2147483648"),
              std::string::npos);
    EXPECT_TRUE(traceFromJson(replaced(ddp, "\"link\": 0,", "\"link\": 2147483647,")).ok());
    EXPECT_NE(errorOf(replaced(m_json, "\"memory_after\": 262144}",
                               "\"memory_after\": 99999999999999999999}"))
                  .find("memory_after"),
              std::string::npos);
}

} // namespace
} // namespace rankstep::io
