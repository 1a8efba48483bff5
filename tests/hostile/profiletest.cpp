// SPDX-License-Identifier: MIT
// `real --profile OUT`: the ranks' torch.profiler traces merged into one file that Perfetto and
// chrome://tracing load as one run, checked against the JSON trace format's rules; and the merge
// (rankstep_real.profilemerge) fed the files a rank's code could leave instead of its profile.
#include "clilaunch.h"
#include "torchsupport.h"

#include "core/io/jsonparser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

const std::string kSource = RANKSTEP_SOURCE_DIR;

bool isInteger(const io::JsonValue *value)
{
    return value && value->type == io::JsonValue::Type::Number &&
           value->text.find_first_of(".eE") == std::string::npos;
}

double number(const io::JsonValue *value)
{
    return value && value->type == io::JsonValue::Type::Number
               ? std::strtod(value->text.c_str(), nullptr)
               : std::nan("");
}

std::string textOf(const io::JsonValue *value)
{
    return value && value->type == io::JsonValue::Type::String ? value->text : std::string();
}

// Complete events of one track that overlap without nesting, as "a [ts, end] and b [ts, end]".
void findOverlaps(std::vector<std::pair<double, double>> spans, const std::string &track,
                  std::vector<std::string> &problems)
{
    std::sort(spans.begin(), spans.end(), [](const auto &a, const auto &b) {
        return a.first < b.first || (a.first == b.first && a.second > b.second);
    });
    std::vector<double> openEnds;
    for (const auto &[start, end] : spans) {
        while (!openEnds.empty() && openEnds.back() <= start)
            openEnds.pop_back();
        if (!openEnds.empty() && end > openEnds.back())
            problems.push_back(track + ": an event [" + std::to_string(start) + ", " +
                               std::to_string(end) + "] outlasts the one it starts in, ending " +
                               std::to_string(openEnds.back()));
        openEnds.push_back(end);
    }
}

// What breaks the rules of the JSON trace format that Perfetto and chrome://tracing read, as
// this project keeps to them: every event an object with a name, a phase, an integer pid other
// than 0 and an integer tid (metadata events too); complete events with a timestamp and a
// duration that are not negative; each process named by process_name and each thread by
// thread_name; no two complete events on one thread that overlap without nesting.
std::vector<std::string> traceFormatProblems(const std::string &text)
{
    std::vector<std::string> problems;
    const auto parsed = io::parseJson(text);
    if (!parsed)
        return {"not JSON: " + parsed.error().message};
    const io::JsonValue *events = parsed->find("traceEvents");
    if (!events || !events->isArray())
        return {"no traceEvents array"};
    if (const io::JsonValue *unit = parsed->find("displayTimeUnit");
        unit && textOf(unit) != "ms" && textOf(unit) != "ns")
        problems.emplace_back("displayTimeUnit is neither ms nor ns");
    std::set<double> namedProcesses;
    std::set<std::pair<double, double>> namedThreads, usedThreads;
    std::map<std::pair<double, double>, std::vector<std::pair<double, double>>> complete;
    for (const io::JsonValue &event : events->items) {
        const std::string where = "event at line " + std::to_string(event.line);
        const std::string phase = textOf(event.find("ph"));
        const std::string name = textOf(event.find("name"));
        if (!event.isObject() || phase.empty() || !event.find("name") ||
            event.find("name")->type != io::JsonValue::Type::String) {
            problems.push_back(where + " lacks a name or a phase");
            continue;
        }
        if (!isInteger(event.find("pid")) || !isInteger(event.find("tid"))) {
            problems.push_back(where + " (" + name + ") lacks an integer pid or tid");
            continue;
        }
        const double pid = number(event.find("pid"));
        const double tid = number(event.find("tid"));
        if (pid == 0)
            problems.push_back(where + " (" + name + ") is on pid 0, which is no process");
        if (phase == "M") {
            const io::JsonValue *args = event.find("args");
            if (!args || !args->isObject())
                problems.push_back(where + " (" + name + ") is metadata without args");
            else if (name == "process_name" && !textOf(args->find("name")).empty())
                namedProcesses.insert(pid);
            else if (name == "thread_name" && !textOf(args->find("name")).empty())
                namedThreads.insert({pid, tid});
            continue;
        }
        const double ts = number(event.find("ts"));
        if (!(ts >= 0))
            problems.push_back(where + " (" + name + ") has no timestamp of 0 or more");
        usedThreads.insert({pid, tid});
        if (phase == "X") {
            const double duration = number(event.find("dur"));
            if (!(duration >= 0))
                problems.push_back(where + " (" + name + ") is complete without a duration");
            else
                complete[{pid, tid}].emplace_back(ts, ts + duration);
        }
    }
    for (const auto &[pid, tid] : usedThreads) {
        if (!namedProcesses.contains(pid))
            problems.push_back("process " + std::to_string(int(pid)) + " has no process_name");
        if (!namedThreads.contains({pid, tid}))
            problems.push_back("thread " + std::to_string(int(tid)) + " of process " +
                               std::to_string(int(pid)) + " has no thread_name");
    }
    for (const auto &[track, spans] : complete)
        findOverlaps(
            spans,
            "pid " + std::to_string(int(track.first)) + " tid " + std::to_string(int(track.second)),
            problems);
    return problems;
}

std::string joined(const std::vector<std::string> &lines)
{
    std::string text;
    for (const std::string &line : lines)
        text += line + "\n";
    return text;
}

// The checker itself: a trace torch.profiler's ranks were merged into before (rank 0 on pid 0, no
// tid on the metadata, overlapping operators) breaks it; a well-formed one does not.
TEST(ProfileFormat, TheCheckerFindsWhatPerfettoStumblesOver)
{
    const std::string old =
        R"({"traceEvents": [{"name": "aten::matmul", "ph": "X", "ts": 10, "dur": 5, "tid": 1, "pid": 0},
        {"name": "aten::mm", "ph": "X", "ts": 12, "dur": 9, "tid": 1, "pid": 0},
        {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "rank 0"}}]})";
    const std::vector<std::string> problems = traceFormatProblems(old);
    EXPECT_NE(joined(problems).find("pid 0, which is no process"), std::string::npos);
    EXPECT_NE(joined(problems).find("lacks an integer pid or tid"), std::string::npos);
    EXPECT_NE(joined(problems).find("outlasts the one it starts in"), std::string::npos);
    EXPECT_NE(joined(problems).find("has no thread_name"), std::string::npos);
    const std::string good =
        R"({"traceEvents": [{"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "rank 0"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "thread 1"}},
        {"name": "aten::matmul", "ph": "X", "ts": 10, "dur": 5, "tid": 1, "pid": 1},
        {"name": "aten::mm", "ph": "X", "ts": 11, "dur": 4, "tid": 1, "pid": 1}]})";
    EXPECT_TRUE(traceFormatProblems(good).empty()) << joined(traceFormatProblems(good));
}

TEST(ProfileFormat, AProfiledRealRunLoadsAsOneTraceOfEveryRank)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string profile = (dir.path() / "profile.json").string();
    const ProcessResult run =
        runCli({{"real", kSource + "/lessons/30-ddp/solution.py", "--function", "ddp", "--ranks",
                 "2", "--layers", "2", "--batches", "2", "--hidden", "16", "--length", "4",
                 "--profile", profile},
                "",
                {}},
               dir);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    const std::string text = dir.read("profile.json");
    EXPECT_TRUE(traceFormatProblems(text).empty()) << joined(traceFormatProblems(text));
    // The collectives of the two ranks on one clock: the k-th all-reduce of one rank and the k-th
    // of the other overlap in time, as a collective that waits for both must.
    const auto parsed = io::parseJson(text);
    ASSERT_TRUE(parsed);
    std::map<double, std::vector<std::pair<double, double>>> allreduces;
    for (const io::JsonValue &event : parsed->find("traceEvents")->items)
        if (textOf(event.find("name")) == "gloo:all_reduce") {
            const double ts = number(event.find("ts"));
            allreduces[number(event.find("pid"))].emplace_back(ts, ts + number(event.find("dur")));
        }
    ASSERT_EQ(allreduces.size(), 2u);
    for (auto &[pid, spans] : allreduces)
        std::sort(spans.begin(), spans.end());
    ASSERT_EQ(allreduces.begin()->second.size(), allreduces.rbegin()->second.size());
    for (std::size_t k = 0; k < allreduces.begin()->second.size(); ++k) {
        const auto [a0, a1] = allreduces.begin()->second[k];
        const auto [b0, b1] = allreduces.rbegin()->second[k];
        EXPECT_TRUE(a0 <= b1 && b0 <= a1) << "all-reduce " << k << ": [" << a0 << ", " << a1
                                          << "] and [" << b0 << ", " << b1 << "]";
    }
}

// rankstep_real.profilemerge over a folder as the check reads it, without a sandbox; its notes.
ProcessResult mergeProfiles(const TempDir &dir, const std::string &folder, int ranks,
                            const std::string &out)
{
    return testsupport::runProgram(
        "/usr/bin/python3",
        {"-I", "-c",
         "import sys; sys.path.insert(0, sys.argv[1]); from rankstep_real import profilemerge; "
         "sys.exit(profilemerge.main(sys.argv[2:]))",
         kSource + "/core/real", folder, std::to_string(ranks), out},
        dir);
}

// What a rank's code can leave instead of its profile: each left out with a sentence, the rest
// merged into a trace that keeps the format's rules, on one clock.
TEST(ProfileFormat, ARanksProfileIsUntrustedInputToTheMerge)
{
    TempDir dir;
    const std::filesystem::path ranks = dir.path() / "ranks";
    // Rank 0: PyTorch 1.13's bare list, from its own start at 5 s, with a child that outlasts its
    // parent by rounding (cut to nest) and one that overlaps by far (a thread of its own).
    dir.write("ranks/rank-0.json", R"({"profile_start_us": 1700000000000000})");
    dir.write(
        "ranks/rank-0.profile.json",
        R"([{"name": "aten::matmul", "ph": "X", "ts": 100, "dur": 4, "tid": 1, "pid": "CPU functions"},
                  {"name": "aten::mm", "ph": "X", "ts": 101, "dur": 4, "tid": 1, "pid": "CPU functions"},
                  {"name": "aten::add", "ph": "X", "ts": 103, "dur": 50, "tid": 1, "pid": "CPU functions"},
                  {"name": "gloo:all_reduce", "ph": "X", "ts": 200, "dur": 30, "tid": 2, "pid": "CPU functions"}])");
    // Rank 1: Kineto's object with timestamps from the epoch, a named thread of a string tid.
    dir.write("ranks/rank-1.json", R"({"profile_start_us": 1700000000000050})");
    dir.write(
        "ranks/rank-1.profile.json",
        R"({"traceEvents": [{"name": "thread_name", "ph": "M", "pid": 7, "tid": "main", "args": {"name": "python"}},
                  {"name": "gloo:all_reduce", "ph": "X", "ts": 1700000000000210, "dur": 20, "tid": "main", "pid": 7}]})");
    dir.write("ranks/rank-2.profile.json", "\x89PNG not json at all");
    dir.write("ranks/rank-3.profile.json", std::string(100000, '[') + std::string(100000, ']'));
    {
        std::ofstream large(ranks / "rank-4.profile.json");
        large << "[";
    }
    std::filesystem::resize_file(ranks / "rank-4.profile.json", 65 << 20); // sparse: no disk
    ASSERT_EQ(mkfifo((ranks / "rank-5.profile.json").c_str(), 0600), 0);
    std::filesystem::create_symlink("/etc/passwd", ranks / "rank-6.profile.json");
    dir.write("ranks/rank-7.profile.json",
              R"([{"name": "ok", "ph": "X", "ts": 1, "dur": 1, "tid": 1},
                  {"name": "negative", "ph": "X", "ts": 1, "dur": -5, "tid": 1},
                  {"name": "infinite", "ph": "X", "ts": 1e999, "dur": 1, "tid": 1},
                  {"name": "huge", "ph": "X", "ts": 1)" +
                  std::string(400, '0') + R"(, "dur": 1, "tid": 1},
                  {"name": 42, "ph": "X", "ts": 1, "dur": 1, "tid": 1},
                  {"name": "begin", "ph": "B", "ts": 1, "tid": 1},
                  {"name": "deep", "ph": "X", "ts": 2, "dur": 0, "tid": 1, "args": {"a": [[[[1]]]], "b": "kept"}},
                  "not an event", 17])");
    dir.write("ranks/rank-8.profile.json", R"({"traceEvents": 3})");
    // Rank 10: 40 operators on one thread, each overlapping every one before without nesting.
    std::string chain = "[";
    for (int i = 0; i < 40; ++i)
        chain += std::string(i ? "," : "") + R"({"name": "chained", "ph": "X", "ts": )" +
                 std::to_string(2 * i) + R"(, "dur": 1000, "tid": 1})";
    dir.write("ranks/rank-10.profile.json", chain + "]");
    const std::string out = (dir.path() / "merged.json").string();
    const ProcessResult merge = mergeProfiles(dir, ranks.string(), 11, out);
    ASSERT_EQ(merge.exitCode, 0) << merge.out << merge.err;
    for (const char *sentence :
         {"Rank 2's profile (rank-2.profile.json) was left out: it is not UTF-8 text.",
          "Rank 3's profile (rank-3.profile.json) was left out: it is not JSON",
          "Rank 4's profile (rank-4.profile.json) was left out: it is larger than the 64 MiB",
          "Rank 5's profile (rank-5.profile.json) was left out: it could not be read",
          "Rank 6's profile (rank-6.profile.json) was left out: it could not be read",
          "Rank 7's profile: 7 of its events were left out",
          "Rank 8's profile (rank-8.profile.json) was left out: it is not a trace of "
          "torch.profiler.",
          "Rank 9's profile (rank-9.profile.json) was left out: it is missing.",
          "Rank 10's profile: 8 of its events were left out"})
        EXPECT_NE(merge.out.find(sentence), std::string::npos) << sentence << "\n" << merge.out;
    const std::string text = dir.read("merged.json");
    EXPECT_TRUE(traceFormatProblems(text).empty()) << joined(traceFormatProblems(text));
    const auto parsed = io::parseJson(text);
    ASSERT_TRUE(parsed);
    std::map<std::string, std::vector<const io::JsonValue *>> byName;
    for (const io::JsonValue &event : parsed->find("traceEvents")->items)
        byName[textOf(event.find("name"))].push_back(&event);
    // One clock: rank 0's all-reduce 200 µs after its start, rank 1's stamped 210 µs after it
    // from the epoch: both counted from rank 0's start, the earliest.
    ASSERT_EQ(byName["gloo:all_reduce"].size(), 2u);
    EXPECT_EQ(number(byName["gloo:all_reduce"][0]->find("ts")), 200);
    EXPECT_EQ(number(byName["gloo:all_reduce"][1]->find("ts")), 210);
    EXPECT_EQ(number(byName["gloo:all_reduce"][1]->find("pid")), 2);
    // aten::add overlaps matmul by far: a thread of its own; aten::mm, by rounding, is cut.
    ASSERT_EQ(byName["aten::add"].size(), 1u);
    ASSERT_EQ(byName["aten::mm"].size(), 1u);
    EXPECT_NE(number(byName["aten::add"][0]->find("tid")),
              number(byName["aten::matmul"][0]->find("tid")));
    EXPECT_EQ(number(byName["aten::mm"][0]->find("dur")), 3);
    EXPECT_NE(text.find(R"("name": "python")"), std::string::npos); // rank 1's thread keeps it
    EXPECT_NE(text.find(R"("b": "kept")"), std::string::npos);
    EXPECT_EQ(text.find(R"("a":)"), std::string::npos); // nested arguments are not carried
}

} // namespace
} // namespace rankstep::hostile
