// SPDX-License-Identifier: MIT
// A sequence that grows in fixed chunks: appending never moves what is already there, so a long
// run's trace never holds an old and a new copy of itself at once (a std::vector of 1.38 million
// storage changes held 143 MB twice while it doubled to 285 MB: most of the engine's peak memory,
// and a sixth of its time went to the kernel clearing those pages).
#pragma once

#include "bigblocks.h"
#include "placedvector.h"

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace rankstep::core {

// Elements per chunk by default: as many as fill 4 MiB, two huge pages (core/bigblocks.h).
template <typename T>
inline constexpr std::size_t kChunkElements = sizeof(T) >= (std::size_t(4) << 20)
                                                  ? 1
                                                  : (std::size_t(4) << 20) / sizeof(T);

namespace detail {

// Places for up to `capacity` elements, in room someone else owns (a record's PlacedRoom) or a
// big block of their own (core/bigblocks.h). The elements in them are their user's to count.
template <typename T>
struct Places {
    T *data = nullptr;
    std::size_t capacity = 0;
    bool owned = false;

    static Places make(std::size_t capacity)
    {
        return {BigBlockAllocator<T>().allocate(capacity), capacity, true};
    }
    void release() noexcept
    {
        if (owned)
            BigBlockAllocator<T>().deallocate(data, capacity);
    }
};

// How many chunks (or blocks) a list placed in a record's room has room for: a short run fills
// its first one and never makes a second; and the bytes of that list.
inline constexpr std::size_t kPlacesListRoom = 4;
template <typename T>
inline constexpr std::size_t kPlacesListBytes = roomBytes(kPlacesListRoom * sizeof(Places<T>));

// Makes `capacity` places of their own the last of `list`; the list's room comes first, so that
// places made are never lost.
template <typename T>
Places<T> &addOwnPlaces(PlacedVector<Places<T>> &list, std::size_t capacity)
{
    if (list.size() == list.capacity())
        list.reserve(std::max<std::size_t>(8, 2 * list.size()));
    return list.emplace_back(Places<T>::make(capacity));
}

} // namespace detail

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
    ChunkedVector(const ChunkedVector &other)
    {
        reserve(other.m_size);
        for (const T &value : other)
            push_back(value);
    }
    ChunkedVector(ChunkedVector &&other) noexcept
        : m_chunks(std::move(other.m_chunks))
        , m_next(std::exchange(other.m_next, nullptr))
        , m_end(std::exchange(other.m_end, nullptr))
        , m_size(std::exchange(other.m_size, 0))
    {}
    // For copies and moves alike: what this held is destroyed before the assignment returns, so
    // room it was placed in must still be there (core/placedvector.h, PlacedRoom).
    ChunkedVector &operator=(ChunkedVector other) noexcept
    {
        swap(other);
        return *this;
    }
    ~ChunkedVector() { clear(); }
    void swap(ChunkedVector &other) noexcept
    {
        m_chunks.swap(other.m_chunks);
        std::swap(m_next, other.m_next);
        std::swap(m_end, other.m_end);
        std::swap(m_size, other.m_size);
    }

    using iterator = Iterator<false>;
    using const_iterator = Iterator<true>;
    using value_type = T;
    using size_type = std::size_t;

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }

    T &operator[](std::size_t i) { return m_chunks[i / kChunk].data[i % kChunk]; }
    const T &operator[](std::size_t i) const { return m_chunks[i / kChunk].data[i % kChunk]; }
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
    T &back() { return (*this)[m_size - 1]; }
    const T &back() const { return (*this)[m_size - 1]; }

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
    // whole, once. The next free place is at hand: one comparison per element (with a vector
    // per chunk, an event took five reads and two multiplications before its place was known).
    template <typename... Args>
    T &emplace_back(Args &&...args)
    {
        if (m_next == m_end) [[unlikely]]
            grow();
        // Where the list will be some elements on, asked for writing: a long run's record is
        // written into fresh memory, and each line of it the engine reached waited for memory
        // (docs/benchmarks.md, "What keeps them there").
        // Past the chunk's end it asks for nothing harmful: a prefetch never faults (an address,
        // not a pointer past its object).
        __builtin_prefetch(
            reinterpret_cast<const void *>(reinterpret_cast<std::uintptr_t>(m_next) + kWriteAhead),
            1);
        T *made = ::new (static_cast<void *>(m_next)) T(std::forward<Args>(args)...);
        ++m_next;
        ++m_size;
        return *made;
    }
    void push_back(const T &value) { emplace_back(value); }
    void push_back(T &&value) { emplace_back(std::move(value)); }

    // Room for `count` elements in all: the first chunk's places at once (later chunks are made
    // whole when they are needed).
    void reserve(std::size_t count)
    {
        m_chunks.reserve((count + kChunk - 1) / kChunk);
        if (m_chunks.empty() && count > 0)
            startChunk(detail::addOwnPlaces(m_chunks, std::min(count, kChunk)));
    }
    // The bytes reserve(count, room) takes, a multiple of alignof(std::max_align_t).
    static std::size_t roomFor(std::size_t count)
    {
        return detail::kPlacesListBytes<T> + roomBytes(std::min(count, kChunk) * sizeof(T));
    }
    // reserve(count) for a vector that never held anything, in `room`: roomFor(count) bytes
    // aligned for any object that outlive this vector's use of them (its owner's PlacedRoom,
    // core/placedvector.h). A short run's record takes no allocation of its own for its lists
    // (each list took two, 8 % of the instructions of the basic puzzle's run).
    void reserve(std::size_t count, std::byte *room)
    {
        if (m_chunks.capacity() > 0 || count == 0) {
            reserve(count);
            return;
        }
        m_chunks.place(room, detail::kPlacesListRoom);
        room += detail::kPlacesListBytes<T>;
        startChunk(
            m_chunks.emplace_back(reinterpret_cast<T *>(room), std::min(count, kChunk), false));
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
        for (std::size_t c = 0; c < m_chunks.size(); ++c) {
            detail::Places<T> &chunk = m_chunks[c];
            std::destroy_n(chunk.data, inChunk(c));
            chunk.release();
        }
        forget();
    }
    // Empties it as clear() does, but without running the elements' destructors: only for
    // elements whose destructors would free nothing (the caller knows; ChangeLog::clear). A long
    // run's record is a hundred MB out of the cache, which destroying read back once more.
    void releaseWithoutDestroying()
    {
        for (std::size_t c = 0; c < m_chunks.size(); ++c)
            m_chunks[c].release();
        forget();
    }

    // Hands each element to `visit` in order and gives each chunk back once its elements were
    // visited, leaving the list empty: a long run's record is read once to be encoded, and its
    // chunks go back while the encoding grows, so the two never take their whole size at once
    // (cli/runnermain.cpp). `destroy` false: as releaseWithoutDestroying(). Should `visit`
    // throw, the rest is released as well.
    template <typename F>
    void drain(F &&visit, bool destroy = true)
    {
        std::size_t c = 0;
        try {
            for (; c < m_chunks.size(); ++c) {
                const detail::Places<T> &chunk = m_chunks[c];
                const std::size_t count = inChunk(c);
                for (std::size_t i = 0; i < count; ++i)
                    visit(static_cast<const T &>(chunk.data[i]));
                releaseChunk(c, destroy);
            }
        } catch (...) {
            for (; c < m_chunks.size(); ++c)
                releaseChunk(c, destroy);
            forget();
            throw;
        }
        forget();
    }

    // The position of an element given by its address; size() when it is not one of these.
    std::size_t indexOf(const T *element) const
    {
        for (std::size_t c = 0; c < m_chunks.size(); ++c) {
            const T *first = m_chunks[c].data;
            if (element >= first && element < first + inChunk(c))
                return c * kChunk + std::size_t(element - first);
        }
        return m_size;
    }

    bool operator==(const ChunkedVector &other) const
    {
        return m_size == other.m_size && std::equal(begin(), end(), other.begin());
    }

private:
    // How far ahead emplace_back asks for the list's place: eight cache lines (256 to 1024 bytes
    // measured alike).
    static constexpr std::size_t kWriteAhead = 512;
    void forget() // after every chunk's release
    {
        m_chunks.clear();
        m_next = m_end = nullptr;
        m_size = 0;
    }
    void releaseChunk(std::size_t c, bool destroy) noexcept
    {
        detail::Places<T> &chunk = m_chunks[c];
        if (destroy)
            std::destroy_n(chunk.data, inChunk(c));
        chunk.release();
    }
    std::size_t inChunk(std::size_t c) const // the elements chunk c holds
    {
        return std::min(kChunk, m_size - c * kChunk);
    }
    void startChunk(const detail::Places<T> &chunk) // the last chunk, empty
    {
        m_next = chunk.data;
        m_end = chunk.data + chunk.capacity;
    }
    // Out of the way of emplace_back, which every event and storage change of a run passes: the
    // first chunk doubles up to a whole one, and then a new chunk begins.
    [[gnu::noinline]] void grow()
    {
        if (m_chunks.empty()) {
            startChunk(detail::addOwnPlaces(m_chunks, std::min<std::size_t>(8, kChunk)));
            return;
        }
        detail::Places<T> &last = m_chunks[m_chunks.size() - 1];
        if (last.capacity >= kChunk) {
            startChunk(detail::addOwnPlaces(m_chunks, kChunk));
            return;
        }
        // Only the first chunk is ever short of a whole one.
        const auto wider = detail::Places<T>::make(std::min(2 * last.capacity, kChunk));
        std::uninitialized_move_n(last.data, m_size, wider.data);
        std::destroy_n(last.data, m_size);
        last.release();
        last = wider;
        m_next = wider.data + m_size;
        m_end = wider.data + wider.capacity;
    }

    // Whole chunks are big blocks (core/bigblocks.h): one page fault per 2 MiB written.
    PlacedVector<detail::Places<T>> m_chunks;
    T *m_next = nullptr; // the last chunk's first free place
    T *m_end = nullptr;  // the end of its places
    std::size_t m_size = 0;
};

} // namespace rankstep::core
