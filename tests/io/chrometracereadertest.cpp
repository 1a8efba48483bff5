// SPDX-License-Identifier: MIT
// A Chrome trace read as a run (core/io/chrometracereader.h): Rankstep's own export comes back
// event for event, a profile of real ranks (torch.profiler's operators, a process per rank)
// keeps each rank's outermost operations, and what a file holds is told from its first bytes
// (core/io/filekind.h).
#include "testtraces.h"

#include "core/io/chrometrace.h"
#include "core/io/chrometracereader.h"
#include "core/io/filekind.h"
#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::io {
namespace {

// Two real ranks as `real --profile` merges them: rank 1 listed first, with pid 7, and an aten
// operator nested in another.
const char *const kProfile = R"({"traceEvents": [
 {"name": "aten::linear", "ph": "X", "ts": 1000, "dur": 500, "tid": 1, "pid": 7, "args": {}},
 {"name": "aten::mm", "ph": "X", "ts": 1100, "dur": 300, "tid": 1, "pid": 7, "args": {}},
 {"name": "gloo:all_reduce", "ph": "X", "ts": 1600, "dur": 200, "tid": 1, "pid": 7},
 {"name": "autograd::engine::evaluate_function: MmBackward0", "ph": "X", "ts": 900,
  "dur": 50, "tid": 2, "pid": 0},
 {"name": "gloo:all_reduce", "ph": "X", "ts": 1700, "dur": 100.5, "tid": 1, "pid": 0},
 {"name": "Optimizer.step#SGD.step", "ph": "X", "ts": 1900, "dur": 10, "tid": 1, "pid": 0},
 {"name": "[memory]", "ph": "i", "ts": 1000, "pid": 0, "tid": 1},
 {"name": "process_name", "ph": "M", "pid": 7, "args": {"name": "rank 1"}},
 {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "rank 0"}}
], "displayTimeUnit": "ms"})";

std::string errorOf(const std::string &text)
{
    auto run = runFromChromeJson(text);
    return run ? std::string("(read)") : run.error().message;
}

TEST(ChromeTraceReader, KeepsEachRanksOutermostOperationsOfAProfileAtTheirTimes)
{
    auto run = runFromChromeJson(kProfile);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_FALSE(run->simulated);
    const core::Trace &trace = run->trace;
    EXPECT_EQ(trace.config.ranks, 2);
    ASSERT_EQ(trace.events.size(), 5U) << "aten::mm lies inside aten::linear";
    // In time order from the earliest event (rank 0's backward at 900 us).
    EXPECT_EQ(trace.events[0].rank, 0);
    EXPECT_EQ(trace.events[0].op, core::OpKind::Backward);
    EXPECT_EQ(trace.events[0].start.ticks(), 0);
    EXPECT_EQ(trace.events[1].rank, 1);
    EXPECT_EQ(trace.events[1].op, core::OpKind::Forward);
    EXPECT_EQ(trace.events[1].start.ticks(), 100);
    EXPECT_EQ(trace.events[1].duration.ticks(), 500);
    EXPECT_EQ(trace.events[2].op, core::OpKind::AllReduce);
    EXPECT_EQ(trace.events[3].op, core::OpKind::AllReduce);
    EXPECT_EQ(trace.events[3].duration.ticks(), 101) << "100.5 us rounds to 101 ticks";
    EXPECT_EQ(trace.events[2].link, trace.events[3].link) << "the first allreduce of each rank";
    EXPECT_EQ(trace.events[4].op, core::OpKind::Update);
    EXPECT_EQ(trace.figures.endTime.ticks(), 1010);
    EXPECT_TRUE(trace.figures.hasEvents);
}

TEST(ChromeTraceReader, ReadsRankstepsOwnExportEventForEvent)
{
    const core::Trace original = testing::referenceTrace("ddp");
    auto run = runFromChromeJson(traceToChromeJson(original));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_TRUE(run->simulated);
    const core::Trace &trace = run->trace;
    EXPECT_EQ(trace.config.ranks, original.config.ranks);
    EXPECT_EQ(trace.config.layers, original.config.layers);
    ASSERT_EQ(trace.events.size(), original.events.size());
    EXPECT_EQ(trace.figures.endTime, original.figures.endTime);
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const core::Event &event = trace.events[i];
        bool found = false; // the same operation of the same rank at the same time
        for (const core::Event &other : original.events)
            found = found || (other.rank == event.rank && other.start == event.start &&
                              other.duration == event.duration && other.op == event.op &&
                              other.layer == event.layer && other.memory == event.memory);
        EXPECT_TRUE(found) << "event " << i;
    }
}

// A profile of a real run whose lib named its calls (`real --profile`): the puzzle's operations,
// not the operators torch ran inside them or between them.
TEST(ChromeTraceReader, ShowsTheCallsARealRunNamedAndNotTorchsOperators)
{
    auto run = runFromChromeJson(R"({"traceEvents": [
 {"name": "aten::randn", "ph": "X", "ts": 0, "dur": 900, "tid": 1, "pid": 0},
 {"name": "forward L0", "ph": "X", "ts": 1000, "dur": 500, "tid": 1, "pid": 0,
  "cat": "user_annotation"},
 {"name": "aten::mm", "ph": "X", "ts": 1100, "dur": 300, "tid": 1, "pid": 0},
 {"name": "allreduce L1", "ph": "X", "ts": 1600, "dur": 200, "tid": 1, "pid": 0},
 {"name": "gloo:all_reduce", "ph": "X", "ts": 1650, "dur": 100, "tid": 1, "pid": 0},
 {"name": "forward Lx", "ph": "X", "ts": 1900, "dur": 10, "tid": 1, "pid": 0},
 {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "rank 0"}}]})");
    ASSERT_TRUE(run) << run.error().message;
    const core::Trace &trace = run->trace;
    ASSERT_EQ(trace.events.size(), 2U) << "aten::randn before, aten::mm inside, no layer Lx";
    EXPECT_EQ(trace.events[0].op, core::OpKind::Forward);
    EXPECT_EQ(trace.events[0].layer, 0);
    EXPECT_EQ(trace.events[0].start.ticks(), 1000);
    EXPECT_EQ(trace.events[1].op, core::OpKind::AllReduce);
    EXPECT_EQ(trace.events[1].layer, 1);
    EXPECT_EQ(trace.config.layers, 2);
}

// The lib names a pass_to's receiver ("pass_to L1 to 1") and, inside a receive, its sender once
// known ("from 0"): the two are one message, as in a simulated trace.
TEST(ChromeTraceReader, JoinsAMessagesSendAndReceiveByTheNamedPeers)
{
    auto run = runFromChromeJson(R"({"traceEvents": [
 {"name": "pass_to L1 to 1", "ph": "X", "ts": 100, "dur": 10, "tid": 1, "pid": 0},
 {"name": "receive", "ph": "X", "ts": 50, "dur": 100, "tid": 1, "pid": 1},
 {"name": "gloo:recv", "ph": "X", "ts": 60, "dur": 80, "tid": 1, "pid": 1},
 {"name": "from 0", "ph": "X", "ts": 149, "dur": 0, "tid": 1, "pid": 1},
 {"name": "pass_to L1 to 7", "ph": "X", "ts": 200, "dur": 10, "tid": 1, "pid": 0},
 {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "rank 0"}},
 {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "rank 1"}}]})");
    ASSERT_TRUE(run) << run.error().message;
    const core::Trace &trace = run->trace;
    ASSERT_EQ(trace.events.size(), 3U) << "gloo:recv and the sender's name are no operations";
    const core::Event &receive = trace.events[0];
    const core::Event &send = trace.events[1];
    EXPECT_EQ(receive.op, core::OpKind::Receive);
    EXPECT_EQ(receive.peer, 0);
    EXPECT_EQ(send.op, core::OpKind::PassTo);
    EXPECT_EQ(send.peer, 1);
    EXPECT_EQ(send.layer, 1);
    EXPECT_GE(send.link, 0);
    EXPECT_EQ(send.link, receive.link);
    EXPECT_EQ(trace.events[2].peer, -1) << "rank 7 is not in the file";
    EXPECT_EQ(trace.events[2].link, -1);
}

TEST(ChromeTraceReader, RefusesWhatItCannotShowWithASentence)
{
    EXPECT_NE(errorOf("{\"traceEvents\": [").find("cannot read the Chrome trace: JSON line"),
              std::string::npos);
    EXPECT_NE(errorOf("{\"traceEvents\": []}").find("no complete event"), std::string::npos);
    EXPECT_NE(errorOf("{\"other\": 1}").find("not a Chrome trace"), std::string::npos);
    EXPECT_NE(errorOf(R"({"traceEvents": [{"name": "x", "ph": "X", "ts": 1, "dur": -5}]})")
                  .find("a time out of range"),
              std::string::npos);
    EXPECT_NE(errorOf(R"({"traceEvents": [{"name": "x", "ph": "X", "ts": 1e300, "dur": 1}]})")
                  .find("a time out of range"),
              std::string::npos);
    EXPECT_NE(errorOf(R"({"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}]})").find("name"),
              std::string::npos);
    EXPECT_NE(errorOf(R"({"traceEvents": [{"name": "forward L99999", "ph": "X", "ts": 1}]})")
                  .find("a layer past 65535"),
              std::string::npos);
}

TEST(FileKind, IsToldFromTheContentNotTheName)
{
    const core::Trace trace = testing::referenceTrace("ddp");
    EXPECT_EQ(sniffFileKind(traceToBinary(trace)), FileKind::BinaryTrace);
    EXPECT_EQ(sniffFileKind(traceToJson(trace)), FileKind::TraceJson);
    EXPECT_EQ(sniffFileKind(traceToChromeJson(trace)), FileKind::ChromeTrace);
    EXPECT_EQ(sniffFileKind(kProfile), FileKind::ChromeTrace);
    EXPECT_EQ(sniffFileKind("[{\"name\": \"aten::mm\", \"ph\": \"X\"}]"), FileKind::ChromeTrace);
    EXPECT_EQ(sniffFileKind("{\"format\": \"rankstep-trace\", \"version\": 1, \"clock\": "
                            "\"seconds\"}"),
              FileKind::RealReport);
    EXPECT_EQ(sniffFileKind("\n {\"format\" : \"rankstep-demonstration\"}"),
              FileKind::Demonstration);
    EXPECT_EQ(sniffFileKind("{\"cells\": [], \"nbformat\": 4}"), FileKind::OtherJson);
    EXPECT_EQ(sniffFileKind("{\"format\": \"something else\"}"), FileKind::OtherJson);
    EXPECT_EQ(sniffFileKind("def ddp(model):\n"), FileKind::Other);
    EXPECT_EQ(sniffFileKind(""), FileKind::Other);
}

} // namespace
} // namespace rankstep::io
