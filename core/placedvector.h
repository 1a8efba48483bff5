// SPDX-License-Identifier: MIT
// A vector that can start in room someone else owns: a small run's engine gives each rank's
// storage tables their first places in one block for all ranks, where ten vectors per rank took
// ten allocations each run and ten frees (13 % of the instructions of the basic puzzle's run). Past
// that room it grows on the heap as std::vector does. The room must outlive the vector's use of it:
// until the vector has grown out of it, or is destroyed. A run's record starts its event, change
// and slice lists in such room too (core/chunkedvector.h), with PlacedRoom below as the block's
// owner.
#pragma once

#include "bigblocks.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>

namespace rankstep::core {

template <typename T>
class PlacedVector
{
public:
    PlacedVector() = default;
    PlacedVector(const PlacedVector &other) // a copy owns its places: the room is not shared
    {
        reserve(other.m_size);
        for (const T &value : other)
            push_back(value);
    }
    PlacedVector(PlacedVector &&other) noexcept
        : m_data(std::exchange(other.m_data, nullptr))
        , m_size(std::exchange(other.m_size, 0))
        , m_capacity(std::exchange(other.m_capacity, 0))
        , m_owned(std::exchange(other.m_owned, false))
    {}
    // For copies and moves alike: what this held is destroyed (and freed, when it owns its
    // places) before the assignment returns, so room it was placed in must still be there.
    PlacedVector &operator=(PlacedVector other) noexcept
    {
        swap(other);
        return *this;
    }
    ~PlacedVector()
    {
        clear();
        release();
    }
    void swap(PlacedVector &other) noexcept
    {
        std::swap(m_data, other.m_data);
        std::swap(m_size, other.m_size);
        std::swap(m_capacity, other.m_capacity);
        std::swap(m_owned, other.m_owned);
    }

    // Starts an empty vector with no places yet in `room`, which has space and alignment for
    // `capacity` elements.
    void place(void *room, std::size_t capacity)
    {
        if (m_data != nullptr || capacity == 0)
            return;
        m_data = static_cast<T *>(room);
        m_capacity = std::uint32_t(capacity);
        m_owned = false;
    }

    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_capacity; }
    bool empty() const { return m_size == 0; }
    T &operator[](std::size_t i) { return m_data[i]; }
    const T &operator[](std::size_t i) const { return m_data[i]; }
    T &back() { return m_data[m_size - 1]; }
    T *begin() { return m_data; }
    T *end() { return m_data + m_size; }
    const T *begin() const { return m_data; }
    const T *end() const { return m_data + m_size; }

    void push_back(const T &value) { emplace_back(value); }
    void push_back(T &&value) { emplace_back(std::move(value)); }
    template <typename... Args>
    T &emplace_back(Args &&...args)
    {
        if (m_size == m_capacity) [[unlikely]]
            reserve(std::max<std::size_t>(8, 2 * std::size_t(m_capacity)));
        T *made = ::new (static_cast<void *>(m_data + m_size)) T(std::forward<Args>(args)...);
        ++m_size;
        return *made;
    }
    void pop_back() { m_data[--m_size].~T(); }
    // Grows with copies of `value`; never shrinks (none of its users shrinks a table). Past its
    // places it at least doubles them, as emplace_back does: a table grown a key at a time
    // (weights[0], weights[1], ...) moves a few times, not at every key.
    void resize(std::size_t count, const T &value)
    {
        if (count <= m_size)
            return;
        if (count > m_capacity)
            reserve(std::max(count, 2 * std::size_t(m_capacity)));
        std::uninitialized_fill(m_data + m_size, m_data + count, value);
        m_size = std::uint32_t(count);
    }
    void reserve(std::size_t count)
    {
        if (count <= m_capacity || count < m_size) // (the second never holds; GCC 12 warns without)
            return;
        T *fresh = static_cast<T *>(::operator new(count * sizeof(T)));
        for (std::uint32_t i = 0; i < m_size; ++i) {
            ::new (static_cast<void *>(fresh + i)) T(std::move(m_data[i]));
            m_data[i].~T();
        }
        release();
        m_data = fresh;
        m_capacity = std::uint32_t(count);
        m_owned = true;
    }
    void clear()
    {
        std::destroy(begin(), end());
        m_size = 0;
    }

private:
    void release()
    {
        if (m_owned)
            ::operator delete(m_data);
        m_data = nullptr;
        m_capacity = 0;
        m_owned = false;
    }

    T *m_data = nullptr;
    std::uint32_t m_size = 0;
    std::uint32_t m_capacity = 0;
    bool m_owned = false; // false: the places are in room given to place(), or there are none
};

// `bytes` rounded up to a multiple of alignof(std::max_align_t): each part of a room starts
// aligned for any object.
constexpr std::size_t roomBytes(std::size_t bytes)
{
    constexpr std::size_t unit = alignof(std::max_align_t);
    return (bytes + unit - 1) / unit * unit;
}

// The owner of a block that PlacedVectors are placed in, as a member declared before them, so
// that it goes after them. A copy has none (copied PlacedVectors own their places). A move
// assignment swaps the blocks: the old one, now the other's, is still there when the members
// placed in it let go of their old places, later in the same assignment.
class PlacedRoom
{
public:
    PlacedRoom() = default;
    PlacedRoom(const PlacedRoom &) {}
    PlacedRoom(PlacedRoom &&other) noexcept
        : m_bytes(std::exchange(other.m_bytes, nullptr)), m_size(std::exchange(other.m_size, 0))
    {}
    PlacedRoom &operator=(const PlacedRoom &) { return *this; }
    PlacedRoom &operator=(PlacedRoom &&other) noexcept
    {
        std::swap(m_bytes, other.m_bytes);
        std::swap(m_size, other.m_size);
        return *this;
    }
    ~PlacedRoom() { reset(); }

    // A new block of `size` bytes aligned for any object (a block of a megabyte or more on
    // whole huge pages: core/bigblocks.h), in place of the old one, which nothing must use.
    std::byte *make(std::size_t size)
    {
        reset();
        m_bytes = static_cast<std::byte *>(allocateBig(size));
        m_size = size;
        return m_bytes;
    }

private:
    void reset() noexcept
    {
        if (m_bytes != nullptr)
            releaseBig(m_bytes, m_size);
        m_bytes = nullptr;
        m_size = 0;
    }
    std::byte *m_bytes = nullptr;
    std::size_t m_size = 0;
};

} // namespace rankstep::core
