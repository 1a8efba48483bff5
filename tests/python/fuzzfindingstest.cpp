// SPDX-License-Identifier: MIT
// What the fuzz targets (tests/fuzz) found in the Python runtime, each kept as the smallest
// learner file that showed it.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::pythontests {
namespace {

using core::ErrorKind;

core::Trace runSource(const std::string &source, int ranks)
{
    python::Runtime runtime;
    return runtime.run(makeRequest(source, "puzzle", ranks, 2, 4)).trace;
}

// Found by fuzz_python: the second await of a finished receive suspended the rank with nothing
// to wait for, and the run ended in "Rank 0 paused without waiting ..." (an internal error).
TEST(FuzzFindings, AwaitingAFinishedReceiveAgainIsTheLearnersError)
{
    const std::string source = R"py(
async def puzzle(model):
    await model.pass_to(model.rank, None)
    w = model.receive()
    await w
    await w  # again
)py";
    const core::Trace trace = runSource(source, 1);

    EXPECT_EQ(trace.status, core::RunStatus::Error);
    EXPECT_TRUE(hasError(trace, ErrorKind::Exception, 0, lineOf(source, "# again"),
                         "RuntimeError: This receive was already awaited"));
}

TEST(FuzzFindings, AwaitingACollectiveThatFailedToStartAgainIsTheLearnersError)
{
    const std::string source = R"py(
async def puzzle(model):
    w = model.allreduce(None, 0)
    try:
        await w
    except Exception:
        pass
    await w  # again
)py";
    const core::Trace trace = runSource(source, 2);

    EXPECT_EQ(trace.status, core::RunStatus::Error);
    EXPECT_TRUE(hasError(trace, ErrorKind::Exception, 0, lineOf(source, "# again"),
                         "This allreduce was already awaited"));
}

TEST(FuzzFindings, AWaiterAwaitedOnceStillWorksInEveryRank)
{
    const std::string source = R"py(
async def puzzle(model):
    w = model.allreduce(model.fake_grad(0, [model.rank]), 0)
    total = await w
    assert total.batches == frozenset(range(model.RANKS)), total
)py";
    const core::Trace trace = runSource(source, 2);

    EXPECT_EQ(trace.status, core::RunStatus::Ok) << (trace.error ? trace.error->message : "");
    EXPECT_EQ(trace.events.size(), 2U);
}

} // namespace
} // namespace rankstep::pythontests
