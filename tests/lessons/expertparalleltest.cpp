// SPDX-License-Identifier: MIT
// The expert_parallel lesson's typical mistakes and their plain messages: a rank that skips the
// combine all-to-all, every rank that skips it (the loss at the expert's rank), an all-to-all over
// a group that is not the experts', the split backward of an expert without its weight.
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

// `source` with `from` replaced by `to` (which must occur, once).
std::string replaced(std::string source, const std::string &from, const std::string &to)
{
    const std::size_t at = source.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    EXPECT_EQ(source.find(from, at + 1), std::string::npos) << from;
    if (at != std::string::npos)
        source.replace(at, from.size(), to);
    return source;
}

// The lesson's solution with `from` replaced by `to`.
std::string solutionWith(const std::string &from, const std::string &to)
{
    return replaced(readText(lessonsRoot() + "/99-expert_parallel/solution.py"), from, to);
}

const std::string kCombine =
    "    activations[2] = await model.alltoall(to_homes(activations[2]), 1, group=experts)\n";

class ExpertParallel : public ::testing::Test
{
protected:
    CliResult lesson(const std::string &source)
    {
        const std::string file = m_dir.write("expert_parallel.py", source);
        return runCli({"lesson", "expert_parallel", file, "--lessons", lessonsRoot(), "--quiet"},
                      m_dir);
    }
    TempDir m_dir;
};

TEST_F(ExpertParallel, ARankThatSkipsTheCombineIsToldToCombineBeforeItsLoss)
{
    // Rank 1 skips it and takes its loss on the tokens its expert computed, rank 0's batch 1
    // among them, while rank 0 waits in the combine.
    const CliResult result = lesson(
        solutionWith(kCombine, "    if model.rank == 0:  # only rank 0 combines\n    " + kCombine));
    EXPECT_NE(result.exitCode, ExitCode::kSolved) << result.out << result.err;
    const std::string said = result.out + result.err;
    EXPECT_TRUE(contains(said, "Error (rank 1, line ")) << said;
    EXPECT_TRUE(contains(said,
                         "loss needs the tokens of batch 1 back on rank 0: they are still "
                         "with expert 1 on rank 1; combine them with alltoall first"))
        << said;
    // Its own error stopped it: it is not said to have stopped without calling the all-to-all.
    EXPECT_FALSE(contains(said, "without calling alltoall")) << said;
}

TEST_F(ExpertParallel, ALossTakenWhereTheExpertLeftTheTokensIsRefused)
{
    // A learner's pass: no combine in the forward, so the loss sits at the expert's rank, and no
    // dispatch of its gradients, which are there already. Two all-to-alls fewer made it fast
    // enough to pass; a real layer's tokens return to their sequence before the next layer.
    const CliResult result = lesson(
        replaced(solutionWith(kCombine, ""),
                 "    grad_activations[2] = await model.alltoall(to_experts(grad_activations[2]), "
                 "1, group=experts)\n",
                 ""));
    EXPECT_NE(result.exitCode, ExitCode::kSolved) << result.out << result.err;
    const std::string said = result.out + result.err;
    // Rank 0 holds batch 2, rank 1's own token, with expert 0 (and rank 1 batch 1 with expert 1).
    EXPECT_TRUE(contains(said,
                         "loss needs the tokens of batch 2 back on rank 1: they are still "
                         "with expert 0 on rank 0; combine them with alltoall first") ||
                contains(said,
                         "loss needs the tokens of batch 1 back on rank 0: they are still "
                         "with expert 1 on rank 1; combine them with alltoall first"))
        << said;
}

TEST_F(ExpertParallel, AnAllToAllOverAnotherGroupNamesTheExpertGroup)
{
    const CliResult result =
        lesson(solutionWith("activations[1] = await model.alltoall(to_experts(activations[1]), 1, "
                            "group=experts)",
                            "activations[1] = await model.alltoall(to_experts(activations[1]), 1, "
                            "group=model.group(\"tensor\"))"));
    EXPECT_NE(result.exitCode, ExitCode::kSolved) << result.out << result.err;
    const std::string said = result.out + result.err;
    EXPECT_TRUE(contains(said, "give one piece (or None) for each of the 1 ranks of the group"))
        << said;
    EXPECT_TRUE(contains(said,
                         "but 2 were given; an expert's tokens travel over "
                         "model.group(\"expert\"), for rank "))
        << said;
}

TEST_F(ExpertParallel, AnExpertsSplitBackwardWithoutItsWeightSaysToGiveIt)
{
    const CliResult result =
        lesson(solutionWith("    grad_weights[1], grad_activations[1] = model.backward(\n"
                            "        1, activations[1], grad_activations[2], weights[1]\n"
                            "    )\n",
                            "    grad_activations[1] = model.backward_input(\n"
                            "        1, activations[1], grad_activations[2], weights[1]\n"
                            "    )\n"
                            "    grad_weights[1] = model.backward_weight(\n"
                            "        1, activations[1], grad_activations[2]\n"
                            "    )\n"));
    EXPECT_NE(result.exitCode, ExitCode::kSolved) << result.out << result.err;
    EXPECT_TRUE(
        contains(result.out + result.err, "and so does backward_weight when given that weight"))
        << result.out << result.err;
}

} // namespace
} // namespace rankstep::lessontests
