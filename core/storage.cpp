// SPDX-License-Identifier: MIT
#include "storage.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <utility>

namespace rankstep::core {

KeyParts::KeyParts(const int *items, std::size_t count)
    : m_size(std::uint16_t(std::min<std::size_t>(count, 0xffff)))
{
    if (count > 0xffffffffU)
        throw std::length_error("a storage key of more than 2^32 ints");
    int *out = m_held.ints;
    if (count > kInline) {
        int *block = new int[count + 1];
        block[0] = int(std::uint32_t(count));
        setHeap(block);
        out = block + 1;
    }
    std::copy(items, items + count, out);
}

void KeyParts::copyHeap(const KeyParts &other)
{
    const std::size_t count = other.size();
    int *block = new int[count + 1];
    std::copy(other.heap(), other.heap() + count + 1, block);
    setHeap(block);
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

void Storage::setPositionGrowing(Map &m, const Key &key, std::int32_t position)
{
    if (isDirect(key)) {
        const auto index = std::size_t(key.parts[0]);
        if (index >= m.direct.size())
            m.direct.resize(index + 1, 0);
        m.direct[index] = position + 1;
    } else if (isDirectPair(key)) {
        const auto a = std::size_t(key.parts[0]), b = std::size_t(key.parts[1]);
        if (b >= m.pairStride) {
            const std::size_t stride = std::bit_ceil(b + 1);
            const std::size_t rows = m.pairStride == 0 ? 0 : m.pairs.size() / m.pairStride;
            if (rows > 0) { // (an empty table keeps its places: reserve()'s room, at first)
                PlacedVector<std::int32_t> wider;
                wider.resize(rows * stride, 0);
                for (std::size_t row = 0; row < rows; ++row)
                    std::copy_n(m.pairs.begin() + row * m.pairStride, m.pairStride,
                                wider.begin() + row * stride);
                m.pairs = std::move(wider);
            }
            m.pairStride = stride;
        }
        if (a * m.pairStride + b >= m.pairs.size()) {
            // The rows of the reserved keys at once, where a pair table grew a row at a time.
            if (m.pairs.empty())
                m.pairs.reserve(std::size_t(m_reservedKeys) * m.pairStride);
            m.pairs.resize((a + 1) * m.pairStride, 0);
        }
        m.pairs[a * m.pairStride + b] = position + 1;
    } else if (position < 0) {
        m.hashed.erase(key);
    } else {
        m.hashed.set(key, position);
    }
}

std::size_t Storage::HashedKeys::find(const Key &key) const
{
    const std::size_t mask = (std::size_t(1) << m_bits) - 1;
    std::size_t at = home(key);
    while (m_slots[at].position >= 0 && !(m_slots[at].key == key))
        at = (at + 1) & mask;
    return at;
}

std::int32_t Storage::HashedKeys::position(const Key &key) const
{
    if (!m_slots)
        return -1;
    return m_slots[find(key)].position;
}

void Storage::HashedKeys::grow()
{
    std::unique_ptr<Slot[]> old = std::move(m_slots);
    const std::size_t oldSize = old ? std::size_t(1) << m_bits : 0;
    m_bits = old ? m_bits + 1 : 3;
    m_count = old ? m_count : 0;
    m_slots = std::make_unique<Slot[]>(std::size_t(1) << m_bits);
    for (std::size_t i = 0; i < oldSize; ++i)
        if (old[i].position >= 0)
            m_slots[find(old[i].key)] = std::move(old[i]);
}

void Storage::HashedKeys::set(const Key &key, std::int32_t position)
{
    if (!m_slots || 2 * (std::size_t(m_count) + 1) > (std::size_t(1) << m_bits))
        grow();
    Slot &slot = m_slots[find(key)];
    if (slot.position < 0) {
        slot.key = key;
        ++m_count;
    }
    slot.position = position;
}

// Linear probing without tombstones: the slots after the freed one that their probe would no
// longer reach move back into it.
void Storage::HashedKeys::erase(const Key &key)
{
    if (!m_slots)
        return;
    const std::size_t mask = (std::size_t(1) << m_bits) - 1;
    std::size_t hole = find(key);
    if (m_slots[hole].position < 0)
        return;
    --m_count;
    for (std::size_t next = (hole + 1) & mask; m_slots[next].position >= 0;
         next = (next + 1) & mask) {
        const std::size_t start = home(m_slots[next].key);
        // Stays when its home lies cyclically in (hole, next]: its probe never passes the hole.
        const bool stays =
            hole <= next ? (hole < start && start <= next) : (hole < start || start <= next);
        if (!stays) {
            m_slots[hole] = std::move(m_slots[next]);
            hole = next;
        }
    }
    m_slots[hole] = Slot{};
}

void Storage::HashedKeys::copyFrom(const HashedKeys &other)
{
    m_count = other.m_count;
    m_bits = other.m_bits;
    m_slots.reset();
    if (!other.m_slots)
        return;
    const std::size_t size = std::size_t(1) << m_bits;
    m_slots = std::make_unique<Slot[]>(size);
    std::copy(other.m_slots.get(), other.m_slots.get() + size, m_slots.get());
}

std::size_t Storage::roomFor(int keys)
{
    const std::size_t perMap = std::size_t(std::max(keys, 0)) *
                               (sizeof(Entry) + (1 + kPairRoomPerKey) * sizeof(std::int32_t));
    return roomBytes(kMapCount * perMap);
}

void Storage::reserve(int keys, std::byte *room)
{
    keys = std::max(keys, 0);
    if (m_reservedKeys > 0) { // the first call placed the maps; more room comes from the heap
        for (Map &m : m_maps) {
            m.entries.reserve(std::size_t(keys));
            m.direct.resize(std::size_t(keys), 0);
        }
        m_reservedKeys = std::max(m_reservedKeys, keys);
        return;
    }
    if (keys == 0)
        return;
    if (room == nullptr)
        room = m_ownRoom.make(roomFor(keys));
    // The entries first (their alignment is the room's), then the int-key and pair tables.
    const std::size_t pairRoom = std::size_t(keys) * kPairRoomPerKey;
    std::byte *tables = room + kMapCount * std::size_t(keys) * sizeof(Entry);
    for (Map &m : m_maps) {
        if (m.entries.capacity() == 0)
            m.entries.place(room, std::size_t(keys));
        room += std::size_t(keys) * sizeof(Entry);
        if (m.direct.capacity() == 0)
            m.direct.place(tables, std::size_t(keys));
        tables += std::size_t(keys) * sizeof(std::int32_t);
        if (m.pairs.capacity() == 0)
            m.pairs.place(tables, pairRoom);
        tables += pairRoom * sizeof(std::int32_t);
        // Sized, not only reserved: a set of a key below it then finds its place inline (0 marks
        // an absent key) instead of growing the table one key at a time.
        m.direct.resize(std::size_t(keys), 0);
    }
    m_reservedKeys = keys;
}

void Storage::lookAhead(const KeyTrail &trail, int depth) const
{
    for (int i = 0; i < trail.count; ++i) {
        const KeyTrail::Item &item = trail.items[i];
        const Map &m = slot(item.map);
        const std::int32_t *place = nullptr;
        if (!item.pair) {
            if (std::size_t(item.a) < m.direct.size())
                place = &m.direct[std::size_t(item.a)];
        } else if (const std::size_t at = std::size_t(item.a) * m.pairStride + std::size_t(item.b);
                   std::size_t(item.b) < m.pairStride && at < m.pairs.size()) {
            place = &m.pairs[at];
        }
        if (place == nullptr) {
            continue;
        } else if (depth <= 1) {
            __builtin_prefetch(place);
        } else if (*place <= 0) { // absent: a set appends its entry there
            if (depth == 2 && m.entries.size() < m.entries.capacity())
                __builtin_prefetch(m.entries.end());
        } else { // present in this rank's map
            const Entry &entry = m.entries[std::size_t(*place - 1)];
            if (depth == 2) {
                __builtin_prefetch(&entry.object);
                __builtin_prefetch(&entry.bytes); // (an entry may span two lines)
                // A delete moves the last entry into the freed place.
                __builtin_prefetch(&m.entries[m.entries.size() - 1]);
            } else {
                __builtin_prefetch(entry.object);
            }
        }
    }
}

void Storage::set(MapKind map, const Key &key, const Object *object)
{
    const std::int64_t bytes = memoryOf(*object, m_sizes);
    Map &m = slot(map);
    if (const std::int32_t at = position(m, key); at >= 0) {
        Entry &entry = m.entries[std::size_t(at)];
        m_memory += bytes - entry.bytes;
        entry.object = object;
        entry.bytes = bytes;
        return;
    }
    m_memory += bytes;
    setPosition(m, key, std::int32_t(m.entries.size()));
    m.entries.push_back(Entry{key, object, std::uint32_t(m_nextOrder++), 0, bytes});
}

bool Storage::erase(MapKind map, const Key &key)
{
    Map &m = slot(map);
    const std::int32_t at = position(m, key);
    if (at < 0)
        return false;
    m_memory -= m.entries[std::size_t(at)].bytes;
    setPosition(m, key, -1);
    // The last entry takes the freed place; iteration order comes from `order`, not the place.
    if (std::size_t(at) + 1 != m.entries.size()) {
        m.entries[std::size_t(at)] = std::move(m.entries.back());
        setPosition(m, m.entries[std::size_t(at)].key, at);
    }
    m.entries.pop_back();
    return true;
}

std::vector<std::pair<Key, const Object *>> Storage::entries(MapKind map) const
{
    std::vector<const Entry *> ordered;
    ordered.reserve(slot(map).entries.size());
    for (const Entry &entry : slot(map).entries)
        ordered.push_back(&entry);
    std::sort(ordered.begin(), ordered.end(),
              [](const Entry *a, const Entry *b) { return a->order < b->order; });
    std::vector<std::pair<Key, const Object *>> out;
    out.reserve(ordered.size());
    for (const Entry *entry : ordered)
        out.emplace_back(entry->key, entry->object);
    return out;
}

} // namespace rankstep::core
