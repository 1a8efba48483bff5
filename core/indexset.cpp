// SPDX-License-Identifier: MIT
#include "indexset.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

namespace rankstep::core {

void IndexSet::insertAll(std::initializer_list<int> members)
{
    for (int m : members)
        insert(m);
}

void IndexSet::copyWords(const IndexSet &other)
{
    const std::size_t count = std::size_t(other.wordCount()) + 1;
    auto *block = new std::uint64_t[count];
    std::memcpy(block, other.heapBlock(), count * sizeof(std::uint64_t));
    m_word = std::uint64_t(reinterpret_cast<std::uintptr_t>(block)) | kHeapBit;
}

IndexSet IndexSet::fromVector(const std::vector<int> &members)
{
    IndexSet set;
    for (int m : members)
        set.insert(m);
    return set;
}

int IndexSet::wordCount() const
{
    if (onHeap())
        return int(heapBlock()[0]);
    return empty() ? 0 : (rangeEnd() - 1) / 64 + 1;
}

std::uint64_t IndexSet::word(int w) const
{
    if (onHeap())
        return w < wordCount() ? heapWords()[w] : 0;
    const int low = std::max(rangeBegin(), w * 64);
    const int high = std::min(rangeEnd(), w * 64 + 64);
    if (low >= high)
        return 0;
    const int span = high - low;
    const std::uint64_t mask = span == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << span) - 1;
    return mask << (low - w * 64);
}

std::vector<std::uint64_t> IndexSet::bits() const
{
    std::vector<std::uint64_t> out(static_cast<std::size_t>(wordCount()));
    for (std::size_t w = 0; w < out.size(); ++w)
        out[w] = word(int(w));
    return out;
}

IndexSet IndexSet::fromBits(std::vector<std::uint64_t> words)
{
    while (!words.empty() && words.back() == 0)
        words.pop_back();
    IndexSet set;
    if (words.empty())
        return set;
    int count = 0;
    for (auto w : words)
        count += std::popcount(w);
    std::size_t firstWord = 0;
    while (words[firstWord] == 0)
        ++firstWord;
    const int first = int(firstWord * 64) + std::countr_zero(words[firstWord]);
    const int last = int((words.size() - 1) * 64) + 63 - std::countl_zero(words.back());
    if (last - first + 1 == count)
        return range(first, last + 1);
    auto *block = new std::uint64_t[words.size() + 1];
    block[0] = words.size();
    std::memcpy(block + 1, words.data(), words.size() * sizeof(std::uint64_t));
    set.m_word = std::uint64_t(reinterpret_cast<std::uintptr_t>(block)) | kHeapBit;
    return set;
}

void IndexSet::insert(int index)
{
    if (index < 0) [[unlikely]]
        return; // no member (and a range's word cannot hold it)
    if (isRange()) {
        const int begin = rangeBegin(), end = rangeEnd();
        if (begin == end) {
            *this = range(index, index + 1);
            return;
        }
        if (index >= begin && index < end)
            return;
        if (index == end || index == begin - 1) {
            m_word = rangeWord(std::min(begin, index), std::max(end, index + 1));
            return;
        }
    }
    std::vector<std::uint64_t> words = bits();
    const auto w = std::size_t(index) / 64;
    if (w >= words.size())
        words.resize(w + 1, 0);
    words[w] |= std::uint64_t(1) << (std::size_t(index) % 64);
    *this = fromBits(std::move(words));
}

bool IndexSet::contains(int index) const
{
    if (index < 0)
        return false;
    if (isRange())
        return index >= rangeBegin() && index < rangeEnd();
    return (word(index / 64) >> (index % 64) & 1U) != 0;
}

int IndexSet::countWords() const
{
    int count = 0;
    const std::uint64_t *words = heapWords();
    for (int w = 0, n = wordCount(); w < n; ++w)
        count += std::popcount(words[w]);
    return count;
}

int IndexSet::first() const
{
    if (isRange())
        return empty() ? -1 : rangeBegin();
    const std::uint64_t *words = heapWords();
    for (int w = 0, n = wordCount(); w < n; ++w)
        if (words[w] != 0)
            return w * 64 + std::countr_zero(words[w]);
    return -1;
}

int IndexSet::last() const
{
    if (isRange())
        return empty() ? -1 : rangeEnd() - 1;
    const int n = wordCount();
    return (n - 1) * 64 + 63 - std::countl_zero(heapWords()[n - 1]);
}

IndexSet IndexSet::operator|(const IndexSet &other) const
{
    if (other.empty())
        return *this;
    if (empty())
        return other;
    if (isRange() && other.isRange() && rangeBegin() <= other.rangeEnd() &&
        other.rangeBegin() <= rangeEnd())
        return range(std::min(rangeBegin(), other.rangeBegin()),
                     std::max(rangeEnd(), other.rangeEnd()));
    std::vector<std::uint64_t> words(std::size_t(std::max(wordCount(), other.wordCount())));
    for (std::size_t w = 0; w < words.size(); ++w)
        words[w] = word(int(w)) | other.word(int(w));
    return fromBits(std::move(words));
}

IndexSet IndexSet::operator&(const IndexSet &other) const
{
    if (isRange() && other.isRange())
        return range(std::max(rangeBegin(), other.rangeBegin()),
                     std::min(rangeEnd(), other.rangeEnd()));
    std::vector<std::uint64_t> words(std::size_t(std::min(wordCount(), other.wordCount())));
    for (std::size_t w = 0; w < words.size(); ++w)
        words[w] = word(int(w)) & other.word(int(w));
    return fromBits(std::move(words));
}

IndexSet IndexSet::minus(const IndexSet &other) const
{
    if (!intersects(other))
        return *this;
    if (isRange() && other.isRange()) {
        if (other.rangeBegin() <= rangeBegin())
            return range(std::max(rangeBegin(), other.rangeEnd()), rangeEnd());
        if (other.rangeEnd() >= rangeEnd())
            return range(rangeBegin(), other.rangeBegin());
    }
    std::vector<std::uint64_t> words = bits();
    for (std::size_t w = 0; w < words.size(); ++w)
        words[w] &= ~other.word(int(w));
    return fromBits(std::move(words));
}

bool IndexSet::isSubsetOf(const IndexSet &other) const
{
    if (empty())
        return true;
    if (other.isRange())
        return first() >= other.rangeBegin() && last() < other.rangeEnd();
    for (int w = 0; w < wordCount(); ++w)
        if ((word(w) & ~other.word(w)) != 0)
            return false;
    return true;
}

bool IndexSet::intersects(const IndexSet &other) const
{
    if (isRange() && other.isRange())
        return std::max(rangeBegin(), other.rangeBegin()) < std::min(rangeEnd(), other.rangeEnd());
    const int n = std::min(wordCount(), other.wordCount());
    for (int w = 0; w < n; ++w)
        if ((word(w) & other.word(w)) != 0)
            return true;
    return false;
}

bool IndexSet::sameWords(const IndexSet &other) const
{
    // The counts first: the block starts with its word count.
    const std::size_t count = std::size_t(wordCount()) + 1;
    return heapBlock()[0] == other.heapBlock()[0] &&
           std::memcmp(heapBlock(), other.heapBlock(), count * sizeof(std::uint64_t)) == 0;
}

std::vector<int> IndexSet::toVector() const
{
    std::vector<int> out;
    out.reserve(std::size_t(size()));
    forEach([&](int i) { out.push_back(i); });
    return out;
}

std::string formatSet(const IndexSet &set)
{
    std::string text = "{";
    bool firstMember = true;
    set.forEach([&](int i) {
        if (!firstMember)
            text += ", ";
        text += std::to_string(i);
        firstMember = false;
    });
    return text + "}";
}

std::string describeSet(const IndexSet &set, const std::string &singular, const std::string &plural)
{
    const std::vector<int> members = set.toVector();
    if (members.empty())
        return "no " + plural;
    if (members.size() == 1)
        return singular + " " + std::to_string(members[0]);
    const bool contiguous = members.back() - members.front() + 1 == int(members.size());
    if (contiguous && members.size() > 2)
        return plural + " " + std::to_string(members.front()) + "-" +
               std::to_string(members.back());
    std::string text = plural + " ";
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (i > 0)
            text += i + 1 == members.size() ? " and " : ", ";
        text += std::to_string(members[i]);
    }
    return text;
}

} // namespace rankstep::core
