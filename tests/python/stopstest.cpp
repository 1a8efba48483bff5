// SPDX-License-Identifier: MIT
// Runaway learner code is stopped: by the wall-clock time limit (inside a rank and at module
// level), by Runtime::requestStop from another thread, and by the operation budget.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace rankstep::pythontests {
namespace {

using core::ErrorKind;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

TEST(PythonRuntime, StopsAnEndlessLoopInARankAtTheTimeLimit)
{
    const std::string source = R"py(
def puzzle(model):
    model.weights[0], model.opt_states[0] = model.load_weights(0)
    while True: pass  # spin-here
)py";
    python::Runtime runtime;
    python::RunRequest request = makeRequest(source, "puzzle", 2, 2, 4);
    request.timeLimitSeconds = 0.5;
    const auto start = Clock::now();
    const core::Trace trace = runtime.run(request).trace;
    const double elapsed = secondsSince(start);

    EXPECT_EQ(trace.status, core::RunStatus::Stopped);
    EXPECT_TRUE(hasError(trace, ErrorKind::Stopped, 0, lineOf(source, "# spin-here"),
                         "after 0.5 s (the time limit)"));
    // As the operation budget's stop does, the time limit's says what is likely wrong.
    EXPECT_TRUE(trace.error && trace.error->message.ends_with(" Is a loop running forever?"))
        << (trace.error ? trace.error->message : "no error");
    EXPECT_GE(elapsed, 0.5);
    EXPECT_LT(elapsed, 10.0);
}

TEST(PythonRuntime, StopsAnEndlessLoopAtModuleLevelAtTheTimeLimit)
{
    const std::string source = R"py(
counter = 0
while True: pass  # spin-here


def puzzle(model):
    pass
)py";
    python::Runtime runtime;
    python::RunRequest request = makeRequest(source, "puzzle", 1, 2, 4);
    request.timeLimitSeconds = 0.5;
    const core::Trace trace = runtime.run(request).trace;

    EXPECT_EQ(trace.status, core::RunStatus::Stopped);
    // Module-level code runs on no rank.
    EXPECT_TRUE(hasError(trace, ErrorKind::Stopped, -1, lineOf(source, "# spin-here"),
                         "after 0.5 s (the time limit)"));
    EXPECT_TRUE(trace.events.empty());
}

TEST(PythonRuntime, StopsALoopingRankOnRequestFromAnotherThread)
{
    const std::string source = R"py(
def puzzle(model):
    model.get_activation([model.rank])
    if model.rank == 1:
        while True: pass  # spin-here
)py";
    python::Runtime runtime;
    python::RunRequest request = makeRequest(source, "puzzle", 2, 2, 4);
    request.timeLimitSeconds = 20.0;
    std::atomic<bool> done = false;
    // A request before the run has started is ignored, so keep asking until it ends.
    std::thread stopper([&runtime, &done] {
        while (!done.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            runtime.requestStop();
        }
    });
    const auto start = Clock::now();
    const core::Trace trace = runtime.run(request).trace;
    const double elapsed = secondsSince(start);
    done = true;
    stopper.join();

    EXPECT_EQ(trace.status, core::RunStatus::Stopped);
    EXPECT_TRUE(hasError(trace, ErrorKind::Stopped, 1, lineOf(source, "# spin-here"),
                         "stopped on request while rank 1 was at line " +
                             std::to_string(lineOf(source, "# spin-here"))));
    // Far below the 20 s limit: the request, not the limit, ended it.
    EXPECT_LT(elapsed, 5.0);
}

TEST(PythonRuntime, StopsALoopOfOperationsAtTheOperationBudget)
{
    const std::string source = R"py(
def puzzle(model):
    while True:
        model.get_activation([0])  # fetch-here
)py";
    python::Runtime runtime;
    python::RunRequest request = makeRequest(source, "puzzle", 1, 2, 4);
    request.maxOperations = 1000;
    const core::Trace trace = runtime.run(request).trace;

    EXPECT_EQ(trace.status, core::RunStatus::Stopped);
    EXPECT_TRUE(hasError(trace, ErrorKind::Stopped, 0, lineOf(source, "# fetch-here"),
                         "after 1000 model calls and storage changes (the operation "
                         "budget; 0 operations recorded)"));
}

TEST(PythonRuntime, RunsAgainNormallyAfterAStoppedRun)
{
    const std::string spin = "def puzzle(model):\n    while True: pass\n";
    const std::string fine = "def puzzle(model):\n    model.fake_grad(0, [0])\n";
    python::Runtime runtime;
    python::RunRequest stopped = makeRequest(spin, "puzzle", 1, 1, 1);
    stopped.maxOperations = 0;
    stopped.timeLimitSeconds = 0.5;
    ASSERT_EQ(runtime.run(stopped).trace.status, core::RunStatus::Stopped);

    // A stop that arrives late must not leak into the next run.
    const core::Trace next = runtime.run(makeRequest(fine, "puzzle", 1, 1, 1)).trace;
    EXPECT_EQ(next.status, core::RunStatus::Ok);
    EXPECT_FALSE(next.error.has_value());
}

} // namespace
} // namespace rankstep::pythontests
