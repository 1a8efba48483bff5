// SPDX-License-Identifier: MIT
#include "storage.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace rankstep::core {

const char *mapName(MapKind map)
{
    switch (map) {
    case MapKind::Weights: return "weights";
    case MapKind::OptStates: return "opt_states";
    case MapKind::Activations: return "activations";
    case MapKind::GradActivations: return "grad_activations";
    case MapKind::GradWeights: return "grad_weights";
    }
    return "?";
}

KeyParts::KeyParts(const int *items, std::size_t count) : m_size(std::uint32_t(count))
{
    int *out = m_inline;
    if (count > 2)
        out = m_heap = new int[count];
    std::copy(items, items + count, out);
}

KeyParts::KeyParts(KeyParts &&other) noexcept
    : m_inline{other.m_inline[0], other.m_inline[1]}, m_size(std::exchange(other.m_size, 0)),
      m_heap(std::exchange(other.m_heap, nullptr))
{
}

KeyParts &KeyParts::operator=(const KeyParts &other)
{
    if (this != &other)
        *this = KeyParts(other);
    return *this;
}

KeyParts &KeyParts::operator=(KeyParts &&other) noexcept
{
    if (this != &other) {
        delete[] m_heap;
        m_inline[0] = other.m_inline[0];
        m_inline[1] = other.m_inline[1];
        m_size = std::exchange(other.m_size, 0);
        m_heap = std::exchange(other.m_heap, nullptr);
    }
    return *this;
}

int KeyParts::at(std::size_t i) const
{
    if (i >= m_size)
        throw std::out_of_range("KeyParts::at");
    return begin()[i];
}

std::strong_ordering KeyParts::operator<=>(const KeyParts &other) const
{
    return std::lexicographical_compare_three_way(begin(), end(), other.begin(), other.end());
}

bool KeyParts::operator==(const KeyParts &other) const
{
    return std::equal(begin(), end(), other.begin(), other.end());
}

Key Key::ofTuple(const std::vector<int> &items)
{
    Key key;
    key.parts = KeyParts(items);
    key.tuple = true;
    return key;
}

std::string formatKey(const Key &key)
{
    if (!key.tuple)
        return key.parts.empty() ? "?" : std::to_string(key.parts[0]);
    std::string text = "(";
    for (std::size_t i = 0; i < key.parts.size(); ++i)
        text += (i ? ", " : "") + std::to_string(key.parts[i]);
    return text + (key.parts.size() == 1 ? ",)" : ")");
}

const Object *Storage::find(MapKind map, const Key &key) const
{
    const Map &m = slot(map);
    auto it = m.find(key);
    return it == m.end() ? nullptr : &it->second.object;
}

void Storage::set(MapKind map, const Key &key, Object object)
{
    const std::int64_t bytes = memoryOf(object, m_sizes);
    Map &m = slot(map);
    auto it = m.find(key);
    if (it != m.end()) {
        m_memory += bytes - it->second.bytes;
        it->second.object = std::move(object);
        it->second.bytes = bytes;
        return;
    }
    m_memory += bytes;
    m.emplace(key, Entry{std::move(object), m_nextOrder++, bytes});
}

bool Storage::erase(MapKind map, const Key &key)
{
    Map &m = slot(map);
    auto it = m.find(key);
    if (it == m.end())
        return false;
    m_memory -= it->second.bytes;
    m.erase(it);
    return true;
}

std::vector<std::pair<Key, const Object *>> Storage::entries(MapKind map) const
{
    std::vector<std::pair<std::uint64_t, std::pair<Key, const Object *>>> ordered;
    for (const auto &[key, entry] : slot(map))
        ordered.push_back({entry.order, {key, &entry.object}});
    std::sort(ordered.begin(), ordered.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<std::pair<Key, const Object *>> out;
    out.reserve(ordered.size());
    for (auto &item : ordered)
        out.push_back(std::move(item.second));
    return out;
}

} // namespace rankstep::core
