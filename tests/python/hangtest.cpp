// SPDX-License-Identifier: MIT
// What a run that left ranks waiting tells about itself (explain::explainHang), on real runs of
// learner code: the broadcast lesson's untouched starter, the DDP solution with rank 2 skipping
// its allreduce, two ranks that both receive first. Each rank is stopped by an error, waiting,
// finished or never started, and a waiting rank waits only on ranks that keep it waiting.
#include "pythontestsupport.h"

#include "core/explain/hangexplain.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::pythontests {
namespace {

using explain::HangKind;
using explain::Standing;

core::Trace runSource(const std::string &source, const std::string &function)
{
    python::Runtime runtime;
    return runtime.run(makeRequest(source, function, 4, 2, 4)).trace;
}

// The DDP solution with `if model.rank != 2:` around its allreduce, as a learner would try it.
std::string ddpWithRankTwoSkippingTheAllreduce()
{
    std::string source = readSourceFile("lessons/30-ddp/solution.py");
    const std::string call =
        "        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)\n";
    const auto at = source.find(call);
    EXPECT_NE(at, std::string::npos) << "the DDP solution's allreduce moved";
    if (at != std::string::npos)
        source.replace(at, call.size(), "        if model.rank != 2:\n    " + call);
    return source;
}

TEST(HangStory, TheBroadcastStarterIsStoppedByRankOnesErrorNotByADeadlock)
{
    const std::string source = readSourceFile("lessons/27-broadcast/starter.py");
    const core::Trace trace = runSource(source, "broadcast_start");
    const int forward = lineOf(source, "= model.forward(layer, activations[layer]");
    const auto hang = explain::explainHang(trace);
    ASSERT_TRUE(hang);
    EXPECT_EQ(hang->kind, HangKind::Error);
    EXPECT_EQ(hang->rank, 1);
    EXPECT_EQ(hang->line, forward);
    EXPECT_EQ(hang->call, "allreduce(layer 0)");
    EXPECT_NE(hang->error.find("KeyError"), std::string::npos) << hang->error;
    ASSERT_EQ(hang->ranks.size(), 4U);
    EXPECT_EQ(hang->ranks[0].standing, Standing::Waiting);
    EXPECT_EQ(hang->ranks[0].line, lineOf(source, "await model.allreduce"));
    // Rank 0 waits on rank 1 only: ranks 2 and 3 never had a turn, the error ended the run.
    EXPECT_EQ(hang->ranks[0].waitsOn, std::vector<int>{1});
    EXPECT_EQ(hang->ranks[1].standing, Standing::Stopped);
    EXPECT_EQ(hang->ranks[1].line, forward);
    EXPECT_TRUE(hang->ranks[1].waitsOn.empty());
    for (const std::size_t r : {2U, 3U}) {
        EXPECT_EQ(hang->ranks[r].standing, Standing::NotStarted) << "rank " << r;
        EXPECT_TRUE(hang->ranks[r].waitsOn.empty()) << "rank " << r;
    }
    // The results' lines say what the picture draws: it said "for ranks 1, 2, 3", as if ranks 2
    // and 3 were waited on like rank 1.
    ASSERT_TRUE(trace.error);
    EXPECT_NE(trace.error->message.find(
                  "rank 0 waits in allreduce(layer 0) at line " +
                  std::to_string(lineOf(source, "await model.allreduce")) +
                  " for ranks 1 (stopped by an error), 2 (never started), 3 (never started)"),
              std::string::npos)
        << trace.error->message;
}

TEST(HangStory, RankTwoSkippingTheAllreduceStopsAtItsUpdateWhileTheOthersWaitOnIt)
{
    const std::string source = ddpWithRankTwoSkippingTheAllreduce();
    const core::Trace trace = runSource(source, "ddp");
    const auto hang = explain::explainHang(trace);
    ASSERT_TRUE(hang);
    EXPECT_EQ(hang->kind, HangKind::Error);
    EXPECT_EQ(hang->rank, 2);
    EXPECT_EQ(hang->line, lineOf(source, "= model.update("));
    EXPECT_EQ(hang->call, "allreduce(layer 0)");
    ASSERT_EQ(hang->ranks.size(), 4U);
    for (const std::size_t r : {0U, 1U}) {
        EXPECT_EQ(hang->ranks[r].standing, Standing::Waiting) << "rank " << r;
        EXPECT_EQ(hang->ranks[r].call, "allreduce(layer 0)") << "rank " << r;
        EXPECT_EQ(hang->ranks[r].waitsOn, std::vector<int>{2}) << "rank " << r;
    }
    EXPECT_EQ(hang->ranks[2].standing, Standing::Stopped);
    EXPECT_EQ(hang->ranks[3].standing, Standing::NotStarted);
    ASSERT_TRUE(trace.error);
    for (const char *waiter : {"rank 0", "rank 1"})
        EXPECT_NE(trace.error->message.find(
                      std::string(waiter) + " waits in allreduce(layer 0) at line " +
                      std::to_string(lineOf(source, "await model.allreduce")) +
                      " for ranks 2 (stopped by an error), 3 (never started)"),
                  std::string::npos)
            << trace.error->message;
}

TEST(HangStory, ARankThatSkipsTheWholeStepFinishesWithoutCallingTheAllreduce)
{
    std::string source = readSourceFile("lessons/30-ddp/solution.py");
    const std::string loop =
        "    for layer in range(model.LAYERS):\n        grad_weights[layer] = await";
    const auto at = source.find(loop);
    ASSERT_NE(at, std::string::npos);
    source.insert(at, "    if model.rank == 2:\n        return model\n");
    const core::Trace trace = runSource(source, "ddp");
    const auto hang = explain::explainHang(trace);
    ASSERT_TRUE(hang);
    EXPECT_EQ(hang->kind, HangKind::MissedCall);
    EXPECT_EQ(hang->rank, 2);
    EXPECT_EQ(hang->call, "allreduce(layer 0)");
    EXPECT_EQ(hang->ranks[2].standing, Standing::Finished);
    EXPECT_EQ(hang->ranks[2].call, "allreduce(layer 0)");
    for (const std::size_t r : {0U, 1U, 3U}) {
        EXPECT_EQ(hang->ranks[r].standing, Standing::Waiting) << "rank " << r;
        EXPECT_EQ(hang->ranks[r].waitsOn, std::vector<int>{2}) << "rank " << r;
    }
    EXPECT_TRUE(hang->cycle.empty());
}

TEST(HangStory, TwoRanksThatBothReceiveFirstAreADeadlockCycle)
{
    const std::string source = R"py(
async def puzzle(model):
    if model.rank < 2:
        got = await model.receive(1 - model.rank)
        await model.pass_to(1 - model.rank, got)
)py";
    const core::Trace trace = runSource(source, "puzzle");
    const auto hang = explain::explainHang(trace);
    ASSERT_TRUE(hang);
    EXPECT_EQ(hang->kind, HangKind::Deadlock);
    EXPECT_EQ(hang->cycle, (std::vector<int>{0, 1}));
    EXPECT_EQ(hang->ranks[0].waitsOn, std::vector<int>{1});
    EXPECT_EQ(hang->ranks[1].waitsOn, std::vector<int>{0});
    EXPECT_EQ(hang->ranks[2].standing, Standing::Finished);
    EXPECT_EQ(hang->ranks[3].standing, Standing::Finished);
}

// A rank waiting in a receive when another rank's error ends the run is waiting, not cut short.
TEST(HangStory, ARankInAReceiveWhenAnErrorEndsTheRunIsWaitingOnItsSender)
{
    const std::string source = R"py(
async def puzzle(model):
    if model.rank == 0:
        await model.allreduce(model.fake_grad(0, [0]), 0)
    elif model.rank == 1:
        await model.receive(2)  # receive-here
    elif model.rank == 2:
        raise ValueError("rank two gives up")  # raise-here
)py";
    const core::Trace trace = runSource(source, "puzzle");
    const auto hang = explain::explainHang(trace);
    ASSERT_TRUE(hang) << (trace.error ? trace.error->message : std::string("no error"));
    EXPECT_EQ(hang->kind, HangKind::Error);
    EXPECT_EQ(hang->rank, 2);
    EXPECT_EQ(hang->line, lineOf(source, "# raise-here"));
    EXPECT_EQ(hang->ranks[1].standing, Standing::Waiting);
    EXPECT_EQ(hang->ranks[1].call, "receive from rank 2");
    EXPECT_EQ(hang->ranks[1].line, lineOf(source, "# receive-here"));
    EXPECT_EQ(hang->ranks[1].waitsOn, std::vector<int>{2});
    EXPECT_EQ(hang->ranks[0].waitsOn, (std::vector<int>{1, 2}));
    EXPECT_EQ(hang->ranks[3].standing, Standing::NotStarted);
}

} // namespace
} // namespace rankstep::pythontests
