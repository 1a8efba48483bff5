// SPDX-License-Identifier: MIT
// Small helpers shared by the core tests: hand-made objects, error matchers, engine snapshots.
#pragma once

#include "core/engine.h"
#include "referencepuzzles.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace rankstep::testing {

core::RunConfig makeConfig(int ranks, int layers, int batches);

// Each rank loads layer 0, draws, runs its forward and draws again: four draw() marks at two
// ranks, for the snapshot steps.
core::RankTask drawsAfterLoadingAndAfterTheForward(core::Model &m);

// Names a reference puzzle in test output instead of dumping its bytes.
void PrintTo(const PuzzleCase &puzzle, std::ostream *out);

// Objects as the notebook builds them (step 0, full unless shards are given).
core::Object weight(int layer, core::IndexSet shards = {0}, int total = 1, int step = 0);
core::Object optState(int layer, core::IndexSet shards = {0}, int total = 1, int step = 0);
core::Object activation(int layer, core::IndexSet batches);
core::Object activationGrad(int layer, core::IndexSet batches);
core::Object weightGrad(int layer, core::IndexSet batches, core::IndexSet shards = {0},
                        int total = 1);

// Succeeds when `error` is of `kind`, at `rank` and `line`, and its message contains `part`.
::testing::AssertionResult isError(const core::Error &error, core::ErrorKind kind, int rank,
                                   int line, const std::string &part);
::testing::AssertionResult isCheckError(const core::Error &error, int rank, int line,
                                        const std::string &part);

// What a failed check must leave untouched.
struct EngineSnapshot {
    std::size_t events = 0;
    std::size_t changes = 0;
    std::size_t warnings = 0;
    std::vector<std::int64_t> clockTicks;
    std::vector<std::int64_t> memories;
    bool operator==(const EngineSnapshot &) const = default;
};
EngineSnapshot snapshot(const core::Engine &engine);

bool sameEvent(const core::Event &a, const core::Event &b);

// An engine of 4 ranks, 3 layers and 4 batches whose rank 2 already holds a weight and ran one
// forward (clock 1), so that a failed check has a state to leave untouched.
class EngineTest : public ::testing::Test
{
protected:
    static constexpr int kRank = 2;
    EngineTest();

    // Succeeds when call(CallSite{kRank, line}) fails a check at that rank and line, with
    // `part` in its message, and leaves events, changes, warnings, clocks and memory as they were.
    template <typename Call>
    ::testing::AssertionResult rejects(Call call, int line, const std::string &part)
    {
        const EngineSnapshot before = snapshot(m_engine);
        auto result = call(core::CallSite{kRank, line});
        if (result) {
            return ::testing::AssertionFailure() << "the call succeeded";
        }
        ::testing::AssertionResult matches = isCheckError(result.error(), kRank, line, part);
        if (!matches) {
            return matches;
        }
        if (!(snapshot(m_engine) == before)) {
            return ::testing::AssertionFailure() << "the failed call changed the engine";
        }
        return ::testing::AssertionSuccess();
    }

    core::Engine m_engine;
};

} // namespace rankstep::testing
