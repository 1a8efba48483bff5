// SPDX-License-Identifier: MIT
#include "testsupport.h"

namespace rankstep::testing {

using core::IndexSet;
using core::Object;
using core::ObjectKind;

core::RankTask drawsAfterLoadingAndAfterTheForward(core::Model &m)
{
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    m.engine().mark(core::CallSite{m.rank, __LINE__}, "loaded");
    m.activations.set(0, m.getActivation({m.rank}));
    m.activations.set(1, m.forward(0, m.activations.get(0), m.weights.get(0)));
    m.engine().mark(core::CallSite{m.rank, __LINE__}, "forward");
    co_return;
}

core::RunConfig makeConfig(int ranks, int layers, int batches)
{
    core::RunConfig config;
    config.ranks = ranks;
    config.layers = layers;
    config.batches = batches;
    return config;
}

void PrintTo(const PuzzleCase &puzzle, std::ostream *out)
{
    *out << puzzle.name;
}

Object weight(int layer, IndexSet shards, int total, int step)
{
    Object object;
    object.kind = ObjectKind::Weight;
    object.layer = layer;
    object.step = step;
    object.shards = std::move(shards);
    object.total = total;
    return object;
}

Object optState(int layer, IndexSet shards, int total, int step)
{
    Object object = weight(layer, std::move(shards), total, step);
    object.kind = ObjectKind::OptState;
    return object;
}

Object activation(int layer, IndexSet batches)
{
    Object object;
    object.kind = ObjectKind::Activation;
    object.layer = layer;
    object.batches = std::move(batches);
    return object;
}

Object activationGrad(int layer, IndexSet batches)
{
    Object object = activation(layer, std::move(batches));
    object.kind = ObjectKind::ActivationGrad;
    return object;
}

Object weightGrad(int layer, IndexSet batches, IndexSet shards, int total)
{
    Object object;
    object.kind = ObjectKind::WeightGrad;
    object.layer = layer;
    object.batches = std::move(batches);
    object.shards = std::move(shards);
    object.total = total;
    return object;
}

::testing::AssertionResult isError(const core::Error &error, core::ErrorKind kind, int rank,
                                   int line, const std::string &part)
{
    auto failure = [&](const std::string &what) {
        return ::testing::AssertionFailure()
               << what << " in error {kind " << core::errorKindName(error.kind) << ", rank "
               << error.rank << ", line " << error.line << ", \"" << error.message << "\"}";
    };
    if (error.kind != kind)
        return failure(std::string("expected kind ") + core::errorKindName(kind));
    if (error.rank != rank)
        return failure("expected rank " + std::to_string(rank));
    if (error.line != line)
        return failure("expected line " + std::to_string(line));
    if (error.message.find(part) == std::string::npos)
        return failure("expected the message to contain \"" + part + "\"");
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult isCheckError(const core::Error &error, int rank, int line,
                                        const std::string &part)
{
    return isError(error, core::ErrorKind::Check, rank, line, part);
}

EngineSnapshot snapshot(const core::Engine &engine)
{
    EngineSnapshot result;
    result.events = engine.trace().events.size();
    result.changes = engine.trace().changes.size();
    result.warnings = engine.trace().warnings.size();
    for (int r = 0; r < engine.ranks(); ++r) {
        result.clockTicks.push_back(engine.clock(r).ticks());
        result.memories.push_back(engine.storage(r).memory());
    }
    return result;
}

bool sameEvent(const core::Event &a, const core::Event &b)
{
    return a.rank == b.rank && a.op == b.op && a.layer == b.layer && a.batches == b.batches &&
           a.shards == b.shards && a.shardTotal == b.shardTotal && a.start == b.start &&
           a.duration == b.duration && a.memory == b.memory && a.line == b.line &&
           a.peer == b.peer && a.link == b.link;
}

EngineTest::EngineTest() : m_engine(makeConfig(4, 3, 4))
{
    const core::CallSite at{kRank, 1};
    EXPECT_TRUE(m_engine.store(at, core::MapKind::Weights, 0, weight(0)));
    EXPECT_TRUE(m_engine.forward(at, 0, activation(0, {kRank}), weight(0)));
}

} // namespace rankstep::testing
