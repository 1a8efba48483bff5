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
//
// The set is one word (an event holds two, and a run at 16,384 ranks records 18 million events):
// a range [begin, end) as begin in bits 1-31 and end in bits 32-63 with bit 0 clear, which holds
// every range of ints (0 <= begin < end <= INT_MAX); a bitset as its heap pointer with bit 0 set
// (new[] aligns it to 8 bytes), the word count in the block's first word, the members after it.
// The empty set is the range [0, 0), the word 0.
class IndexSet
{
public:
    IndexSet() = default;
    IndexSet(std::initializer_list<int> members)
    {
        if (members.size() != 1)
            insertAll(members);
        else if (const int member = *members.begin(); member >= 0)
            m_word = rangeWord(member, member + 1); // one shard or batch: the most common set
    }
    // Copies, moves and the destructor are inline: a range (nearly every set) copies as its one
    // word, and objects are copied on every operation (out of line they took 9 % of a run).
    IndexSet(const IndexSet &other) : m_word(other.m_word)
    {
        if (other.onHeap()) [[unlikely]]
            copyWords(other);
    }
    IndexSet(IndexSet &&other) noexcept : m_word(other.m_word) { other.m_word = 0; }
    IndexSet &operator=(const IndexSet &other)
    {
        if (this != &other)
            *this = IndexSet(other);
        return *this;
    }
    IndexSet &operator=(IndexSet &&other) noexcept
    {
        if (this != &other) {
            freeWords();
            m_word = other.m_word;
            other.m_word = 0;
        }
        return *this;
    }
    ~IndexSet() { freeWords(); }

    // [begin, end). Inline, as size() and the rest of a range's fast paths below: every operation
    // makes or reads a few sets, and a call for each took 3 % of a reference puzzle's instructions.
    static IndexSet range(int begin, int end)
    {
        IndexSet set;
        if (end > begin && begin >= 0)
            set.m_word = rangeWord(begin, end);
        return set;
    }
    static IndexSet fromVector(const std::vector<int> &members);

    void insert(int index); // index >= 0; a negative index is no member and changes nothing
    bool contains(int index) const;
    int size() const { return isRange() ? rangeEnd() - rangeBegin() : countWords(); }
    bool onHeap() const { return (m_word & kHeapBit) != 0; } // the destructor frees the bitset
    bool empty() const { return m_word == 0; }
    // A range's bounds in one number, for a hash (a set on the heap gives its word count only).
    std::uint64_t rangeHint() const
    {
        return isRange() ? std::uint64_t(unsigned(rangeBegin())) << 32 | unsigned(rangeEnd())
                         : std::uint64_t(unsigned(wordCount())) << 32;
    }
    int first() const; // -1 when empty
    int last() const;  // -1 when empty

    IndexSet operator|(const IndexSet &other) const;
    // Two ranges that touch or overlap (the batches and shards a collective gathers, member by
    // member) unite in place; any other union is operator|'s.
    IndexSet &operator|=(const IndexSet &other)
    {
        if (isRange() && other.isRange() && !empty() && !other.empty()) {
            const int begin = rangeBegin(), end = rangeEnd();
            const int otherBegin = other.rangeBegin(), otherEnd = other.rangeEnd();
            if (begin <= otherEnd && otherBegin <= end) {
                m_word = rangeWord(std::min(begin, otherBegin), std::max(end, otherEnd));
                return *this;
            }
        }
        return *this = *this | other;
    }
    IndexSet operator&(const IndexSet &other) const;
    IndexSet minus(const IndexSet &other) const;
    bool isSubsetOf(const IndexSet &other) const;
    // Exactly {0, 1, ..., count - 1}.
    bool isPrefix(int count) const
    {
        return isRange() && rangeEnd() == count && (count == 0 || rangeBegin() == 0);
    }
    bool intersects(const IndexSet &other) const;
    bool operator==(const IndexSet &other) const
    {
        // Equal ranges are equal words; a range never equals a bitset (both forms are canonical).
        if (m_word == other.m_word)
            return true;
        return onHeap() && other.onHeap() && sameWords(other);
    }

    std::vector<int> toVector() const;

    template <typename F>
    void forEach(F &&visit) const
    {
        if (isRange()) {
            for (int i = rangeBegin(), end = rangeEnd(); i < end; ++i)
                visit(i);
            return;
        }
        const std::uint64_t *words = heapWords();
        for (int w = 0, count = wordCount(); w < count; ++w) {
            std::uint64_t bits = words[w];
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
        if (isRange()) {
            if (!empty())
                visit(rangeBegin(), rangeEnd());
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
    static constexpr std::uint64_t kHeapBit = 1;

    // 0 <= begin < end (or both 0): begin in bits 1-31, end in bits 32-63.
    static std::uint64_t rangeWord(int begin, int end)
    {
        return std::uint64_t(unsigned(end)) << 32 | std::uint64_t(unsigned(begin)) << 1;
    }
    bool isRange() const { return !onHeap(); }
    int rangeBegin() const { return int(std::uint32_t(m_word) >> 1); }
    int rangeEnd() const { return int(m_word >> 32); }
    // The heap block: its word count, then the members' words (the last one not 0).
    std::uint64_t *heapBlock() const
    {
        return reinterpret_cast<std::uint64_t *>(std::uintptr_t(m_word & ~kHeapBit));
    }
    const std::uint64_t *heapWords() const { return heapBlock() + 1; }
    void freeWords()
    {
        if (onHeap()) [[unlikely]]
            delete[] heapBlock();
    }
    void insertAll(std::initializer_list<int> members);
    void copyWords(const IndexSet &other);       // the bitset of a set that is no range
    int countWords() const;                      // size() of a set that is no range
    bool sameWords(const IndexSet &other) const; // == of two sets that are no ranges
    int wordCount() const;
    std::uint64_t word(int w) const; // the members in [64 w, 64 w + 64) as bits
    std::vector<std::uint64_t> bits() const;
    static IndexSet fromBits(std::vector<std::uint64_t> words);

    std::uint64_t m_word = 0; // bit 0 clear: the range; set: the heap block's address
};
static_assert(sizeof(IndexSet) == 8, "an event holds two sets and an object two: one word each");

// "{2, 3}", "{}" — the literal form used in messages that quote a set.
std::string formatSet(const IndexSet &set);
// Plain words: "batch 2", "batches 2 and 3", "batches 0-3", "batches 0, 2 and 5", "no batches".
std::string describeSet(const IndexSet &set, const std::string &singular,
                        const std::string &plural);

} // namespace rankstep::core
