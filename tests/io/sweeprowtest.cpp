// SPDX-License-Identifier: MIT
// The rows of a sweep (core/io/sweeprow.h): what the CLI writes the app reads back exactly, in
// steps and in seconds; a damaged row names its field; the Pareto front of Timesteps against
// peak memory.
#include "core/io/sweeprow.h"

#include <gtest/gtest.h>

namespace rankstep::io {
namespace {

SweepRow finished(int index, std::int64_t timeTicks, std::int64_t memory)
{
    SweepRow row;
    row.index = index;
    row.point = {4, 8, 1 + index, 0};
    row.status = "solved";
    row.solved = true;
    row.timesteps = core::SimTime::fromTicks(timeTicks);
    row.endTime = core::SimTime::fromTicks(timeTicks + 500);
    row.peakMemory = memory;
    row.peakRank = 3;
    row.peakTime = core::SimTime::fromTicks(timeTicks / 2);
    row.idleShare = 0.428571;
    row.wallSeconds = 0.25;
    return row;
}

TEST(SweepRows, ReadBackExactlyInStepsAndInSeconds)
{
    for (const bool seconds : {false, true}) {
        SweepRow row = finished(7, 33300, 2883584);
        row.seconds = seconds;
        row.point.bandwidth = seconds ? 12.5 : 0;
        row.trace = "/tmp/a \"b\".rstb";
        const std::string line = sweepRowToJson(row);
        EXPECT_EQ(line.find('\n'), std::string::npos) << "one row, one line";
        const auto back = sweepRowFromJson(line);
        ASSERT_TRUE(back) << back.error().message << "\n" << line;
        EXPECT_EQ(back->index, 7);
        EXPECT_EQ(back->point, row.point);
        EXPECT_EQ(back->seconds, seconds);
        EXPECT_EQ(back->timesteps, row.timesteps) << line;
        EXPECT_EQ(back->endTime, row.endTime);
        EXPECT_EQ(back->peakMemory, row.peakMemory);
        EXPECT_EQ(back->peakRank, 3);
        EXPECT_EQ(back->peakTime, row.peakTime);
        EXPECT_NEAR(*back->idleShare, 0.428571, 1e-9);
        EXPECT_EQ(back->trace, row.trace);
        EXPECT_EQ(formatSweepTime(*back, *back->timesteps), seconds ? "0.033 s" : "33.3");
    }
}

TEST(SweepRows, AnUnfinishedRowHasNoFiguresAndKeepsItsError)
{
    SweepRow row;
    row.index = 2;
    row.status = "error";
    row.error = "rank 1, line 8: update(layer 0): \"batches 2 and 3 are missing\"";
    const auto back = sweepRowFromJson(sweepRowToJson(row));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_FALSE(back->finished());
    EXPECT_FALSE(back->peakMemory);
    EXPECT_FALSE(back->idleShare);
    EXPECT_EQ(back->error, row.error);
}

// A sweep comparing pipeline schedules names each row's program and carries its bubble beside
// the formula; a row without them (one program, an older sweep) reads back without them.
TEST(SweepRows, AComparedRowKeepsItsProgramAndPipelineBubble)
{
    SweepRow row = finished(3, 50500, 3145728);
    row.program = "/lessons/95-interleaved_1f1b/solution.py:interleaved_1f1b";
    row.pipeline = SweepPipeline{"interleaved_1f1b", 4, 8, 2, 0.1875, 0.1875, "(p-1)/(v*m)"};
    const std::string line = sweepRowToJson(row);
    const auto back = sweepRowFromJson(line);
    ASSERT_TRUE(back) << back.error().message << "\n" << line;
    EXPECT_EQ(back->program, row.program);
    ASSERT_TRUE(back->pipeline) << line;
    EXPECT_EQ(*back->pipeline, *row.pipeline) << line;

    const auto plain = sweepRowFromJson(sweepRowToJson(finished(0, 1000, 10)));
    ASSERT_TRUE(plain);
    EXPECT_TRUE(plain->program.empty());
    EXPECT_FALSE(plain->pipeline);
    std::string old = sweepRowToJson(finished(0, 1000, 10));
    for (const std::string key : {"\"program\": null, ", ", \"pipeline\": null"})
        old.erase(old.find(key), key.size());
    EXPECT_TRUE(sweepRowFromJson(old)) << old;

    std::string damaged = line;
    const std::string measured = "\"bubble_measured\": 0.1875";
    damaged.replace(damaged.find(measured), measured.size(), "\"bubble_measured\": -1");
    const auto refused = sweepRowFromJson(damaged);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("bubble_measured"), std::string::npos)
        << refused.error().message;
}

TEST(SweepRows, ADamagedRowNamesItsField)
{
    std::string line = sweepRowToJson(finished(0, 1000, 10));
    const std::string units = "\"units\": \"steps\"";
    line.replace(line.find(units), units.size(), "\"units\": \"hours\"");
    const auto back = sweepRowFromJson(line);
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().message.find("units"), std::string::npos) << back.error().message;
    EXPECT_FALSE(sweepRowFromJson("{\"index\": 0"));
    EXPECT_FALSE(sweepRowFromJson("{\"index\": -1}"));
}

// A laid-out run at real scale: the layout and the device's memory read back, a peak on a rank
// beyond 4095 too (the Llama 3 layout has 16,384), and a row of a sweep before layouts reads as
// tensor 1, pipeline 1 without a device.
TEST(SweepRows, ALayoutARankBeyond4095AndTheDevicesMemoryReadBack)
{
    SweepRow row = finished(0, 1000, 90'000'000'000);
    row.seconds = true;
    row.point = {16384, 126, 2048, 0, 8, 16};
    row.peakRank = 16383;
    row.deviceMemory = 80'000'000'000;
    const std::string line = sweepRowToJson(row);
    const auto back = sweepRowFromJson(line);
    ASSERT_TRUE(back) << back.error().message << "\n" << line;
    EXPECT_EQ(back->point, row.point);
    EXPECT_EQ(back->peakRank, 16383);
    EXPECT_EQ(back->deviceMemory, row.deviceMemory);
    EXPECT_TRUE(back->overDeviceMemory());

    SweepRow old = finished(1, 1000, 4096);
    old.deviceMemory.reset();
    std::string oldLine = sweepRowToJson(old);
    const std::size_t at = oldLine.find("\"layout\": {");
    ASSERT_NE(at, std::string::npos) << oldLine;
    oldLine.erase(at, oldLine.find("}, ", at) + 3 - at);
    const auto oldBack = sweepRowFromJson(oldLine);
    ASSERT_TRUE(oldBack) << oldBack.error().message << "\n" << oldLine;
    EXPECT_EQ(oldBack->point.tensor, 1);
    EXPECT_EQ(oldBack->point.pipeline, 1);
    EXPECT_FALSE(oldBack->deviceMemory);
}

// (time, memory): A (10, 100), B (20, 50), C (15, 120) is worse than A in both, D (10, 100)
// ties A (both stay), E did not finish.
TEST(SweepRows, TheParetoFrontKeepsWhatNothingBeats)
{
    std::vector<SweepRow> rows = {finished(0, 10000, 100), finished(1, 20000, 50),
                                  finished(2, 15000, 120), finished(3, 10000, 100)};
    SweepRow failed;
    failed.index = 4;
    failed.status = "error";
    rows.push_back(failed);
    EXPECT_EQ(paretoFront(rows), (std::vector<bool>{true, true, false, true, false}));
    rows[1].peakMemory = 100; // now as big as A and slower: beaten
    EXPECT_EQ(paretoFront(rows), (std::vector<bool>{true, false, false, true, false}));
}

} // namespace
} // namespace rankstep::io
