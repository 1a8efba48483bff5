// SPDX-License-Identifier: MIT
// The four_d lesson: its solution beyond the lesson's own size (uneven stages, as Llama 3's 126
// layers on 16 stages), and the plain messages of its typical mistakes.
#include "cli/runreport.h"
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rankstep::lessontests {
namespace {

using cli::ExitCode;

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

std::string solution()
{
    return readText(lessonsRoot() + "/99-four_d/solution.py");
}

// The lesson's solution with `from` replaced by `to` everywhere (which must occur).
std::string solutionWith(const std::string &from, const std::string &to)
{
    std::string source = solution();
    EXPECT_TRUE(contains(source, from)) << from;
    for (std::size_t at = source.find(from); at != std::string::npos;
         at = source.find(from, at + to.size()))
        source.replace(at, from.size(), to);
    return source;
}

class FourD : public ::testing::Test
{
protected:
    CliResult lesson(const std::string &source)
    {
        const std::string file = m_dir.write("four_d.py", source);
        return runCli({"lesson", "four_d", file, "--lessons", lessonsRoot(), "--quiet"}, m_dir);
    }
    TempDir m_dir;
};

TEST_F(FourD, TrainsUnevenStagesWithFewerLayersFirstAndLast)
{
    // 14 layers on 4 stages: 3, 4, 4 and 3, as 126 on 16 are 7, 8, ..., 8, 7.
    const std::string file = m_dir.write("four_d.py", solution());
    const CliResult result =
        runCli({"run", file, "--function", "four_d", "--ranks", "32", "--layers", "14", "--batches",
                "16", "--pipeline", "4", "--tensor", "2"},
               m_dir);
    EXPECT_EQ(result.exitCode, ExitCode::kSolved) << result.out << result.err;
    EXPECT_TRUE(contains(result.out, "Correct!")) << result.out;
}

TEST_F(FourD, AnAllreduceWithoutItsGroupIsNamedAMismatch)
{
    const CliResult result = lesson(solutionWith(", group=data)", ")"));
    EXPECT_EQ(result.exitCode, ExitCode::kHang) << result.out << result.err;
    EXPECT_TRUE(contains(result.out + result.err, "Collective mismatch: ranks"))
        << result.out << result.err;
}

TEST_F(FourD, LanesThatTrainTheSameBatchesAreToldWhichAreMissing)
{
    const CliResult result = lesson(solutionWith("[lane * micro + mb]", "[mb]"));
    EXPECT_NE(result.exitCode, ExitCode::kSolved);
    EXPECT_TRUE(contains(result.out + result.err,
                         "(batches 4-7 are missing; the ranks' own "
                         "batches must together cover every batch)"))
        << result.out << result.err;
}

TEST_F(FourD, PassingToTheNextRankInsteadOfTheNextStageSaysWhoWaitsOnWhom)
{
    // With tensor 2, rank + 1 is the tensor neighbour, not the next stage.
    const CliResult result = lesson(solutionWith("pipeline[stage + 1]", "model.rank + 1"));
    EXPECT_EQ(result.exitCode, ExitCode::kHang) << result.out << result.err;
    EXPECT_TRUE(contains(result.out + result.err, "rank 0 waits in receive from rank 1"))
        << result.out << result.err;
}

} // namespace
} // namespace rankstep::lessontests
