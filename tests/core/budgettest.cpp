// SPDX-License-Identifier: MIT
// Ending a run early: the operation budget and Engine::requestStop.
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace rankstep::testing {
namespace {

using core::ErrorKind;
using core::Model;
using core::RankTask;
using core::RunStatus;

// Basic training with 2 layers makes 34 operations (each load, get_activation, compute call,
// store, del and set_final_weight counts; reading a dictionary does not):
// 2 * (load + 2 stores) + (get_activation + store) + 2 * (forward + store) + (loss + store)
// + del + 2 * (backward + 2 stores + 2 dels) + del + 2 * (update + 2 stores) + 2 finals.
constexpr std::int64_t kBasicOperations = 6 + 2 + 4 + 2 + 1 + 10 + 1 + 6 + 2;

TEST(Budget, ARunWithinTheBudgetFinishes)
{
    const auto trace = runProgram(makeConfig(1, 2, 4), basic, core::RunLimits{kBasicOperations});
    EXPECT_EQ(trace.status, RunStatus::Ok);
    EXPECT_TRUE(trace.correct());
}

TEST(Budget, OneOperationTooManyStopsTheRun)
{
    const auto trace =
        runProgram(makeConfig(1, 2, 4), basic, core::RunLimits{kBasicOperations - 1});
    EXPECT_EQ(trace.status, RunStatus::Stopped);
    ASSERT_TRUE(trace.error);
    EXPECT_EQ(trace.error->kind, ErrorKind::Stopped);
    EXPECT_EQ(trace.error->rank, 0);
    EXPECT_NE(trace.error->message.find(
                  "stopped after 33 model calls and storage changes (the operation budget; "),
              std::string::npos)
        << trace.error->message;
    // Only the last set_final_weight was refused: all 7 events happened, the check fails.
    EXPECT_EQ(trace.events.size(), 7U);
    EXPECT_FALSE(trace.check.passed);
    EXPECT_FALSE(trace.correct());
}

RankTask loopForever(Model &m)
{
    for (;;) {
        m.fakeGrad(0, {});
    }
    co_return;
}

TEST(Budget, StopsAProgramThatNeverEnds)
{
    const auto trace = runProgram(makeConfig(2, 1, 1), loopForever, core::RunLimits{1000});
    EXPECT_EQ(trace.status, RunStatus::Stopped);
    ASSERT_TRUE(trace.error);
    EXPECT_NE(trace.error->message.find("Is a loop running forever?"), std::string::npos);
}

RankTask forwardForever(Model &m)
{
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    m.activations.set(0, m.getActivation({0}));
    for (;;)
        m.activations.set(1, m.forward(0, m.activations.get(0), m.weights.get(0)));
    co_return;
}

// A loop of forward and store spends two of the budget a turn and records one operation: the
// message said "stopped after 1000 operations" while the step bar counted about 500. It names
// the budget's count for what it counts, and gives the record's count as the step bar does.
TEST(Budget, TheMessageNamesTheBudgetsCountApartFromTheOperationsRecorded)
{
    const auto trace = runProgram(makeConfig(1, 1, 1), forwardForever, core::RunLimits{1000});
    EXPECT_EQ(trace.status, RunStatus::Stopped);
    ASSERT_TRUE(trace.error);
    ASSERT_GT(trace.events.size(), 0U);
    EXPECT_LT(trace.events.size(), 1000U);
    const std::string &message = trace.error->message;
    EXPECT_NE(message.find("after 1000 model calls and storage changes"), std::string::npos)
        << message;
    EXPECT_NE(message.find(std::to_string(trace.events.size()) + " operations recorded"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find("1000 operations"), std::string::npos) << message;
}

TEST(Budget, ARecordThatReachesItsLimitStopsTheRunWithoutABudget)
{
    core::RunLimits limits;
    limits.maxOperations = 0; // unlimited: only the record's own limit stops the loop
    limits.mostEvents = 5;
    const auto trace = runProgram(makeConfig(1, 2, 4), basic, limits);
    EXPECT_EQ(trace.status, RunStatus::Stopped);
    ASSERT_TRUE(trace.error);
    EXPECT_NE(trace.error->message.find("stopped after 0 recorded events and 5 storage changes"),
              std::string::npos)
        << trace.error->message;
    EXPECT_EQ(trace.changes.size(), 5U);
}

int g_stoppedLine = 0;

RankTask stopAfterOneForward(Model &m)
{
    auto [w, o] = m.loadWeights(0);
    const core::Object input = m.getActivation({0});
    m.forward(0, input, w);
    m.engine().requestStop();
    g_stoppedLine = __LINE__ + 1;
    m.forward(0, input, w);
    co_return;
}

TEST(RequestStop, StopsAtTheNextOperation)
{
    const auto trace = runProgram(makeConfig(1, 1, 1), stopAfterOneForward);
    EXPECT_EQ(trace.status, RunStatus::Stopped);
    ASSERT_TRUE(trace.error);
    EXPECT_TRUE(isError(*trace.error, ErrorKind::Stopped, 0, g_stoppedLine,
                        "while rank 0 was at line " + std::to_string(g_stoppedLine)));
    EXPECT_EQ(trace.error->message.rfind("The run was stopped", 0), 0U) << trace.error->message;
    EXPECT_EQ(trace.events.size(), 1U);
}

TEST(RequestStop, BeforeTheRunRunsNothing)
{
    core::Engine engine(makeConfig(1, 2, 4));
    core::ProgramList programs = core::makePrograms(engine, basic);
    engine.requestStop();
    engine.run(programs);
    EXPECT_EQ(engine.trace().status, RunStatus::Stopped);
    EXPECT_TRUE(engine.trace().events.empty());
    EXPECT_TRUE(engine.trace().changes.empty());
}

TEST(RequestStop, WorksFromAnotherThread)
{
    // The program never ends, so only the stop can end the run: no timing decides the outcome.
    core::Engine engine(makeConfig(1, 1, 1));
    core::ProgramList programs = core::makePrograms(engine, loopForever);
    std::thread stopper([&engine] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        engine.requestStop();
    });
    engine.run(programs);
    stopper.join();
    EXPECT_EQ(engine.trace().status, RunStatus::Stopped);
    ASSERT_TRUE(engine.trace().error);
    EXPECT_EQ(engine.trace().error->kind, ErrorKind::Stopped);
}

} // namespace
} // namespace rankstep::testing
