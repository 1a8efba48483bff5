// SPDX-License-Identifier: MIT
// traceToChromeJson, read back with our own parser.
#include "testtraces.h"

#include "core/io/chrometrace.h"
#include "core/io/jsonparser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace rankstep::io {
namespace {

using testing::referenceTrace;

struct ChromeFile {
    JsonValue root;
    std::vector<const JsonValue *> events;

    std::vector<const JsonValue *> phase(const std::string &ph) const
    {
        std::vector<const JsonValue *> found;
        for (const JsonValue *event : events)
            if (event->find("ph")->text == ph)
                found.push_back(event);
        return found;
    }
};

ChromeFile chrome(const core::Trace &trace)
{
    const std::string text = traceToChromeJson(trace);
    auto parsed = parseJson(text);
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().message);
    ChromeFile file{parsed.ok() ? *parsed : JsonValue{}, {}};
    if (const JsonValue *events = file.root.find("traceEvents"))
        for (const JsonValue &event : events->items)
            file.events.push_back(&event);
    return file;
}

std::int64_t number(const JsonValue *event, std::string_view key)
{
    const JsonValue *value = event->find(key);
    EXPECT_NE(value, nullptr) << key;
    EXPECT_EQ(value->text.find_first_not_of("-0123456789"), std::string::npos)
        << key << " is no integer: " << value->text;
    return value ? std::stoll(value->text) : -1;
}

TEST(ChromeTrace, StartsAsPerfettoExpectsAndUsesMilliseconds)
{
    const std::string text = traceToChromeJson(referenceTrace("ddp"));
    EXPECT_TRUE(text.starts_with("{\"traceEvents\": [\n"));
    EXPECT_EQ(chrome(referenceTrace("ddp")).root.find("displayTimeUnit")->text, "ms");
}

TEST(ChromeTrace, NamesOneThreadPerRankInOneProcess)
{
    const ChromeFile file = chrome(referenceTrace("pipeline_fsdp"));
    std::map<std::int64_t, std::string> names;
    std::set<std::int64_t> sorted;
    for (const JsonValue *meta : file.phase("M")) {
        EXPECT_EQ(number(meta, "pid"), 1);
        const std::string &kind = meta->find("name")->text;
        if (kind == "thread_name")
            EXPECT_TRUE(
                names.emplace(number(meta, "tid"), meta->find("args")->find("name")->text).second);
        else if (kind == "thread_sort_index")
            sorted.insert(number(meta, "tid"));
        else
            EXPECT_EQ(meta->find("args")->find("name")->text, "Rankstep");
    }
    ASSERT_EQ(names.size(), 16u);
    EXPECT_EQ(names.begin()->second, "rank 0");
    EXPECT_EQ(names.rbegin()->second, "rank 15");
    EXPECT_EQ(sorted.size(), 16u);
}

TEST(ChromeTrace, HasOneCompleteEventPerTraceEventInTicks)
{
    const core::Trace trace = referenceTrace("wsdp");
    const ChromeFile file = chrome(trace);
    const auto complete = file.phase("X");
    ASSERT_EQ(complete.size(), trace.events.size());
    for (std::size_t i = 0; i < complete.size(); ++i) {
        const core::Event &event = trace.events[i];
        EXPECT_EQ(number(complete[i], "ts"), event.start.ticks());
        EXPECT_EQ(number(complete[i], "dur"), event.duration.ticks());
        EXPECT_EQ(number(complete[i], "tid"), event.rank + 1);
        EXPECT_EQ(number(complete[i]->find("args"), "memory"), event.memory);
    }
    EXPECT_EQ(complete.front()->find("name")->text, "allgather L0"); // WSDP gathers first
    const auto forward = std::find_if(trace.events.begin(), trace.events.end(),
                                      [](const auto &e) { return e.op == core::OpKind::Forward; });
    ASSERT_NE(forward, trace.events.end());
    EXPECT_EQ(complete[std::size_t(forward - trace.events.begin())]->find("name")->text,
              "forward L0");
    // The run's last start, 19.9 steps, is 19900 microseconds.
    std::int64_t last = 0;
    for (const JsonValue *event : complete)
        last = std::max(last, number(event, "ts"));
    EXPECT_EQ(last, 19900);
}

TEST(ChromeTrace, DrawsOneFlowPerMessageFromPassToToReceive)
{
    const core::Trace trace = referenceTrace("gpipe");
    const ChromeFile file = chrome(trace);
    std::map<std::int64_t, const JsonValue *> starts, finishes;
    for (const JsonValue *flow : file.phase("s"))
        EXPECT_TRUE(starts.emplace(number(flow, "id"), flow).second);
    for (const JsonValue *flow : file.phase("f")) {
        EXPECT_EQ(flow->find("bp")->text, "e");
        EXPECT_TRUE(finishes.emplace(number(flow, "id"), flow).second);
    }
    std::size_t messages = 0;
    for (const core::Event &event : trace.events)
        messages += event.op == core::OpKind::PassTo ? 1 : 0;
    ASSERT_GT(messages, 0u);
    EXPECT_EQ(starts.size(), messages);
    ASSERT_EQ(finishes.size(), messages);
    for (const auto &[id, start] : starts) {
        const JsonValue *finish = finishes.at(id);
        EXPECT_EQ(start->find("cat")->text, "message");
        EXPECT_EQ(finish->find("name")->text, start->find("name")->text);
        EXPECT_NE(number(start, "tid"), number(finish, "tid"));
        EXPECT_LT(number(start, "ts"), number(finish, "ts"));
    }
}

TEST(ChromeTrace, FlowEndsLieInsideTheirSlices)
{
    const core::Trace trace = referenceTrace("pipeline");
    const ChromeFile file = chrome(trace);
    for (const char *phase : {"s", "f"})
        for (const JsonValue *flow : file.phase(phase)) {
            bool inside = false;
            for (const core::Event &event : trace.events)
                inside = inside || (event.link == number(flow, "id") &&
                                    event.rank + 1 == number(flow, "tid") &&
                                    event.start.ticks() <= number(flow, "ts") &&
                                    number(flow, "ts") < event.end().ticks());
            EXPECT_TRUE(inside) << phase << " " << number(flow, "id");
        }
}

TEST(ChromeTrace, CountsMemoryPerRankAndReachesThePeak)
{
    const core::Trace trace = referenceTrace("ddp");
    const ChromeFile file = chrome(trace);
    std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>> series;
    for (const JsonValue *sample : file.phase("C"))
        series[sample->find("name")->text].emplace_back(number(sample, "ts"),
                                                        number(sample->find("args"), "bytes"));
    ASSERT_EQ(series.size(), 4u);
    for (int rank = 0; rank < 4; ++rank) {
        const auto &samples = series["memory rank " + std::to_string(rank)];
        ASSERT_FALSE(samples.empty());
        for (std::size_t i = 1; i < samples.size(); ++i) {
            EXPECT_LE(samples[i - 1].first, samples[i].first) << "time runs forward";
            EXPECT_NE(samples[i - 1].second, samples[i].second) << "no repeated value";
        }
        std::int64_t peak = 0;
        for (const auto &sample : samples)
            peak = std::max(peak, sample.second);
        EXPECT_GE(peak, trace.figures.ranks[std::size_t(rank)].peakMemory);
    }
    // DDP's maximum, 1835008 bytes on rank 0 at time 4, shows at 4000 us.
    bool seen = false;
    for (const auto &[ts, bytes] : series["memory rank 0"])
        seen = seen || (ts == 4000 && bytes == 1835008);
    EXPECT_TRUE(seen);
}

TEST(ChromeTrace, WritesATraceThatEndedInADeadlock)
{
    const core::Trace trace = testing::deadlockTrace();
    const ChromeFile file = chrome(trace);
    EXPECT_EQ(file.phase("X").size(), trace.events.size());
    EXPECT_TRUE(file.phase("s").empty()) << "no message was received";
}

} // namespace
} // namespace rankstep::io
