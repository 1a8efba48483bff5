// SPDX-License-Identifier: MIT
#pragma once

#include "engine.h"
#include "rankcoroutine.h"

#include <source_location>
#include <utility>
#include <vector>

namespace rankstep::core {

// The notebook's Model for C++ rank programs (tests, benchmarks): every call records the caller's
// source line and throws RankFailure on a failed check, which ends the rank with that Error.
class Model
{
public:
    using Where = std::source_location;

    // One of the five storage dictionaries, indexed by Key.
    class Map
    {
    public:
        Map(Model &model, MapKind kind) : m_model(&model), m_kind(kind) {}
        void set(const Key &key, const Object &object, Where where = Where::current());
        // The reference lasts until this rank's storage next changes (copy it to keep it).
        const Object &get(const Key &key, Where where = Where::current()) const;
        void del(const Key &key, Where where = Where::current());
        bool contains(const Key &key) const;
        std::size_t size() const;

    private:
        Model *m_model;
        MapKind m_kind;
    };

    Model(Engine &engine, int rank);

    const int rank;
    const int RANKS;   // NOLINT(readability-identifier-naming): the notebook's names
    const int LAYERS;  // NOLINT(readability-identifier-naming)
    const int BATCHES; // NOLINT(readability-identifier-naming)
    Map weights, optStates, activations, gradActivations, gradWeights;

    std::pair<Object, Object> loadWeights(int layer, int shard = 0, int total = 1,
                                          Where where = Where::current());
    Object getActivation(const IndexSet &batches, Where where = Where::current());
    Object forward(int layer, const Object &activation, const Object &weight,
                   Where where = Where::current());
    std::pair<Object, Object> backward(int layer, const Object &activation, const Object &grad,
                                       const Object &weight, Where where = Where::current());
    Object loss(const Object &activation, Where where = Where::current());
    std::pair<Object, Object> update(int layer, const Object &weightGrad, const Object &weight,
                                     const Object &optState, Where where = Where::current());
    Object fakeGrad(int layer, const IndexSet &batches, Where where = Where::current());
    void setFinalWeight(int layer, const Object &weight, Where where = Where::current());
    Object add(const Object &a, const Object &b, Where where = Where::current());

    CommAwaiter allreduce(Object value, int layer, std::vector<int> group = {},
                          Where where = Where::current());
    CommAwaiter allgather(Object value, int layer, std::vector<int> group = {},
                          Where where = Where::current());
    CommAwaiter scatterreduce(Object value, int layer, std::vector<int> group = {},
                              Where where = Where::current());
    CommAwaiter passTo(int destination, Object value, Where where = Where::current());
    CommAwaiter receive(std::optional<int> source = std::nullopt, Where where = Where::current());

    std::int64_t memory() const { return m_engine.storage(rank).memory(); }
    Engine &engine() { return m_engine; }

private:
    CallSite at(Where where) const { return CallSite{rank, int(where.line())}; }
    template <typename T>
    T unwrap(Result<T> result) const
    {
        if (!result)
            throw RankFailure(result.error());
        return std::move(*result);
    }
    CommAwaiter await(Status started);

    Engine &m_engine;
};

// Builds the programs of a run: `makePrograms(engine, [](Model &m) -> RankTask {...})`. The models
// live as long as the returned list.
template <typename Body>
ProgramList makePrograms(Engine &engine, Body body);

namespace detail {
class ModelProgram : public RankProgram
{
public:
    template <typename Body>
    ModelProgram(Engine &engine, int rank, Body &body)
        : m_model(std::make_unique<Model>(engine, rank)), m_program(body(*m_model))
    {}
    ProgramStep resume() override { return m_program.resume(); }

private:
    std::unique_ptr<Model> m_model;
    CoroutineProgram m_program;
};
} // namespace detail

template <typename Body>
ProgramList makePrograms(Engine &engine, Body body)
{
    ProgramList programs;
    for (int r = 0; r < engine.ranks(); ++r)
        programs.push_back(std::make_unique<detail::ModelProgram>(engine, r, body));
    return programs;
}

} // namespace rankstep::core
