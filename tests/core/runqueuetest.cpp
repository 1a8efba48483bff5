// SPDX-License-Identifier: MIT
// RunQueue (core/runqueue.h): the scheduler's first-in-first-out queue of ranks.
#include "core/runqueue.h"

#include <gtest/gtest.h>

#include <deque>

namespace rankstep::core {
namespace {

TEST(RunQueue, GivesRanksInTheOrderTheyCameAcrossEmptyingAndDroppingWhatWasRead)
{
    // Against std::deque, which the queue replaced: pushes and pops interleaved so that the
    // queue empties now and then, and for long stretches does not (where what was read goes).
    RunQueue queue;
    std::deque<int> expected;
    int next = 0;
    for (int round = 0; round < 40; ++round) {
        const int pushes = round % 5 == 4 ? 1 : 3000;
        for (int i = 0; i < pushes; ++i) {
            queue.push(next);
            expected.push_back(next++);
        }
        const int pops = round % 5 == 4 ? int(expected.size()) : 2000;
        for (int i = 0; i < pops; ++i) {
            ASSERT_FALSE(queue.empty());
            ASSERT_EQ(queue.pop(), expected.front()) << "round " << round << ", pop " << i;
            expected.pop_front();
        }
        ASSERT_EQ(queue.size(), expected.size());
        ASSERT_EQ(queue.empty(), expected.empty());
        // What comes next, without taking it (the scheduler looks ahead at the next ranks).
        for (std::size_t k = 0; k < expected.size() && k < 4; ++k)
            ASSERT_EQ(queue.peek(k), expected[k]) << "round " << round << ", place " << k;
    }
}

TEST(RunQueue, AQueueThatNeverEmptiesStaysTheSizeOfWhatItHolds)
{
    RunQueue queue;
    for (int r = 0; r < 100; ++r)
        queue.push(r);
    for (int step = 0; step < 100000; ++step) // a rank runs, and another becomes ready
        queue.push(queue.pop() + 100);
    EXPECT_EQ(queue.size(), 100u);
    EXPECT_LE(queue.places(), 2 * RunQueue::kMostRead);
    EXPECT_EQ(queue.pop(), 100000);
}

} // namespace
} // namespace rankstep::core
