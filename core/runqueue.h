// SPDX-License-Identifier: MIT
// The scheduler's ranks ready to run, first in first out (core/scheduler.cpp). A vector read from
// its first unread place on: the std::deque it replaces made two allocations in every run before
// a rank ran, which a short run notices. What was read goes when the queue empties, or once it is
// at least 4,096 places and half the vector, so a queue that never empties (many ranks, a long run)
// stays the size of what it holds.
#pragma once

#include <cstddef>
#include <vector>

namespace rankstep::core {

class RunQueue
{
public:
    bool empty() const { return m_first == m_ranks.size(); }
    std::size_t size() const { return m_ranks.size() - m_first; }
    // Places the vector holds, read or not: what the queue costs in memory.
    std::size_t places() const { return m_ranks.size(); }
    void reserve(std::size_t count) { m_ranks.reserve(count); }
    void push(int rank) { m_ranks.push_back(rank); }
    // The rank `k` places after the first (0: the first), k < size().
    int peek(std::size_t k) const { return m_ranks[m_first + k]; }
    // The rank that came first; the queue must not be empty.
    int pop()
    {
        const int rank = m_ranks[m_first++];
        if (m_first == m_ranks.size()) {
            m_ranks.clear();
            m_first = 0;
        } else if (m_first >= kMostRead && 2 * m_first >= m_ranks.size()) {
            m_ranks.erase(m_ranks.begin(), m_ranks.begin() + std::ptrdiff_t(m_first));
            m_first = 0;
        }
        return rank;
    }

    static constexpr std::size_t kMostRead = 4096;

private:
    std::vector<int> m_ranks;
    std::size_t m_first = 0; // the first place not read yet
};

} // namespace rankstep::core
