// SPDX-License-Identifier: MIT
// Runs in which no rank can go on: deadlocks and collective mismatches are explained, naming
// every rank, what it waits for and on whom.
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

namespace rankstep::testing {
namespace {

using core::ErrorKind;
using core::Model;
using core::RankTask;
using core::RunStatus;

std::string lineText(int line)
{
    return " at line " + std::to_string(line);
}

int g_receiveLine = 0;

RankTask bothReceiveFirst(Model &m)
{
    g_receiveLine = __LINE__ + 1;
    const core::Object got = co_await m.receive();
    co_await m.passTo(1 - m.rank, got);
}

TEST(Deadlock, ListsEveryBlockedRankWithWhatAndWhomItWaitsFor)
{
    const core::Trace trace = runProgram(makeConfig(2, 1, 2), bothReceiveFirst);
    EXPECT_EQ(trace.status, RunStatus::Deadlock);
    ASSERT_TRUE(trace.error);
    EXPECT_TRUE(isError(*trace.error, ErrorKind::Deadlock, 0, g_receiveLine, "Deadlock"));
    for (int r = 0; r < 2; ++r) {
        EXPECT_NE(trace.error->message.find(
                      "rank " + std::to_string(r) + " waits in receive from any rank" +
                      lineText(g_receiveLine) + " for rank " + std::to_string(1 - r)),
                  std::string::npos)
            << trace.error->message;
    }
    ASSERT_TRUE(trace.diagnosis);
    EXPECT_EQ(trace.diagnosis->kind, ErrorKind::Deadlock);
    ASSERT_EQ(trace.diagnosis->ranks.size(), 2U);
    for (int r = 0; r < 2; ++r) {
        const core::RankWait &wait = trace.diagnosis->ranks[std::size_t(r)];
        EXPECT_EQ(wait.rank, r);
        EXPECT_FALSE(wait.finished);
        EXPECT_EQ(wait.line, g_receiveLine);
        EXPECT_EQ(wait.waitsFor, "receive from any rank");
        EXPECT_EQ(wait.waitsOn, std::vector<int>{1 - r});
    }
    EXPECT_TRUE(trace.events.empty());
}

RankTask receiveInACycle(Model &m)
{
    co_await m.receive((m.rank + 1) % m.RANKS);
}

TEST(Deadlock, ReceiveFromASourceWaitsOnThatRankOnly)
{
    const core::Trace trace = runProgram(makeConfig(3, 1, 3), receiveInACycle);
    EXPECT_EQ(trace.status, RunStatus::Deadlock);
    ASSERT_TRUE(trace.diagnosis);
    ASSERT_EQ(trace.diagnosis->ranks.size(), 3U);
    EXPECT_EQ(trace.diagnosis->ranks[2].waitsFor, "receive from rank 0");
    EXPECT_EQ(trace.diagnosis->ranks[2].waitsOn, std::vector<int>{0});
    EXPECT_EQ(trace.diagnosis->ranks[0].waitsOn, std::vector<int>{1});
}

int g_allreduceLine = 0;

RankTask lastRankSkipsTheAllreduce(Model &m)
{
    if (m.rank == m.RANKS - 1)
        co_return;
    // Built before the co_await: GCC 12 rejects a braced list inside a co_await expression.
    const core::Object grad = m.fakeGrad(0, {m.rank});
    g_allreduceLine = __LINE__ + 1;
    co_await m.allreduce(grad, 0);
}

TEST(Deadlock, NamesARankThatFinishedWithoutCallingTheCollective)
{
    const core::Trace trace = runProgram(makeConfig(3, 1, 3), lastRankSkipsTheAllreduce);
    EXPECT_EQ(trace.status, RunStatus::Deadlock);
    ASSERT_TRUE(trace.error);
    EXPECT_TRUE(isError(*trace.error, ErrorKind::Deadlock, 0, g_allreduceLine,
                        "rank 0 waits in allreduce(layer 0)" + lineText(g_allreduceLine) +
                            " for rank 2 (finished)"));
    EXPECT_NE(trace.error->message.find("rank 1 waits in allreduce(layer 0)"), std::string::npos);
    EXPECT_NE(trace.error->message.find("rank 2 finished without calling allreduce(layer 0)"),
              std::string::npos)
        << trace.error->message;
    ASSERT_TRUE(trace.diagnosis);
    ASSERT_EQ(trace.diagnosis->ranks.size(), 3U);
    for (int r = 0; r < 2; ++r) {
        EXPECT_EQ(trace.diagnosis->ranks[std::size_t(r)].waitsFor, "allreduce(layer 0)");
        EXPECT_EQ(trace.diagnosis->ranks[std::size_t(r)].waitsOn, std::vector<int>{2});
    }
    EXPECT_TRUE(trace.diagnosis->ranks[2].finished);
    EXPECT_EQ(trace.diagnosis->ranks[2].waitsFor, "");
}

int g_firstCallLine = 0;
int g_secondCallLine = 0;

// Rank 0 allreduces layer 0; rank 1 allgathers layer 0.
RankTask allreduceAgainstAllgather(Model &m)
{
    const core::Object grad = m.fakeGrad(0, {m.rank});
    if (m.rank == 0) {
        g_firstCallLine = __LINE__ + 1;
        co_await m.allreduce(grad, 0);
    } else {
        auto [w, o] = m.loadWeights(0, m.rank, m.RANKS);
        g_secondCallLine = __LINE__ + 1;
        co_await m.allgather(w, 0);
    }
}

// Rank 0 allreduces layer 0; rank 1 allreduces layer 1.
RankTask allreduceOfDifferentLayers(Model &m)
{
    const core::Object grad = m.fakeGrad(m.rank == 0 ? 0 : 1, {m.rank});
    if (m.rank == 0) {
        g_firstCallLine = __LINE__ + 1;
        co_await m.allreduce(grad, 0);
    } else {
        g_secondCallLine = __LINE__ + 1;
        co_await m.allreduce(grad, 1);
    }
}

void expectMismatch(const core::Trace &trace, const std::vector<std::string> &calls)
{
    EXPECT_EQ(trace.status, RunStatus::Deadlock);
    ASSERT_TRUE(trace.error);
    EXPECT_TRUE(
        isError(*trace.error, ErrorKind::Mismatch, 1, g_secondCallLine, "Collective mismatch"));
    const int lines[] = {g_firstCallLine, g_secondCallLine};
    for (std::size_t r = 0; r < calls.size(); ++r) {
        EXPECT_NE(trace.error->message.find("rank " + std::to_string(r) + ": " + calls[r] +
                                            lineText(lines[r])),
                  std::string::npos)
            << trace.error->message;
    }
    ASSERT_TRUE(trace.diagnosis);
    EXPECT_EQ(trace.diagnosis->kind, ErrorKind::Mismatch);
    ASSERT_EQ(trace.diagnosis->ranks.size(), calls.size());
    for (std::size_t r = 0; r < calls.size(); ++r) {
        EXPECT_EQ(trace.diagnosis->ranks[r].waitsFor, calls[r]);
    }
}

TEST(Mismatch, DifferentCollectivesNameEachRanksCall)
{
    const core::Trace trace = runProgram(makeConfig(2, 2, 2), allreduceAgainstAllgather);
    expectMismatch(trace, {"allreduce(layer 0)", "allgather(layer 0)"});
}

TEST(Mismatch, SameCollectiveForDifferentLayersNamesEachRanksLayer)
{
    const core::Trace trace = runProgram(makeConfig(2, 2, 2), allreduceOfDifferentLayers);
    expectMismatch(trace, {"allreduce(layer 0)", "allreduce(layer 1)"});
}

TEST(Mismatch, SaysWhichRanksHaveNotReachedTheCollective)
{
    const core::Trace trace = runProgram(makeConfig(3, 2, 3), allreduceOfDifferentLayers);
    ASSERT_TRUE(trace.error);
    EXPECT_EQ(trace.error->kind, ErrorKind::Mismatch);
    EXPECT_NE(trace.error->message.find("rank 2: has not reached it yet"), std::string::npos)
        << trace.error->message;
    // The first line names only the ranks that reached the collective, not rank 2.
    EXPECT_EQ(trace.error->message.substr(0, trace.error->message.find('\n')),
              "Collective mismatch: ranks 0 and 1 reached the same collective of ranks 0-2 with "
              "different calls.");
}

} // namespace
} // namespace rankstep::testing
