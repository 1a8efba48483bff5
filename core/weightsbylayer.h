// SPDX-License-Identifier: MIT
#pragma once

#include "objects.h"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rankstep::core {

// One rank's final weights by layer, in layer order: the part of std::map's interface that the
// trace's readers and writers use, kept in one sorted vector. A rank sets its layers in order (an
// append each), and a map's node per layer and rank took 98,304 allocations and 9.4 MB at 1024
// ranks x 96 layers, and a tree walk per lookup when the run is checked.
class WeightsByLayer
{
public:
    using value_type = std::pair<int, Object>;
    using iterator = std::vector<value_type>::iterator;
    using const_iterator = std::vector<value_type>::const_iterator;

    WeightsByLayer() = default;
    WeightsByLayer(std::initializer_list<value_type> weights)
    {
        for (const value_type &weight : weights)
            emplace(weight.first, weight.second);
    }

    std::size_t size() const { return m_weights.size(); }
    bool empty() const { return m_weights.empty(); }
    iterator begin() { return m_weights.begin(); }
    iterator end() { return m_weights.end(); }
    const_iterator begin() const { return m_weights.begin(); }
    const_iterator end() const { return m_weights.end(); }
    void reserve(std::size_t layers) { m_weights.reserve(layers); }

    const_iterator find(int layer) const
    {
        const auto it = lowerBound(layer);
        return it != end() && it->first == layer ? it : end();
    }
    iterator find(int layer)
    {
        const auto it = lowerBound(layer);
        return it != end() && it->first == layer ? it : end();
    }
    const Object &at(int layer) const
    {
        const auto it = find(layer);
        if (it == end())
            throw std::out_of_range("WeightsByLayer::at: no weight for layer " +
                                    std::to_string(layer));
        return it->second;
    }
    // The weight of `layer`, a default one added when there is none.
    Object &operator[](int layer) { return emplace(layer, Object{}).first->second; }
    // Adds `weight` for `layer` unless the layer has one; .second tells whether it was added.
    std::pair<iterator, bool> emplace(int layer, Object weight)
    {
        if (m_weights.empty() || m_weights.back().first < layer) { // layers come in order
            m_weights.emplace_back(layer, std::move(weight));
            return {m_weights.end() - 1, true};
        }
        const auto it = lowerBound(layer);
        if (it != end() && it->first == layer)
            return {it, false};
        return {m_weights.emplace(it, layer, std::move(weight)), true};
    }

    bool operator==(const WeightsByLayer &other) const = default;

private:
    iterator lowerBound(int layer)
    {
        return std::lower_bound(begin(), end(), layer,
                                [](const value_type &w, int l) { return w.first < l; });
    }
    const_iterator lowerBound(int layer) const
    {
        return std::lower_bound(begin(), end(), layer,
                                [](const value_type &w, int l) { return w.first < l; });
    }

    std::vector<value_type> m_weights;
};

} // namespace rankstep::core
