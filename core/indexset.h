// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace rankstep::core {

// A set of small non-negative integers (batch numbers, shard numbers), stored as a bitset so
// that unions over a thousand ranks stay cheap. Equality ignores capacity.
class IndexSet
{
public:
    IndexSet() = default;
    IndexSet(std::initializer_list<int> members);
    static IndexSet range(int begin, int end); // [begin, end)
    static IndexSet fromVector(const std::vector<int> &members);

    void insert(int index); // index >= 0
    bool contains(int index) const;
    int size() const;
    bool empty() const;
    int first() const; // -1 when empty
    int last() const;  // -1 when empty

    IndexSet operator|(const IndexSet &other) const;
    IndexSet &operator|=(const IndexSet &other);
    IndexSet operator&(const IndexSet &other) const;
    IndexSet minus(const IndexSet &other) const;
    bool isSubsetOf(const IndexSet &other) const;
    // Exactly {0, 1, ..., count - 1}.
    bool isPrefix(int count) const;
    bool intersects(const IndexSet &other) const;
    bool operator==(const IndexSet &other) const;

    std::vector<int> toVector() const;

    template <typename F>
    void forEach(F &&visit) const
    {
        for (std::size_t w = 0; w < m_words.size(); ++w) {
            std::uint64_t bits = m_words[w];
            while (bits != 0) {
                const int bit = __builtin_ctzll(bits);
                visit(int(w * 64) + bit);
                bits &= bits - 1;
            }
        }
    }

private:
    void trim();
    std::vector<std::uint64_t> m_words;
};

// "{2, 3}", "{}" — the literal form used in messages that quote a set.
std::string formatSet(const IndexSet &set);
// Plain words: "batch 2", "batches 2 and 3", "batches 0-3", "batches 0, 2 and 5", "no batches".
std::string describeSet(const IndexSet &set, const std::string &singular, const std::string &plural);

} // namespace rankstep::core
