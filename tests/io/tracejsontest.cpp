// SPDX-License-Identifier: MIT
// traceToJson: the contract other tools read, and exact round trips through traceFromJson.
#include "testtraces.h"

#include "core/io/jsonparser.h"
#include "core/io/tracejson.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::io {
namespace {

using testing::referenceTrace;

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

TEST(TraceJson, WritesDdpFiguresAsExactNumbers)
{
    const std::string json = traceToJson(referenceTrace("ddp"), {"ddp.py", "ddp"});
    EXPECT_TRUE(json.starts_with("{\"format\": \"rankstep-trace\", \"version\": 1,\n")) << json;
    EXPECT_TRUE(contains(json,
                         "\"config\": {\"file\": \"ddp.py\", \"function\": \"ddp\", "
                         "\"ranks\": 4, \"layers\": 2, \"batches\": 4"));
    EXPECT_TRUE(contains(json, "\"status\": \"ok\", \"correct\": true, \"timesteps\": 5.1, "));
    EXPECT_TRUE(contains(json,
                         "\"max_memory\": 1835008, \"max_memory_rank\": 0, "
                         "\"max_memory_time\": 4,"));
    EXPECT_TRUE(contains(json, "\"check\": {\"passed\": true, \"message\": \"Correct!\"}"));
    EXPECT_TRUE(contains(json, "\"error\": null"));
    EXPECT_TRUE(contains(json, "\"update\": 0.5, \"allreduce\": 0.3,"));
    EXPECT_TRUE(json.ends_with("}\n"));
}

TEST(TraceJson, WritesWsdpTimestepsAsNineteenPointNine)
{
    const std::string json = traceToJson(referenceTrace("wsdp"));
    EXPECT_TRUE(contains(json, "\"timesteps\": 19.9,"));
    EXPECT_FALSE(contains(json, "19.900"));
    EXPECT_FALSE(contains(json, "e-")) << "no number in exponent form";
}

TEST(TraceJson, ListsEventsPerRankInTheirOrderWithGlobalSeq)
{
    const core::Trace trace = referenceTrace("ddp");
    auto parsed = parseJson(traceToJson(trace));
    ASSERT_TRUE(parsed.ok());
    const JsonValue &ranks = *parsed->find("ranks");
    ASSERT_EQ(ranks.items.size(), 4u);
    std::size_t total = 0;
    for (std::size_t r = 0; r < 4; ++r) {
        const JsonValue &events = *ranks.items[r].find("events");
        std::int64_t previous = -1;
        for (const JsonValue &event : events.items) {
            const std::int64_t seq = std::stoll(event.find("seq")->text);
            EXPECT_GT(seq, previous);
            EXPECT_EQ(trace.events[std::size_t(seq)].rank, int(r));
            previous = seq;
        }
        total += events.items.size();
    }
    EXPECT_EQ(total, trace.events.size());
}

TEST(TraceJson, WritesPeerAndLinkOnlyWhereTheyMeanSomething)
{
    const std::string json = traceToJson(referenceTrace("pipeline"));
    EXPECT_TRUE(contains(json, "{\"op\": \"pass_to\", "));
    EXPECT_TRUE(contains(json, "\"peer\": 1, \"link\": 0, \"seq\""));
    auto parsed = parseJson(json);
    ASSERT_TRUE(parsed.ok());
    for (const JsonValue &rank : parsed->find("ranks")->items)
        for (const JsonValue &event : rank.find("events")->items) {
            const std::string &op = event.find("op")->text;
            EXPECT_EQ(event.find("peer") != nullptr, op == "pass_to" || op == "receive") << op;
            EXPECT_EQ(event.find("link") != nullptr,
                      op != "forward" && op != "backward" && op != "loss" && op != "update")
                << op;
        }
}

TEST(TraceJson, WritesIntKeysAsIntsAndTupleKeysAsArrays)
{
    const std::string json = traceToJson(referenceTrace("grad_accum"));
    EXPECT_TRUE(contains(json,
                         "\"map\": \"weights\", \"key\": 0, \"op\": \"set\", \"object\": "
                         "{\"kind\": \"Weight\", \"layer\": 0, \"step\": 0, \"batches\": [], "
                         "\"shards\": [0], \"total\": 1}"));
    EXPECT_TRUE(contains(json, "\"map\": \"activations\", \"key\": [0, 0], \"op\": \"set\""));
    EXPECT_TRUE(contains(json, "\"key\": [2, 0], \"op\": \"delete\", \"line\""));
}

TEST(TraceJson, RoundTripsEveryReferencePuzzleExactly)
{
    for (const testing::PuzzleCase &puzzle : testing::referencePuzzles()) {
        SCOPED_TRACE(puzzle.name);
        const core::Trace trace = referenceTrace(puzzle.name);
        const TraceJsonOptions options{puzzle.name + ".py", puzzle.name};
        const std::string json = traceToJson(trace, options);
        TraceJsonOptions readOptions;
        auto read = traceFromJson(json, readOptions);
        ASSERT_TRUE(read.ok()) << read.error().message;
        EXPECT_EQ(traceToJson(*read, readOptions), json);
        EXPECT_EQ(readOptions.file, options.file);
        EXPECT_EQ(read->events.size(), trace.events.size());
        for (std::size_t i = 0; i < trace.events.size(); ++i)
            EXPECT_EQ(read->events[i].rank, trace.events[i].rank);
        ASSERT_EQ(read->changes.size(), trace.changes.size());
        for (std::size_t i = 0; i < trace.changes.size(); ++i)
            EXPECT_TRUE(core::sameObject(read->changes.object(read->changes[i]),
                                         trace.changes.object(trace.changes[i])))
                << "change " << i;
        EXPECT_EQ(read->finalWeights, trace.finalWeights);
        EXPECT_EQ(read->figures.hasEvents, trace.figures.hasEvents);
        EXPECT_TRUE(read->correct());
    }
}

TEST(TraceJson, RoundTripsDeadlockMismatchAndCheckErrors)
{
    for (const core::Trace &trace :
         {testing::deadlockTrace(), testing::mismatchTrace(), testing::checkErrorTrace()}) {
        ASSERT_TRUE(trace.error.has_value());
        const std::string json = traceToJson(trace);
        auto read = traceFromJson(json);
        ASSERT_TRUE(read.ok()) << read.error().message;
        EXPECT_EQ(traceToJson(*read), json);
        EXPECT_EQ(read->status, trace.status);
        EXPECT_EQ(read->error->message, trace.error->message);
        EXPECT_EQ(read->diagnosis.has_value(), trace.diagnosis.has_value());
    }
    const std::string deadlock = traceToJson(testing::deadlockTrace());
    EXPECT_TRUE(contains(deadlock, "\"status\": \"deadlock\", \"correct\": false,"));
    EXPECT_TRUE(contains(deadlock, "\"diagnosis\": {\"kind\": \"deadlock\", \"ranks\": [\n"));
    EXPECT_TRUE(contains(deadlock, "\"waits_on\": ["));
    const std::string warned = traceToJson(testing::checkErrorTrace());
    EXPECT_TRUE(contains(warned, "\"warnings\": [\n  {\"rank\": 0, \"line\": "));
    EXPECT_TRUE(contains(warned, "\"kind\": \"check\""));
}

TEST(TraceJson, EscapesStringsAndKeepsThemThroughARoundTrip)
{
    core::Trace trace = referenceTrace("basic");
    const std::string nasty =
        "quote \" backslash \\ newline \n tab \t bell \x07 caf\xC3\xA9 \xE2\x86\x92";
    trace.warnings.push_back({0, 7, nasty});
    trace.check.message = "line one\nline two";
    const std::string json = traceToJson(trace, {"dir\\my \"file\".py", "f"});
    EXPECT_TRUE(contains(json, R"("message": "quote \" backslash \\ newline )"
                               R"(\u000a tab \u0009 bell \u0007)"
                               " caf\xC3\xA9 \xE2\x86\x92\"}"));
    EXPECT_TRUE(contains(json, R"("file": "dir\\my \"file\".py")"));
    TraceJsonOptions options;
    auto read = traceFromJson(json, options);
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(read->warnings.back().message, nasty);
    EXPECT_EQ(read->check.message, "line one\nline two");
    EXPECT_EQ(options.file, "dir\\my \"file\".py");
    EXPECT_EQ(traceToJson(*read, options), json);
}

TEST(TraceJson, RoundTripsMarksAndErrorDetails)
{
    core::Trace trace = testing::checkErrorTrace();
    ASSERT_TRUE(trace.error.has_value());
    trace.error->column = 9;
    trace.error->traceback = "File \"ddp.py\", line 4, in ddp\n    forward(1, a, w)";
    trace.marks.push_back({0, 12, 0, 2, "after \"forward\""});
    trace.marks.push_back({-1, 30, trace.events.size(), trace.changes.size(), "the end"});
    const std::string json = traceToJson(trace);
    EXPECT_TRUE(contains(json,
                         "\"column\": 9, \"traceback\": \"File \\\"ddp.py\\\", line 4, in "
                         "ddp\\u000a    forward(1, a, w)\"}"));
    EXPECT_TRUE(contains(json,
                         "\"marks\": [\n  {\"rank\": 0, \"line\": 12, \"event_count\": 0, "
                         "\"change_count\": 2, \"label\": \"after \\\"forward\\\"\"},\n"));
    auto read = traceFromJson(json);
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(read->error->column, 9);
    EXPECT_EQ(read->error->traceback, trace.error->traceback);
    ASSERT_EQ(read->marks.size(), 2u);
    EXPECT_EQ(read->marks[1].rank, -1);
    EXPECT_EQ(read->marks[0].label, "after \"forward\"");
    EXPECT_EQ(traceToJson(*read), json);
}

TEST(TraceJson, ReadsTracesWrittenBeforeMarksAndErrorDetails)
{
    const std::string json = traceToJson(testing::checkErrorTrace());
    std::string older = json;
    for (const std::string &cut : {std::string(",\n \"marks\": []"), std::string(", \"column\": 0"),
                                   std::string(", \"traceback\": \"\"")}) {
        const std::size_t at = older.find(cut);
        ASSERT_NE(at, std::string::npos) << cut;
        older.erase(at, cut.size());
    }
    auto read = traceFromJson(older);
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(traceToJson(*read), json);
}

TEST(TraceJson, WritesAnEmptyTraceThatReadsBack)
{
    const core::Trace empty;
    const std::string json = traceToJson(empty);
    EXPECT_TRUE(contains(json,
                         "\"changes\": [],\n \"slices\": [],\n \"warnings\": [],\n "
                         "\"marks\": [],\n \"final_weights\": []}"));
    auto read = traceFromJson(json);
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(traceToJson(*read), json);
}

} // namespace
} // namespace rankstep::io
