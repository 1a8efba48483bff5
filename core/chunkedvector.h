// SPDX-License-Identifier: MIT
// A sequence that grows in fixed chunks: appending never moves what is already there, so a long
// run's trace never holds an old and a new copy of itself at once (a std::vector of 1.38 million
// storage changes held 143 MB twice while it doubled to 285 MB: most of the engine's peak memory,
// and a sixth of its time went to the kernel clearing those pages; issue 16).
#pragma once

#include "bigblocks.h"

#include <algorithm>
#include <compare>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace rankstep::core {

// Elements per chunk by default: as many as fill 4 MiB, two huge pages (core/bigblocks.h).
template <typename T>
inline constexpr std::size_t kChunkElements = sizeof(T) >= (std::size_t(4) << 20)
                                                  ? 1
                                                  : (std::size_t(4) << 20) / sizeof(T);

template <typename T, std::size_t Elements = kChunkElements<T>>
class ChunkedVector
{
public:
    static_assert(Elements > 0);
    static constexpr std::size_t kChunk = Elements; // elements per chunk

    template <bool Const>
    class Iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = std::conditional_t<Const, const T *, T *>;
        using reference = std::conditional_t<Const, const T &, T &>;
        using Owner = std::conditional_t<Const, const ChunkedVector, ChunkedVector>;

        Iterator() = default;
        Iterator(Owner *owner, std::size_t index) : m_owner(owner), m_index(index) {}
        operator Iterator<true>() const { return {m_owner, m_index}; } // NOLINT: as std's

        reference operator*() const { return (*m_owner)[m_index]; }
        pointer operator->() const { return &(*m_owner)[m_index]; }
        reference operator[](difference_type n) const { return (*m_owner)[m_index + n]; }
        Iterator &operator++() { return ++m_index, *this; }
        Iterator &operator--() { return --m_index, *this; }
        Iterator operator++(int) { return {m_owner, m_index++}; }
        Iterator operator--(int) { return {m_owner, m_index--}; }
        Iterator &operator+=(difference_type n) { return m_index += n, *this; }
        Iterator &operator-=(difference_type n) { return m_index -= n, *this; }
        friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
        friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
        friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const Iterator &a, const Iterator &b)
        {
            return difference_type(a.m_index) - difference_type(b.m_index);
        }
        friend bool operator==(const Iterator &a, const Iterator &b)
        {
            return a.m_index == b.m_index;
        }
        friend auto operator<=>(const Iterator &a, const Iterator &b)
        {
            return a.m_index <=> b.m_index;
        }

    private:
        Owner *m_owner = nullptr;
        std::size_t m_index = 0;
    };
    ChunkedVector() = default;
    ChunkedVector(std::initializer_list<T> values)
    {
        for (const T &value : values)
            push_back(value);
    }

    using iterator = Iterator<false>;
    using const_iterator = Iterator<true>;
    using value_type = T;
    using size_type = std::size_t;

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }

    T &operator[](std::size_t i) { return m_chunks[i / kChunk][i % kChunk]; }
    const T &operator[](std::size_t i) const { return m_chunks[i / kChunk][i % kChunk]; }
    T &at(std::size_t i)
    {
        if (i >= m_size)
            throw std::out_of_range("ChunkedVector::at");
        return (*this)[i];
    }
    const T &at(std::size_t i) const
    {
        if (i >= m_size)
            throw std::out_of_range("ChunkedVector::at");
        return (*this)[i];
    }
    T &front() { return (*this)[0]; }
    const T &front() const { return (*this)[0]; }
    T &back() { return m_chunks.back().back(); }
    const T &back() const { return m_chunks.back().back(); }

    iterator begin() { return {this, 0}; }
    iterator end() { return {this, m_size}; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, m_size}; }
    std::reverse_iterator<iterator> rbegin() { return std::reverse_iterator<iterator>(end()); }
    std::reverse_iterator<iterator> rend() { return std::reverse_iterator<iterator>(begin()); }
    std::reverse_iterator<const_iterator> rbegin() const
    {
        return std::reverse_iterator<const_iterator>(end());
    }
    std::reverse_iterator<const_iterator> rend() const
    {
        return std::reverse_iterator<const_iterator>(begin());
    }

    // The first chunk grows as a vector does (a short run takes little); later ones are made
    // whole, once.
    template <typename... Args>
    T &emplace_back(Args &&...args)
    {
        if (m_chunks.empty() || m_chunks.back().size() == kChunk) [[unlikely]]
            addChunk();
        ++m_size;
        return m_chunks.back().emplace_back(std::forward<Args>(args)...);
    }
    void push_back(const T &value) { emplace_back(value); }
    void push_back(T &&value) { emplace_back(std::move(value)); }

    // Room for `count` elements in all: the chunks they need, made at once.
    void reserve(std::size_t count)
    {
        const std::size_t chunks = (count + kChunk - 1) / kChunk;
        m_chunks.reserve(chunks);
        if (m_chunks.empty() && count > 0)
            m_chunks.emplace_back().reserve(std::min(count, kChunk));
    }
    // `count` elements, default-made past the current end (a reader that knows the count).
    void resize(std::size_t count)
    {
        if (count < m_size) { // only shrinking to nothing is needed so far
            clear();
            if (count == 0)
                return;
        }
        while (m_size < count)
            emplace_back();
    }
    void clear()
    {
        m_chunks.clear();
        m_size = 0;
    }

    // The position of an element given by its address; size() when it is not one of these.
    std::size_t indexOf(const T *element) const
    {
        for (std::size_t c = 0; c < m_chunks.size(); ++c) {
            const T *first = m_chunks[c].data();
            if (element >= first && element < first + m_chunks[c].size())
                return c * kChunk + std::size_t(element - first);
        }
        return m_size;
    }

    bool operator==(const ChunkedVector &other) const
    {
        return m_size == other.m_size && m_chunks == other.m_chunks;
    }

private:
    // Out of the way of emplace_back, which every event and storage change of a run passes.
    [[gnu::noinline]] void addChunk()
    {
        m_chunks.emplace_back();
        if (m_chunks.size() > 1)
            m_chunks.back().reserve(kChunk);
    }
    // Whole chunks are big blocks (core/bigblocks.h): one page fault per 2 MiB written.
    std::vector<std::vector<T, BigBlockAllocator<T>>> m_chunks;
    std::size_t m_size = 0;
};

} // namespace rankstep::core
