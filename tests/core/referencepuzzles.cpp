// SPDX-License-Identifier: MIT
#include "referencepuzzles.h"

#include <stdexcept>

namespace rankstep::testing {

using core::IndexSet;
using core::Key;
using core::Model;
using core::RankTask;

RankTask basic(Model &m)
{
    for (int l = 0; l < m.LAYERS; ++l) {
        auto [w, o] = m.loadWeights(l);
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    m.activations.set(0, m.getActivation(IndexSet::range(0, m.BATCHES)));
    for (int l = 0; l < m.LAYERS; ++l)
        m.activations.set(l + 1, m.forward(l, m.activations.get(l), m.weights.get(l)));
    m.gradActivations.set(m.LAYERS, m.loss(m.activations.get(m.LAYERS)));
    m.activations.del(m.LAYERS);
    for (int l = m.LAYERS - 1; l >= 0; --l) {
        auto [gw, ga] =
            m.backward(l, m.activations.get(l), m.gradActivations.get(l + 1), m.weights.get(l));
        m.gradWeights.set(l, gw);
        m.gradActivations.set(l, ga);
        m.gradActivations.del(l + 1);
        m.activations.del(l);
    }
    m.gradActivations.del(0);
    for (int l = 0; l < m.LAYERS; ++l) {
        auto [w, o] = m.update(l, m.gradWeights.get(l), m.weights.get(l), m.optStates.get(l));
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int l = 0; l < m.LAYERS; ++l)
        m.setFinalWeight(l, m.weights.get(l));
    co_return;
}

RankTask gradAccum(Model &m)
{
    for (int l = 0; l < m.LAYERS; ++l) {
        auto [w, o] = m.loadWeights(l);
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int r = 0; r < m.BATCHES; ++r) {
        m.activations.set(Key(0, r), m.getActivation({r}));
        for (int l = 0; l < m.LAYERS; ++l)
            m.activations.set(Key(l + 1, r),
                              m.forward(l, m.activations.get(Key(l, r)), m.weights.get(l)));
        m.gradActivations.set(Key(m.LAYERS, r), m.loss(m.activations.get(Key(m.LAYERS, r))));
        m.activations.del(Key(m.LAYERS, r));
        for (int l = m.LAYERS - 1; l >= 0; --l) {
            auto [gw, ga] = m.backward(l, m.activations.get(Key(l, r)),
                                       m.gradActivations.get(Key(l + 1, r)), m.weights.get(l));
            m.gradWeights.set(Key(l, r), gw);
            m.gradActivations.set(Key(l, r), ga);
            if (r == 0)
                m.gradWeights.set(l, m.gradWeights.get(Key(l, r)));
            else
                m.gradWeights.set(l, m.add(m.gradWeights.get(l), m.gradWeights.get(Key(l, r))));
            m.gradActivations.del(Key(l + 1, r));
            m.activations.del(Key(l, r));
            m.gradWeights.del(Key(l, r));
        }
        m.gradActivations.del(Key(0, r));
    }
    for (int l = 0; l < m.LAYERS; ++l) {
        auto [w, o] = m.update(l, m.gradWeights.get(l), m.weights.get(l), m.optStates.get(l));
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int l = 0; l < m.LAYERS; ++l)
        m.setFinalWeight(l, m.weights.get(l));
    co_return;
}

RankTask ddp(Model &m)
{
    m.activations.set(0, m.getActivation({m.rank}));
    for (int l = 0; l < m.LAYERS; ++l) {
        auto [w, o] = m.loadWeights(l);
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int l = 0; l < m.LAYERS; ++l)
        m.activations.set(l + 1, m.forward(l, m.activations.get(l), m.weights.get(l)));
    m.gradActivations.set(m.LAYERS, m.loss(m.activations.get(m.LAYERS)));
    for (int l = m.LAYERS - 1; l >= 0; --l) {
        auto [gw, ga] =
            m.backward(l, m.activations.get(l), m.gradActivations.get(l + 1), m.weights.get(l));
        m.gradWeights.set(l, gw);
        m.gradActivations.set(l, ga);
        m.gradActivations.del(l + 1);
        m.activations.del(l);
    }
    for (int l = 0; l < m.LAYERS; ++l) {
        m.gradWeights.set(l, co_await m.allreduce(m.gradWeights.get(l), l));
        auto [w, o] = m.update(l, m.gradWeights.get(l), m.weights.get(l), m.optStates.get(l));
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int l = 0; l < m.LAYERS; ++l)
        m.setFinalWeight(l, m.weights.get(l));
}

// WSDP and FSDP share everything but how gradients are reduced.
static RankTask shardedDataParallel(Model &m, bool scatter)
{
    m.activations.set(0, m.getActivation({m.rank}));
    for (int l = 0; l < m.LAYERS; ++l) {
        auto [w, o] = m.loadWeights(l, m.rank, m.RANKS);
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int l = 0; l < m.LAYERS; ++l) {
        m.weights.set(Key(l, 0), co_await m.allgather(m.weights.get(l), l));
        m.activations.set(l + 1, m.forward(l, m.activations.get(l), m.weights.get(Key(l, 0))));
        m.weights.del(Key(l, 0));
    }
    m.gradActivations.set(m.LAYERS, m.loss(m.activations.get(m.LAYERS)));
    if (scatter)
        m.activations.del(m.LAYERS);
    for (int l = m.LAYERS - 1; l >= 0; --l) {
        m.weights.set(Key(l, 0), co_await m.allgather(m.weights.get(l), l));
        auto [gw, ga] = m.backward(l, m.activations.get(l), m.gradActivations.get(l + 1),
                                   m.weights.get(Key(l, 0)));
        m.gradWeights.set(l, gw);
        m.gradActivations.set(l, ga);
        if (scatter)
            m.gradWeights.set(l, co_await m.scatterreduce(m.gradWeights.get(l), l));
        m.gradActivations.del(l + 1);
        m.activations.del(l);
        m.weights.del(Key(l, 0));
    }
    for (int l = 0; l < m.LAYERS; ++l) {
        if (!scatter)
            m.gradWeights.set(l, co_await m.allreduce(m.gradWeights.get(l), l));
        auto [w, o] = m.update(l, m.gradWeights.get(l), m.weights.get(l), m.optStates.get(l));
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int l = 0; l < m.LAYERS; ++l)
        m.setFinalWeight(l, m.weights.get(l));
}

RankTask wsdp(Model &m)
{
    return shardedDataParallel(m, false);
}

RankTask fsdp(Model &m)
{
    return shardedDataParallel(m, true);
}

RankTask pipeline(Model &m)
{
    const int perRank = m.LAYERS / m.RANKS;
    std::vector<int> mine;
    for (int i = 0; i < perRank; ++i)
        mine.push_back(i + m.rank * perRank);
    for (int l : mine) {
        auto [w, o] = m.loadWeights(l);
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    if (m.rank == 0)
        m.activations.set(0, m.getActivation(IndexSet::range(0, m.BATCHES)));
    else
        m.activations.set(mine.front(), co_await m.receive());
    for (int l : mine)
        m.activations.set(l + 1, m.forward(l, m.activations.get(l), m.weights.get(l)));
    const int top = mine.back() + 1;
    if (m.rank == m.RANKS - 1) {
        m.gradActivations.set(m.LAYERS, m.loss(m.activations.get(m.LAYERS)));
    } else {
        co_await m.passTo(m.rank + 1, m.activations.get(top));
        m.gradActivations.set(top, co_await m.receive());
    }
    for (auto it = mine.rbegin(); it != mine.rend(); ++it) {
        const int l = *it;
        auto [gw, ga] =
            m.backward(l, m.activations.get(l), m.gradActivations.get(l + 1), m.weights.get(l));
        m.gradWeights.set(l, gw);
        m.gradActivations.set(l, ga);
        m.gradActivations.del(l + 1);
        m.activations.del(l);
    }
    if (m.rank != 0)
        co_await m.passTo(m.rank - 1, m.gradActivations.get(mine.front()));
    for (int l : mine) {
        auto [w, o] = m.update(l, m.gradWeights.get(l), m.weights.get(l), m.optStates.get(l));
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int l : mine)
        m.setFinalWeight(l, m.weights.get(l));
}

RankTask gpipe(Model &m)
{
    const int perRank = m.LAYERS / m.RANKS;
    std::vector<int> mine;
    for (int i = 0; i < perRank; ++i)
        mine.push_back(i + m.rank * perRank);
    for (int l : mine) {
        auto [w, o] = m.loadWeights(l);
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int mb = 0; mb < m.BATCHES; ++mb) {
        if (m.rank == 0)
            m.activations.set(Key(0, mb), m.getActivation({mb}));
        else
            m.activations.set(Key(mine.front(), mb), co_await m.receive());
        for (int l : mine)
            m.activations.set(Key(l + 1, mb),
                              m.forward(l, m.activations.get(Key(l, mb)), m.weights.get(l)));
        if (m.rank != m.RANKS - 1)
            co_await m.passTo(m.rank + 1, m.activations.get(Key(mine.back() + 1, mb)));
    }
    for (int mb = 0; mb < m.BATCHES; ++mb) {
        if (m.rank == m.RANKS - 1)
            m.gradActivations.set(Key(m.LAYERS, mb), m.loss(m.activations.get(Key(m.LAYERS, mb))));
        else
            m.gradActivations.set(Key(mine.back() + 1, mb), co_await m.receive());
        for (auto it = mine.rbegin(); it != mine.rend(); ++it) {
            const int l = *it;
            auto [gw, ga] = m.backward(l, m.activations.get(Key(l, mb)),
                                       m.gradActivations.get(Key(l + 1, mb)), m.weights.get(l));
            m.gradWeights.set(Key(l, mb), gw);
            m.gradActivations.set(Key(l, mb), ga);
            m.gradActivations.del(Key(l + 1, mb));
            m.activations.del(Key(l, mb));
        }
        if (m.rank != 0)
            co_await m.passTo(m.rank - 1, m.gradActivations.get(Key(mine.front(), mb)));
    }
    for (auto it = mine.rbegin(); it != mine.rend(); ++it) {
        const int l = *it;
        for (int mb = 0; mb < m.BATCHES; ++mb) {
            if (mb != 0)
                m.gradWeights.set(l, m.add(m.gradWeights.get(l), m.gradWeights.get(Key(l, mb))));
            else
                m.gradWeights.set(l, m.gradWeights.get(Key(l, 0)));
            m.gradWeights.del(Key(l, mb));
        }
        auto [w, o] = m.update(l, m.gradWeights.get(l), m.weights.get(l), m.optStates.get(l));
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int l : mine)
        m.setFinalWeight(l, m.weights.get(l));
}

RankTask pipelineFsdp(Model &m)
{
    const int perRank = m.LAYERS / (m.RANKS / 4);
    std::vector<int> mine;
    for (int i = 0; i < perRank; ++i)
        mine.push_back(i + (m.rank % 4) * perRank);
    const auto isMine = [&](int l) {
        return l >= mine.front() && l <= mine.back();
    };
    for (int l = 0; l < m.LAYERS; ++l) {
        auto [w, o] = m.loadWeights(l, m.rank, m.RANKS);
        m.weights.set(Key(l, 0), w);
        m.optStates.set(Key(l, 0), o);
    }
    for (int l = 0; l < m.LAYERS; ++l) {
        if (l == mine.front()) {
            if (m.rank % 4 == 0)
                m.activations.set(0, m.getActivation({m.rank / 4}));
            else
                m.activations.set(l, co_await m.receive());
        }
        m.weights.set(l, co_await m.allgather(m.weights.get(Key(l, 0)), l));
        if (isMine(l))
            m.activations.set(l + 1, m.forward(l, m.activations.get(l), m.weights.get(l)));
        m.weights.del(l);
        if (l == mine.back()) {
            if (m.rank % 4 == 3)
                m.gradActivations.set(m.LAYERS, m.loss(m.activations.get(m.LAYERS)));
            else
                co_await m.passTo(m.rank + 1, m.activations.get(l + 1));
        }
    }
    for (int l = m.LAYERS - 1; l >= 0; --l) {
        if (l == mine.back() && m.rank % 4 != 3)
            m.gradActivations.set(l + 1, co_await m.receive());
        m.weights.set(l, co_await m.allgather(m.weights.get(Key(l, 0)), l));
        if (isMine(l)) {
            auto [gw, ga] =
                m.backward(l, m.activations.get(l), m.gradActivations.get(l + 1), m.weights.get(l));
            m.gradWeights.set(l, gw);
            m.gradActivations.set(l, ga);
            m.gradActivations.del(l + 1);
            m.activations.del(l);
            m.gradWeights.set(l, co_await m.scatterreduce(m.gradWeights.get(l), l));
        } else {
            m.gradWeights.set(l, co_await m.scatterreduce(m.fakeGrad(l, {}), l));
        }
        m.weights.del(l);
        if (m.rank % 4 != 0 && l == mine.front())
            co_await m.passTo(m.rank - 1, m.gradActivations.get(l));
    }
    for (int l = 0; l < m.LAYERS; ++l) {
        auto [w, o] =
            m.update(l, m.gradWeights.get(l), m.weights.get(Key(l, 0)), m.optStates.get(Key(l, 0)));
        m.weights.set(l, w);
        m.optStates.set(l, o);
    }
    for (int l = 0; l < m.LAYERS; ++l)
        m.setFinalWeight(l, m.weights.get(l));
}

const std::vector<PuzzleCase> &referencePuzzles()
{
    static const std::vector<PuzzleCase> cases = {
        {"basic", basic, 1, 2, 4}, {"grad_accum", gradAccum, 1, 2, 4},
        {"ddp", ddp, 4, 2, 4},     {"wsdp", wsdp, 4, 6, 4},
        {"fsdp", fsdp, 4, 6, 4},   {"pipeline", pipeline, 4, 8, 4},
        {"gpipe", gpipe, 4, 8, 4}, {"pipeline_fsdp", pipelineFsdp, 16, 4, 4},
    };
    return cases;
}

core::Trace runProgram(const core::RunConfig &config,
                       const std::function<core::RankTask(core::Model &)> &program,
                       core::RunLimits limits)
{
    core::Engine engine(config, limits);
    core::ProgramList programs = core::makePrograms(engine, program);
    engine.run(programs);
    return engine.takeTrace();
}

core::Trace runReference(const std::string &name)
{
    for (const auto &puzzle : referencePuzzles())
        if (puzzle.name == name)
            return runProgram({puzzle.ranks, puzzle.layers, puzzle.batches, {}}, puzzle.program);
    throw std::invalid_argument("no reference puzzle " + name);
}

} // namespace rankstep::testing
