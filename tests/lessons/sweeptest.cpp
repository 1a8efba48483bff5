// SPDX-License-Identifier: MIT
// rankstep-cli sweep (docs/sweeps.md): a row per setting from real child runs, in the
// grid's order, a failing setting's error in its row while the others go on, the GPipe bubble
// over micro-batches with the lesson's own setting giving the lesson's figures, the bandwidth
// axis reaching the runs, CSV, and usage errors.
#include "cli/runreport.h"
#include "core/io/costfile.h"
#include "core/io/jsonparser.h"
#include "core/io/sweeprow.h"
#include "core/io/tracebinary.h"
#include "core/lessons/builtin.h"
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rankstep::lessontests {
namespace {

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

std::string solution(const std::string &folder)
{
    return lessonsRoot() + "/" + folder + "/solution.py";
}

// The rows of --jsonl output (one JSON object a line), by index.
std::vector<io::SweepRow> jsonLines(const std::string &out)
{
    std::vector<io::SweepRow> rows;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        auto row = io::sweepRowFromJson(line);
        EXPECT_TRUE(row) << row.error().message << "\n" << line;
        if (row)
            rows.push_back(*row);
    }
    std::sort(rows.begin(), rows.end(),
              [](const io::SweepRow &a, const io::SweepRow &b) { return a.index < b.index; });
    return rows;
}

const lessons::Lesson &lesson(const std::string &id)
{
    static const auto all = lessons::loadLessons(lessons::builtinLessonFiles());
    const lessons::Lesson *found = all ? lessons::findLesson(*all, id) : nullptr;
    if (!found)
        throw std::runtime_error("no lesson " + id);
    return *found;
}

class Sweep : public ::testing::Test
{
protected:
    TempDir m_dir;
};

// The issue's GPipe sweep: m = 1, 2, 4, 8 micro-batches on the lesson's 4 stages; the lesson's
// own setting (m = 4) gives its targets, and the idle share falls as m grows, as
// (p - 1) / (m + p - 1) does.
TEST_F(Sweep, GpipeOverMicroBatchesGivesTheLessonsFiguresAtItsSetting)
{
    const lessons::Lesson &bubble = lesson("bubble");
    ASSERT_TRUE(bubble.targets);
    const CliResult result = runCli(
        {"sweep", solution("94-bubble"), "--ranks", std::to_string(bubble.config.ranks), "--layers",
         std::to_string(bubble.config.layers), "--batches", "1,2,4,8", "--jsonl"},
        m_dir);
    ASSERT_EQ(result.exitCode, cli::kSolved) << result.err;
    const std::vector<io::SweepRow> rows = jsonLines(result.out);
    ASSERT_EQ(rows.size(), 4U) << result.out;
    double lastIdle = 2;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const io::SweepRow &row = rows[i];
        EXPECT_EQ(row.index, int(i));
        EXPECT_EQ(row.point.batches, 1 << i);
        EXPECT_EQ(row.status, "solved") << row.error;
        ASSERT_TRUE(row.idleShare);
        EXPECT_LT(*row.idleShare, lastIdle) << "m = " << row.point.batches;
        lastIdle = *row.idleShare;
        if (row.point.batches == bubble.config.batches) {
            ASSERT_TRUE(row.timesteps);
            EXPECT_EQ(*row.timesteps, bubble.targets->time);
            EXPECT_EQ(row.peakMemory, bubble.targets->memory);
        }
    }
}

// A setting whose run fails says why in its row; the next one still runs. DDP's solution gives
// each rank one batch, so with fewer ranks than batches its update misses some.
TEST_F(Sweep, AFailingSettingShowsItsErrorAndTheOthersGoOn)
{
    const CliResult result = runCli({"sweep", solution("30-ddp"), "--ranks", "2,4", "--layers", "2",
                                     "--batches", "4", "--jsonl", "--jobs", "1"},
                                    m_dir);
    ASSERT_EQ(result.exitCode, cli::kSolved) << result.err;
    const std::vector<io::SweepRow> rows = jsonLines(result.out);
    ASSERT_EQ(rows.size(), 2U) << result.out;
    EXPECT_EQ(rows[0].status, "error");
    EXPECT_TRUE(contains(rows[0].error, "update(layer 0)")) << rows[0].error;
    EXPECT_TRUE(contains(rows[0].error, "rank ")) << rows[0].error;
    EXPECT_FALSE(rows[0].finished());
    EXPECT_EQ(rows[1].status, "solved") << rows[1].error;
    EXPECT_TRUE(rows[1].finished());
    // In words as the app says them: a sweep's setting is "correct", not "solved" (a lesson's
    // verdict, given at its own setting only).
    EXPECT_TRUE(contains(result.err, "1 correct, 1 error")) << result.err;
    EXPECT_FALSE(contains(result.err, "solved")) << result.err;
    EXPECT_TRUE(contains(result.err, "A lesson is graded at its")) << result.err;
}

// The table prints a row per setting in the grid's order (ranks, then layers, then batches) and
// a summary; the same grid as CSV quotes an error that holds commas.
// --batches-per-rank 1: DDP's solution at every number of ranks, each rank its own batch.
TEST_F(Sweep, BatchesPerRankScaleTheBatchesWithTheRanks)
{
    const CliResult result = runCli(
        {"sweep", solution("30-ddp"), "--ranks", "1,2,8", "--batches-per-rank", "1", "--jsonl"},
        m_dir);
    ASSERT_EQ(result.exitCode, cli::kSolved) << result.err;
    const std::vector<io::SweepRow> rows = jsonLines(result.out);
    ASSERT_EQ(rows.size(), 3U) << result.out;
    for (const io::SweepRow &row : rows) {
        EXPECT_EQ(row.point.batches, row.point.ranks);
        EXPECT_EQ(row.status, "solved") << row.error;
    }
    EXPECT_EQ(
        runCli({"sweep", solution("30-ddp"), "--batches", "2", "--batches-per-rank", "1"}, m_dir)
            .exitCode,
        cli::kUsage);
}

TEST_F(Sweep, TableAndCsvHaveARowPerSettingInTheGridsOrder)
{
    const std::vector<std::string> grid = {
        "sweep", solution("30-ddp"), "--ranks", "4,2", "--layers", "2,3", "--batches", "4"};
    const CliResult table = runCli(grid, m_dir);
    ASSERT_EQ(table.exitCode, cli::kSolved) << table.err;
    std::istringstream lines(table.out);
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);)
        rows.push_back(line);
    ASSERT_GE(rows.size(), 7U) << table.out;
    EXPECT_TRUE(contains(rows[0], "TIMESTEPS") && contains(rows[0], "PEAK MEMORY"));
    const char *expected[] = {"    4       2", "    4       3", "    2       2", "    2       3"};
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(rows[std::size_t(i + 1)].rfind(expected[i], 0), 0U) << rows[std::size_t(i + 1)];
    EXPECT_TRUE(contains(table.out, "4 of 4 settings")) << table.out;
    EXPECT_TRUE(contains(rows[1], " correct ")) << rows[1];
    EXPECT_FALSE(contains(table.out, "solved")) << table.out;

    std::vector<std::string> csv = grid;
    csv.push_back("--csv");
    const CliResult csvResult = runCli(csv, m_dir);
    ASSERT_EQ(csvResult.exitCode, cli::kSolved) << csvResult.err;
    std::istringstream csvLines(csvResult.out);
    std::vector<std::string> records;
    for (std::string line; std::getline(csvLines, line);)
        records.push_back(line);
    ASSERT_EQ(records.size(), 5U) << csvResult.out;
    EXPECT_EQ(records[0].rfind("ranks,layers,batches,", 0), 0U);
    EXPECT_EQ(records[1].rfind("4,2,4,,solved,true,steps,", 0), 0U) << records[1];
    EXPECT_EQ(records[3].rfind("2,2,4,,error,false,steps,", 0), 0U) << records[3];
    EXPECT_TRUE(contains(records[3], ",\"rank "))
        << "an error with commas is quoted: " << records[3];
}

// The bandwidth axis reaches the runs: the preset's own bandwidth inside a node (450 GB/s for
// llama2-7b-8xh100) gives the row without the axis, a tenth of it a slower pipeline.
TEST_F(Sweep, TheBandwidthAxisReachesEveryRun)
{
    const std::vector<std::string> common = {
        "sweep",  solution("94-bubble"), "--ranks", "4", "--layers", "8", "--batches", "4",
        "--cost", "llama2-7b-8xh100",    "--jsonl"};
    const CliResult own = runCli(common, m_dir);
    std::vector<std::string> swept = common;
    swept.insert(swept.end(), {"--bandwidth", "45,450"});
    const CliResult both = runCli(swept, m_dir);
    ASSERT_EQ(own.exitCode, cli::kSolved) << own.err;
    ASSERT_EQ(both.exitCode, cli::kSolved) << both.err;
    const auto ownRows = jsonLines(own.out);
    const auto rows = jsonLines(both.out);
    ASSERT_EQ(ownRows.size(), 1U);
    ASSERT_EQ(rows.size(), 2U);
    ASSERT_TRUE(ownRows[0].timesteps && rows[0].timesteps && rows[1].timesteps);
    EXPECT_TRUE(rows[0].seconds);
    EXPECT_EQ(rows[0].point.bandwidth, 45);
    EXPECT_EQ(*rows[1].timesteps, *ownRows[0].timesteps);
    EXPECT_GT(*rows[0].timesteps, *rows[1].timesteps);
    EXPECT_EQ(rows[0].peakMemory, rows[1].peakMemory) << "bandwidth moves time, not memory";
}

// --tensor and --pipeline sweep layouts: each row carries its layout and the preset's device
// memory, a layout that does not divide the ranks is that row's error, and a row whose peak is
// above the device's memory is marked in the table. At 8 ranks and 4 of Llama 3's layers, a
// tensor group of 2 keeps 4 layers / 2 of weights, gradients and Adam's states (over 80 GB) and
// one of 8 a quarter of that.
TEST_F(Sweep, LayoutsReachEveryRunAndRowsSayWhichDoNotFitTheDevice)
{
    const auto recipe = io::loadCostRecipe("llama3-405b");
    ASSERT_TRUE(recipe) << recipe.error().message;
    const std::vector<std::string> common = {
        "sweep",  solution("99-four_d"), "--ranks", "8",        "--layers",
        "4",      "--batches",           "4",       "--tensor", "2,3,8",
        "--cost", "llama3-405b"};
    std::vector<std::string> jsonl = common;
    jsonl.push_back("--jsonl");
    const CliResult run = runCli(jsonl, m_dir);
    ASSERT_EQ(run.exitCode, cli::kSolved) << run.err;
    const auto rows = jsonLines(run.out);
    ASSERT_EQ(rows.size(), 3U);
    for (const io::SweepRow &row : rows) {
        EXPECT_EQ(row.deviceMemory, std::llround(recipe->memoryBytes));
        EXPECT_EQ(row.point.pipeline, 1);
    }
    EXPECT_EQ(rows[0].point.tensor, 2);
    EXPECT_EQ(rows[1].point.tensor, 3);
    EXPECT_EQ(rows[2].point.tensor, 8);
    EXPECT_EQ(rows[1].status, "error");
    EXPECT_TRUE(contains(rows[1].error, "--tensor 3")) << rows[1].error;
    ASSERT_TRUE(rows[0].peakMemory && rows[2].peakMemory);
    const double states = recipe->parameters / 126 * 4 *
                          (recipe->weightBytes + recipe->gradientBytes + recipe->optimizerBytes);
    EXPECT_GT(double(*rows[0].peakMemory), states / 2);
    EXPECT_TRUE(rows[0].overDeviceMemory());
    EXPECT_FALSE(rows[2].overDeviceMemory());
    EXPECT_LT(*rows[2].peakMemory, *rows[0].peakMemory);

    const CliResult table = runCli(common, m_dir);
    ASSERT_EQ(table.exitCode, cli::kSolved) << table.err;
    EXPECT_TRUE(contains(table.out, "TENSOR  PIPELINE")) << table.out;
    EXPECT_TRUE(contains(table.out, "* 1 of them do not fit the device's 80 GB")) << table.out;
}

// A row says what does not fit by the device's memory its run kept in its trace, the figure the
// run's memory chart and explain compare its peak with. A file may give a device under a byte: a
// run keeps at least 1 B (io::resolveCost), and the sweep rounded the file's 0.4 to 0 B instead.
TEST_F(Sweep, RowsTakeTheDevicesMemoryTheirTracesCarry)
{
    const std::string cost = (m_dir.path() / "tiny.json").string();
    std::ofstream(cost)
        << R"({"format": "rankstep-cost", "version": 1, "name": "tiny", "sources": ["a test"],
 "model": {"parameters": 7.5e9, "tokens_per_batch": 1024, "activation_bytes_per_token": 5013504},
 "precision": {"weight_bytes": 2, "gradient_bytes": 2, "optimizer_bytes": 12},
 "device": {"flops_per_second": 125e12, "utilization": 0.3, "memory_bytes_per_second": 900e9,
            "memory_bytes": 0.4},
 "network": {"gpus_per_node": 16, "intra_node_bytes_per_second": 150e9,
             "inter_node_bytes_per_second": 6.25e9, "latency_seconds": 5e-6}})";
    const std::string traces = (m_dir.path() / "traces").string();
    const std::vector<std::string> common = {
        "sweep", solution("30-ddp"),   "--function", "ddp",    "--ranks", "2,4", "--layers",
        "2",     "--batches-per-rank", "1",          "--cost", cost};
    std::vector<std::string> jsonl = common;
    jsonl.insert(jsonl.end(), {"--jsonl", "--traces", traces});
    const CliResult run = runCli(jsonl, m_dir);
    ASSERT_EQ(run.exitCode, cli::kSolved) << run.err;
    const auto rows = jsonLines(run.out);
    ASSERT_EQ(rows.size(), 2U);
    for (const io::SweepRow &row : rows) {
        ASSERT_FALSE(row.trace.empty());
        const auto trace = io::traceFromBinaryFile(row.trace);
        ASSERT_TRUE(trace) << trace.error().message;
        EXPECT_EQ(trace->config.cost.deviceMemory, 1);
        EXPECT_EQ(row.deviceMemory, trace->config.cost.deviceMemory) << row.point.ranks;
        EXPECT_TRUE(row.overDeviceMemory());
    }
    const CliResult table = runCli(common, m_dir);
    ASSERT_EQ(table.exitCode, cli::kSolved) << table.err;
    EXPECT_TRUE(contains(table.out, "* 2 of them do not fit the device's 1 B")) << table.out;
}

// --json: one document with the rows and the Pareto front's indices; --traces keeps each
// setting's trace under its name.
TEST_F(Sweep, JsonNamesTheParetoFrontAndTracesAreKept)
{
    const std::string traces = (m_dir.path() / "traces").string();
    const CliResult result = runCli({"sweep", solution("94-bubble"), "--ranks", "4", "--layers",
                                     "8", "--batches", "1,2,4,8", "--json", "--traces", traces},
                                    m_dir);
    ASSERT_EQ(result.exitCode, cli::kSolved) << result.err;
    const auto document = io::parseJson(result.out);
    ASSERT_TRUE(document) << document.error().message << "\n" << result.out;
    ASSERT_NE(document->find("rows"), nullptr);
    ASSERT_EQ(document->find("rows")->items.size(), 4U);
    // Each batch is more work: m = 1 is the fastest and the smallest, and alone on the front.
    ASSERT_NE(document->find("pareto"), nullptr);
    ASSERT_EQ(document->find("pareto")->items.size(), 1U) << result.out;
    EXPECT_EQ(document->find("pareto")->items[0].text, "0");
    EXPECT_TRUE(std::filesystem::exists(traces + "/ranks-4-layers-8-batches-2.rstb"));
    EXPECT_EQ(document->find("rows")->items[1].find("trace")->text,
              traces + "/ranks-4-layers-8-batches-2.rstb");
}

// Several programs side by side: 1F1B, interleaved 1F1B and zero-bubble over micro-batches at
// p = 4 under uniform costs. Each row names its program, and its measured bubble (a share of the
// ideal time) is the papers' formula: (p-1)/m, (p-1)/(v*m) with v = 2, and ZB-H1's
// (p-1)(F+B-W)/(m(F+B+W)) = (p-1)/(3m) when F, B and W each cost 1.
TEST_F(Sweep, ComparesPipelineSchedulesWhoseBubblesAreThePapersFormulas)
{
    const std::vector<std::string> programs = {solution("92-one_f_one_b") + ":one_f_one_b",
                                               solution("95-interleaved_1f1b"),
                                               solution("96-zero_bubble") + ":zero_bubble"};
    std::vector<std::string> args = {"sweep"};
    args.insert(args.end(), programs.begin(), programs.end());
    args.insert(args.end(), {"--ranks", "4", "--layers", "8", "--batches", "4,8,12,16", "--cost",
                             "uniform", "--jsonl"});
    const CliResult result = runCli(args, m_dir);
    ASSERT_EQ(result.exitCode, cli::kSolved) << result.err;
    const std::vector<io::SweepRow> rows = jsonLines(result.out);
    ASSERT_EQ(rows.size(), 12U) << result.out;
    const struct {
        const char *schedule;
        double (*formula)(double p, double m);
    } expected[] = {
        {"1f1b",
         [](double p, double m) {
             return (p - 1) / m;
         }},
        {"interleaved_1f1b",
         [](double p, double m) {
             return (p - 1) / (2 * m);
         }},
        {"zero_bubble",
         [](double p, double m) {
             return (p - 1) * (1 + 1 - 1) / (m * 3);
         }},
    };
    for (const io::SweepRow &row : rows) {
        const std::size_t program = std::size_t(row.index) / 4;
        const int m = 4 * (row.index % 4 + 1);
        EXPECT_EQ(row.program, programs[program]);
        EXPECT_EQ(row.point.batches, m);
        EXPECT_EQ(row.status, "solved") << row.error;
        ASSERT_TRUE(row.pipeline) << row.index;
        EXPECT_EQ(row.pipeline->schedule, expected[program].schedule);
        EXPECT_EQ(row.pipeline->stages, 4);
        EXPECT_EQ(row.pipeline->microBatches, m);
        EXPECT_EQ(row.pipeline->virtualStages, program == 1 ? 2 : 1);
        EXPECT_NEAR(row.pipeline->formula, expected[program].formula(4, m), 1e-9) << row.index;
        EXPECT_NEAR(row.pipeline->measured, row.pipeline->formula, 1e-9) << row.index;
    }

    // The table names each program by its function and puts the bubble beside the formula.
    args.pop_back();
    const CliResult table = runCli(args, m_dir);
    ASSERT_EQ(table.exitCode, cli::kSolved) << table.err;
    EXPECT_TRUE(contains(table.out, "PROGRAM")) << table.out;
    EXPECT_TRUE(contains(table.out, "BUBBLE")) << table.out;
    // 95 is given without a function: named by its file as given.
    EXPECT_TRUE(contains(table.out, "95-interleaved_1f1b/solution.py ")) << table.out;
    EXPECT_TRUE(contains(table.out, "zero_bubble ")) << table.out;
    EXPECT_TRUE(contains(table.out, "18.8% (p-1)/(v*m)")) << table.out; // 3/16 at m = 8
}

TEST_F(Sweep, RefusesBadListsABandwidthWithoutACostModelAndAnUnknownFunction)
{
    const std::string file = solution("30-ddp");
    const struct {
        std::vector<std::string> args;
        const char *says;
    } cases[] = {
        {{"sweep", file, "--ranks", "2,,4"}, "--ranks takes whole numbers"},
        {{"sweep", file, "--ranks", "0"}, "from 1 to 16384"},
        {{"sweep", file, "--batches", "4,"}, "--batches takes whole numbers"},
        {{"sweep", file, "--bandwidth", "100"}, "--bandwidth needs a real-scale cost model"},
        {{"sweep", file, "--cost", "gpt2-small-8xa100", "--bandwidth", "-3"},
         "--bandwidth takes gigabytes a second"},
        {{"sweep", file, "--cost", "no-such-preset"}, "no-such-preset"},
        {{"sweep", file, "--csv", "--json"}, "one format"},
        {{"sweep", file, "--timeout", "0"}, "--timeout must be more than 0"},
        {{"sweep", file, "--function", "nosuch", "--ranks", "1,2"}, "nosuch"},
        {{"sweep", (m_dir.path() / "missing.py").string()}, "missing.py"},
        {{"sweep", file, file + ":no-such"}, "after the colon comes a function name"},
        {{"sweep", file, file + ":nosuch"}, ":nosuch: "},
        {{"run", file, "--bandwidth", "100"}, "--bandwidth needs a real-scale cost model"},
    };
    for (const auto &c : cases) {
        const CliResult result = runCli(c.args, m_dir);
        EXPECT_EQ(result.exitCode, cli::kUsage) << c.args[2] << "\n" << result.err;
        EXPECT_TRUE(contains(result.err, c.says)) << result.err;
    }
}

} // namespace
} // namespace rankstep::lessontests
