// SPDX-License-Identifier: MIT
// The runner's report to its supervisor (cli/runchannel.h): only a whole report that carries the
// supervisor's token counts; anything else in the channel voids the run.
#include "cli/runchannel.h"

#include <gtest/gtest.h>

namespace rankstep::cli {
namespace {

RunReport solvedReport()
{
    return {0,
            {{"trace.rstb", std::string("RSTB\0\x01", 6)}, {"out.json", "{}"}},
            FigureJob{{{"png", "out.png"}, {"at", "12"}}, "ddp (a.py)", 1835008, "RSTB"}};
}

TEST(RunChannel, ReadsBackTheExitCodeAndFilesItSent)
{
    const ChannelToken token = newChannelToken();
    const ChannelReading reading =
        decodeReport(token, encodeReport(token, {4, {{"a", "bc"}}, std::nullopt}));

    ASSERT_TRUE(reading.report);
    EXPECT_FALSE(reading.tampered);
    EXPECT_EQ(reading.report->exitCode, 4);
    ASSERT_EQ(reading.report->files.size(), 1U);
    EXPECT_EQ(reading.report->files[0].first, "a");
    EXPECT_EQ(reading.report->files[0].second, "bc");
}

TEST(RunChannel, ReadsBackTheFiguresToDraw)
{
    const ChannelToken token = newChannelToken();
    const ChannelReading reading = decodeReport(token, encodeReport(token, solvedReport()));

    ASSERT_TRUE(reading.report && reading.report->figures);
    const FigureJob &job = *reading.report->figures;
    ASSERT_EQ(job.options.size(), 2U);
    EXPECT_EQ(job.options[1].first, "at");
    EXPECT_EQ(job.options[1].second, "12");
    EXPECT_EQ(job.title, "ddp (a.py)");
    EXPECT_EQ(job.memoryTarget, 1835008);
    EXPECT_EQ(job.trace, "RSTB");
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
