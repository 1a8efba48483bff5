// SPDX-License-Identifier: MIT
// The runner's report to its supervisor (cli/runchannel.h): only a whole report that carries the
// supervisor's token counts; anything else in the channel voids the run.
#include "cli/runchannel.h"

#include <gtest/gtest.h>

namespace rankstep::cli {
namespace {

RunnerReport solvedReport()
{
    return {0, {}, {std::string("RSTB\0\x01", 6), "RSTB"}, {}};
}

TEST(RunChannel, ReadsBackTheExitCodeAndTracesItSent)
{
    const ChannelToken token = newChannelToken();
    const ChannelReading reading = decodeReport(token, encodeReport(token, solvedReport()));

    ASSERT_TRUE(reading.report);
    EXPECT_FALSE(reading.tampered);
    EXPECT_EQ(reading.report->exitCode, 0);
    ASSERT_EQ(reading.report->traces.size(), 2U);
    EXPECT_EQ(reading.report->traces[0], std::string("RSTB\0\x01", 6));
}

// The runner's traces go in pieces; the supervisor reads each back as one.
TEST(RunChannel, ReadsBackATraceSentInPiecesAsOne)
{
    const ChannelToken token = newChannelToken();
    RunnerReport report = solvedReport();
    report.tracePieces = {{"RSTB", std::string("\0\x01", 2), "", "tail"}};

    const ChannelReading reading = decodeReport(token, encodeReport(token, report));

    ASSERT_TRUE(reading.report);
    EXPECT_FALSE(reading.tampered);
    ASSERT_EQ(reading.report->traces.size(), 3U);
    EXPECT_EQ(reading.report->traces[1], "RSTB");
    EXPECT_EQ(reading.report->traces[2], std::string("RSTB\0\x01tail", 10));
}

TEST(RunChannel, ReadsBackAUsageErrorWithItsSentence)
{
    const ChannelToken token = newChannelToken();
    const ChannelReading reading =
        decodeReport(token, encodeReport(token, {64, "say which function", {}, {}}));

    ASSERT_TRUE(reading.report);
    EXPECT_EQ(reading.report->exitCode, 64);
    EXPECT_EQ(reading.report->message, "say which function");
    EXPECT_TRUE(reading.report->traces.empty());
}

// The request carries the run's configuration, cost model included, and its limits.
TEST(RunChannel, RequestReadsBackEveryJobWithItsConfiguration)
{
    RunnerRequest request;
    request.token = newChannelToken();
    request.runFolder = "/tmp/Rankstep-run-1-abc";
    request.memoryLimitMiB = 512;
    RunnerJob job;
    job.request.source = "async def ddp(model):\n    pass\n";
    job.request.fileName = "ddp.py";
    job.request.function = "ddp";
    job.request.config.ranks = 4;
    job.request.config.layers = 3;
    job.request.config.batches = 8;
    job.request.maxOperations = 123;
    job.request.timeLimitSeconds = 2.5;
    job.request.echoOutput = true;
    RunnerJob second = job;
    second.chooseFunction = true;
    second.request.echoOutput = false;
    request.jobs = {job, second};

    const auto read = decodeRequest(encodeRequest(request));

    ASSERT_TRUE(read);
    EXPECT_EQ(read->token, request.token);
    EXPECT_EQ(read->runFolder, request.runFolder);
    EXPECT_EQ(read->memoryLimitMiB, 512);
    ASSERT_EQ(read->jobs.size(), 2U);
    EXPECT_EQ(read->jobs[0].request.source, job.request.source);
    EXPECT_EQ(read->jobs[0].request.config.ranks, 4);
    EXPECT_EQ(read->jobs[0].request.config.layers, 3);
    EXPECT_EQ(read->jobs[0].request.config.batches, 8);
    EXPECT_EQ(read->jobs[0].request.maxOperations, 123);
    EXPECT_EQ(read->jobs[0].request.timeLimitSeconds, 2.5);
    EXPECT_TRUE(read->jobs[0].request.echoOutput);
    EXPECT_FALSE(read->jobs[0].chooseFunction);
    EXPECT_TRUE(read->jobs[1].chooseFunction);
    EXPECT_FALSE(read->jobs[1].request.echoOutput);
}

TEST(RunChannel, CutRequestIsNotAccepted)
{
    RunnerRequest request;
    request.runFolder = "/tmp/x";
    request.jobs.resize(1);
    const std::string whole = encodeRequest(request);
    ASSERT_TRUE(decodeRequest(whole));
    for (std::size_t size = 0; size < whole.size(); size += 7)
        EXPECT_FALSE(decodeRequest(whole.substr(0, size))) << size;
}

TEST(RunChannel, DrawsADifferentTokenEachTime)
{
    EXPECT_NE(newChannelToken(), newChannelToken());
}

TEST(RunChannel, ByteBeforeTheReportVoidsTheRun)
{
    const ChannelToken token = newChannelToken();
    std::string bytes = encodeReport(token, solvedReport());
    bytes.insert(bytes.begin(), '\0');
    const ChannelReading reading = decodeReport(token, bytes);

    EXPECT_FALSE(reading.report);
    EXPECT_TRUE(reading.tampered);
}

TEST(RunChannel, BytesAfterTheReportVoidTheRun)
{
    const ChannelToken token = newChannelToken();
    std::string bytes = encodeReport(token, solvedReport());
    bytes.push_back('x');
    const ChannelReading reading = decodeReport(token, bytes);

    EXPECT_FALSE(reading.report);
    EXPECT_TRUE(reading.tampered);
}

TEST(RunChannel, ReportUnderAnotherTokenIsNotTheRunners)
{
    const ChannelReading reading =
        decodeReport(newChannelToken(), encodeReport(newChannelToken(), solvedReport()));

    EXPECT_FALSE(reading.report);
    EXPECT_TRUE(reading.tampered);
}

TEST(RunChannel, CutReportIsNotAccepted)
{
    const ChannelToken token = newChannelToken();
    const std::string whole = encodeReport(token, solvedReport());
    for (std::size_t size = 1; size < whole.size(); ++size) {
        const ChannelReading reading = decodeReport(token, whole.substr(0, size));
        EXPECT_FALSE(reading.report) << size;
        EXPECT_TRUE(reading.tampered) << size;
    }
}

TEST(RunChannel, NothingSentIsNeitherAReportNorTampering)
{
    const ChannelReading reading = decodeReport(newChannelToken(), {});

    EXPECT_FALSE(reading.report);
    EXPECT_FALSE(reading.tampered);
}

} // namespace
} // namespace rankstep::cli
