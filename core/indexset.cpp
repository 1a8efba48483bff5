// SPDX-License-Identifier: MIT
#include "indexset.h"

#include <algorithm>
#include <bit>

namespace rankstep::core {

IndexSet::IndexSet(std::initializer_list<int> members)
{
    for (int m : members)
        insert(m);
}

IndexSet IndexSet::range(int begin, int end)
{
    IndexSet set;
    if (end <= begin || begin < 0)
        return set;
    set.m_words.assign(std::size_t(end - 1) / 64 + 1, 0);
    for (int i = begin; i < end;) {
        const auto word = std::size_t(i) / 64;
        const int bit = i % 64;
        const int span = std::min(64 - bit, end - i);
        const std::uint64_t mask = span == 64 ? ~std::uint64_t(0)
                                              : ((std::uint64_t(1) << span) - 1) << bit;
        set.m_words[word] |= mask;
        i += span;
    }
    return set;
}

bool IndexSet::isPrefix(int count) const
{
    return size() == count && (count == 0 || last() == count - 1);
}

IndexSet IndexSet::fromVector(const std::vector<int> &members)
{
    IndexSet set;
    for (int m : members)
        set.insert(m);
    return set;
}

void IndexSet::insert(int index)
{
    const auto word = std::size_t(index) / 64;
    if (word >= m_words.size())
        m_words.resize(word + 1, 0);
    m_words[word] |= std::uint64_t(1) << (std::size_t(index) % 64);
}

bool IndexSet::contains(int index) const
{
    if (index < 0)
        return false;
    const auto word = std::size_t(index) / 64;
    return word < m_words.size() && (m_words[word] >> (std::size_t(index) % 64) & 1U) != 0;
}

int IndexSet::size() const
{
    int count = 0;
    for (auto w : m_words)
        count += std::popcount(w);
    return count;
}

bool IndexSet::empty() const
{
    return std::all_of(m_words.begin(), m_words.end(), [](std::uint64_t w) { return w == 0; });
}

int IndexSet::first() const
{
    for (std::size_t w = 0; w < m_words.size(); ++w)
        if (m_words[w] != 0)
            return int(w * 64) + std::countr_zero(m_words[w]);
    return -1;
}

int IndexSet::last() const
{
    for (std::size_t w = m_words.size(); w-- > 0;)
        if (m_words[w] != 0)
            return int(w * 64) + 63 - std::countl_zero(m_words[w]);
    return -1;
}

IndexSet IndexSet::operator|(const IndexSet &other) const
{
    IndexSet result = *this;
    result |= other;
    return result;
}

IndexSet &IndexSet::operator|=(const IndexSet &other)
{
    if (other.m_words.size() > m_words.size())
        m_words.resize(other.m_words.size(), 0);
    for (std::size_t w = 0; w < other.m_words.size(); ++w)
        m_words[w] |= other.m_words[w];
    return *this;
}

IndexSet IndexSet::operator&(const IndexSet &other) const
{
    IndexSet result;
    result.m_words.resize(std::min(m_words.size(), other.m_words.size()));
    for (std::size_t w = 0; w < result.m_words.size(); ++w)
        result.m_words[w] = m_words[w] & other.m_words[w];
    result.trim();
    return result;
}

IndexSet IndexSet::minus(const IndexSet &other) const
{
    IndexSet result = *this;
    for (std::size_t w = 0; w < std::min(m_words.size(), other.m_words.size()); ++w)
        result.m_words[w] &= ~other.m_words[w];
    result.trim();
    return result;
}

bool IndexSet::isSubsetOf(const IndexSet &other) const
{
    for (std::size_t w = 0; w < m_words.size(); ++w) {
        const std::uint64_t theirs = w < other.m_words.size() ? other.m_words[w] : 0;
        if ((m_words[w] & ~theirs) != 0)
            return false;
    }
    return true;
}

bool IndexSet::intersects(const IndexSet &other) const
{
    for (std::size_t w = 0; w < std::min(m_words.size(), other.m_words.size()); ++w)
        if ((m_words[w] & other.m_words[w]) != 0)
            return true;
    return false;
}

bool IndexSet::operator==(const IndexSet &other) const
{
    const std::size_t n = std::max(m_words.size(), other.m_words.size());
    for (std::size_t w = 0; w < n; ++w) {
        const std::uint64_t a = w < m_words.size() ? m_words[w] : 0;
        const std::uint64_t b = w < other.m_words.size() ? other.m_words[w] : 0;
        if (a != b)
            return false;
    }
    return true;
}

std::vector<int> IndexSet::toVector() const
{
    std::vector<int> out;
    out.reserve(std::size_t(size()));
    forEach([&](int i) { out.push_back(i); });
    return out;
}

void IndexSet::trim()
{
    while (!m_words.empty() && m_words.back() == 0)
        m_words.pop_back();
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
        return plural + " " + std::to_string(members.front()) + "-" + std::to_string(members.back());
    std::string text = plural + " ";
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (i > 0)
            text += i + 1 == members.size() ? " and " : ", ";
        text += std::to_string(members[i]);
    }
    return text;
}

} // namespace rankstep::core
