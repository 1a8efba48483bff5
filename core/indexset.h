// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace rankstep::core {

// A set of small non-negative integers (batch numbers, shard numbers). A contiguous set (one
// shard, every shard, a run of batches: nearly every set a run holds) is kept as a range in the
// object itself; any other set as a bitset on the heap, so that unions over a thousand ranks stay
// cheap. Either way the form is canonical, so equal sets compare equal member for member.
class IndexSet
{
public:
    IndexSet() = default;
    IndexSet(std::initializer_list<int> members)
    {
        if (members.size() != 1) {
            insertAll(members);
        } else if (const int member = *members.begin(); member >= 0) {
            m_begin = member; // one shard or batch: the set most operations make
            m_end = member + 1;
        }
    }
    // Copies, moves and the destructor are inline: a range (nearly every set) copies as its two
    // ints, and objects are copied on every operation (out of line they took 9 % of a run).
    IndexSet(const IndexSet &other) : m_begin(other.m_begin), m_end(other.m_end)
    {
        if (other.m_words) [[unlikely]]
            copyWords(other);
    }
    IndexSet(IndexSet &&other) noexcept
        : m_words(other.m_words), m_begin(other.m_begin), m_end(other.m_end)
    {
        other.m_words = nullptr;
        other.m_begin = other.m_end = 0;
    }
    IndexSet &operator=(const IndexSet &other)
    {
        if (this != &other)
            *this = IndexSet(other);
        return *this;
    }
    IndexSet &operator=(IndexSet &&other) noexcept
    {
        if (this != &other) {
            delete[] m_words;
            m_words = other.m_words;
            m_begin = other.m_begin;
            m_end = other.m_end;
            other.m_words = nullptr;
            other.m_begin = other.m_end = 0;
        }
        return *this;
    }
    ~IndexSet() { delete[] m_words; }

    // [begin, end). Inline, as size() and the rest of a range's fast paths below: every operation
    // makes or reads a few sets, and a call for each took 3 % of a reference puzzle's instructions.
    static IndexSet range(int begin, int end)
    {
        IndexSet set;
        if (end > begin && begin >= 0) {
            set.m_begin = begin;
            set.m_end = end;
        }
        return set;
    }
    static IndexSet fromVector(const std::vector<int> &members);

    void insert(int index); // index >= 0
    bool contains(int index) const;
    int size() const { return isRange() ? m_end - m_begin : countWords(); }
    bool onHeap() const { return m_words != nullptr; } // the destructor frees the members' bitset
    bool empty() const { return m_words == nullptr && m_begin == m_end; }
    // A range's bounds in one number, for a hash (a set on the heap gives its word count only).
    std::uint64_t rangeHint() const
    {
        return std::uint64_t(unsigned(m_begin)) << 32 | unsigned(m_words ? 0 : m_end);
    }
    int first() const; // -1 when empty
    int last() const;  // -1 when empty

    IndexSet operator|(const IndexSet &other) const;
    // Two ranges that touch or overlap (the batches and shards a collective gathers, member by
    // member) unite in place; any other union is operator|'s.
    IndexSet &operator|=(const IndexSet &other)
    {
        if (isRange() && other.isRange() && m_begin < m_end && other.m_begin < other.m_end &&
            m_begin <= other.m_end && other.m_begin <= m_end) {
            m_begin = std::min(m_begin, other.m_begin);
            m_end = std::max(m_end, other.m_end);
            return *this;
        }
        return *this = *this | other;
    }
    IndexSet operator&(const IndexSet &other) const;
    IndexSet minus(const IndexSet &other) const;
    bool isSubsetOf(const IndexSet &other) const;
    // Exactly {0, 1, ..., count - 1}.
    bool isPrefix(int count) const
    {
        return isRange() && m_end == count && (count == 0 || m_begin == 0);
    }
    bool intersects(const IndexSet &other) const;
    bool operator==(const IndexSet &other) const
    {
        if (isRange() != other.isRange() || m_begin != other.m_begin)
            return false;
        return isRange() ? m_end == other.m_end : sameWords(other);
    }

    std::vector<int> toVector() const;

    template <typename F>
    void forEach(F &&visit) const
    {
        if (m_words == nullptr) {
            for (int i = m_begin; i < m_end; ++i)
                visit(i);
            return;
        }
        for (int w = 0; w < m_begin; ++w) {
            std::uint64_t bits = m_words[w];
            while (bits != 0) {
                const int bit = __builtin_ctzll(bits);
                visit(w * 64 + bit);
                bits &= bits - 1;
            }
        }
    }

    // Each maximal run of consecutive members, in order, as visit(begin, end) for [begin, end):
    // once for a contiguous set, without visiting its members one by one.
    template <typename F>
    void forEachRun(F &&visit) const
    {
        if (m_words == nullptr) {
            if (m_begin < m_end)
                visit(m_begin, m_end);
            return;
        }
        int begin = -1, end = -1;
        forEach([&](int member) {
            if (member == end) {
                ++end;
                return;
            }
            if (begin >= 0)
                visit(begin, end);
            begin = member;
            end = member + 1;
        });
        if (begin >= 0)
            visit(begin, end);
    }

private:
    bool isRange() const { return m_words == nullptr; }
    void insertAll(std::initializer_list<int> members);
    void copyWords(const IndexSet &other);       // the bitset of a set that is no range
    int countWords() const;                      // size() of a set that is no range
    bool sameWords(const IndexSet &other) const; // == of two sets that are no ranges
    int wordCount() const;
    std::uint64_t word(int w) const; // the members in [64 w, 64 w + 64) as bits
    std::vector<std::uint64_t> bits() const;
    static IndexSet fromBits(std::vector<std::uint64_t> words);

    std::uint64_t *m_words = nullptr; // null: the range [m_begin, m_end)
    int m_begin = 0;                  // with m_words: how many words (the last one not 0)
    int m_end = 0;
};

// "{2, 3}", "{}" — the literal form used in messages that quote a set.
std::string formatSet(const IndexSet &set);
// Plain words: "batch 2", "batches 2 and 3", "batches 0-3", "batches 0, 2 and 5", "no batches".
std::string describeSet(const IndexSet &set, const std::string &singular,
                        const std::string &plural);

} // namespace rankstep::core
