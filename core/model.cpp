// SPDX-License-Identifier: MIT
#include "model.h"

namespace rankstep::core {

void Model::Map::set(const Key &key, const Object &object, Where where)
{
    m_model->unwrap(m_model->m_engine.store(m_model->at(where), m_kind, key, object));
}

const Object &Model::Map::get(const Key &key, Where where) const
{
    const Object *found = m_model->m_engine.find(m_model->rank, m_kind, key);
    if (!found)
        throw RankFailure(
            Error{ErrorKind::Exception, m_model->rank, int(where.line()),
                  std::string("KeyError: ") + mapName(m_kind) + " has no key " + formatKey(key)});
    return *found;
}

void Model::Map::del(const Key &key, Where where)
{
    m_model->unwrap(m_model->m_engine.erase(m_model->at(where), m_kind, key));
}

bool Model::Map::contains(const Key &key) const
{
    return m_model->m_engine.find(m_model->rank, m_kind, key) != nullptr;
}

std::size_t Model::Map::size() const
{
    return m_model->m_engine.storage(m_model->rank).size(m_kind);
}

Model::Model(Engine &engine, int rankIndex)
    : rank(rankIndex)
    , RANKS(engine.ranks())
    , LAYERS(engine.config().layers)
    , BATCHES(engine.config().batches)
    , weights(*this, MapKind::Weights)
    , optStates(*this, MapKind::OptStates)
    , activations(*this, MapKind::Activations)
    , gradActivations(*this, MapKind::GradActivations)
    , gradWeights(*this, MapKind::GradWeights)
    , m_engine(engine)
{}

std::pair<Object, Object> Model::loadWeights(int layer, int shard, int total, Where where)
{
    return unwrap(m_engine.loadWeights(at(where), layer, shard, total));
}

Object Model::getActivation(const IndexSet &batches, Where where)
{
    return unwrap(m_engine.getActivation(at(where), batches));
}

Object Model::forward(int layer, const Object &activation, const Object &weight, Where where)
{
    return unwrap(m_engine.forward(at(where), layer, activation, weight));
}

std::pair<Object, Object> Model::backward(int layer, const Object &activation, const Object &grad,
                                          const Object &weight, Where where)
{
    return unwrap(m_engine.backward(at(where), layer, activation, grad, weight));
}

Object Model::loss(const Object &activation, Where where)
{
    return unwrap(m_engine.loss(at(where), activation));
}

std::pair<Object, Object> Model::update(int layer, const Object &weightGrad, const Object &weight,
                                        const Object &optState, Where where)
{
    return unwrap(m_engine.update(at(where), layer, weightGrad, weight, optState));
}

Object Model::fakeGrad(int layer, const IndexSet &batches, Where where)
{
    return unwrap(m_engine.fakeGrad(at(where), layer, batches));
}

void Model::setFinalWeight(int layer, const Object &weight, Where where)
{
    unwrap(m_engine.setFinalWeight(at(where), layer, weight));
}

Object Model::add(const Object &a, const Object &b, Where where)
{
    return unwrap(m_engine.add(at(where), a, b));
}

CommAwaiter Model::await(Status started)
{
    unwrap(std::move(started));
    return CommAwaiter(m_engine, rank);
}

CommAwaiter Model::allreduce(Object value, int layer, std::vector<int> group, Where where)
{
    return await(m_engine.allreduce(at(where), std::move(value), layer, std::move(group)));
}

CommAwaiter Model::allgather(Object value, int layer, std::vector<int> group, Where where)
{
    return await(m_engine.allgather(at(where), std::move(value), layer, std::move(group)));
}

CommAwaiter Model::scatterreduce(Object value, int layer, std::vector<int> group, Where where)
{
    return await(m_engine.scatterreduce(at(where), std::move(value), layer, std::move(group)));
}

CommAwaiter Model::passTo(int destination, Object value, Where where)
{
    return await(m_engine.passTo(at(where), destination, std::move(value)));
}

CommAwaiter Model::receive(std::optional<int> source, Where where)
{
    return await(m_engine.receive(at(where), source));
}

} // namespace rankstep::core
