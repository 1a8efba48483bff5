// SPDX-License-Identifier: MIT
// The record's big blocks (core/bigblocks.h): usable memory, on a huge-page boundary and marked
// for transparent huge pages where the kernel has them; small blocks come from the heap; the next
// big block of a size is made ahead on a second thread, in a forked child too.
#include "core/bigblocks.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rankstep::core {
namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPlainBlocks = true;
#else
constexpr bool kPlainBlocks = false;
#endif

bool kernelHasHugePages()
{
    std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string modes;
    std::getline(file, modes);
    return !modes.empty() && modes.find("[never]") == std::string::npos;
}

// The smaps record of the mapping holding `address`, as text.
std::string mappingOf(const void *address)
{
    std::ifstream smaps("/proc/self/smaps");
    const auto target = reinterpret_cast<std::uintptr_t>(address);
    std::string line, record;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t from = 0, to = 0;
        char dash = 0;
        std::istringstream head(line);
        if (line.find('-') < 16 && (head >> std::hex >> from >> dash >> to) && dash == '-') {
            if (inside)
                return record;
            inside = target >= from && target < to;
        }
        if (inside)
            record += line + '\n';
    }
    return record;
}

// The number after `field` in an smaps record; -1 when absent.
int fieldOf(const std::string &record, const std::string &field)
{
    const std::size_t at = record.find(field);
    if (at == std::string::npos)
        return -1;
    std::istringstream value(record.substr(at + field.size()));
    int number = -1;
    value >> number;
    return number;
}

TEST(BigBlocks, ABigBlockIsWritableWholeAndStartsOnAHugePage)
{
    const std::size_t bytes = 3 * kMiB + 12345;
    auto *block = static_cast<unsigned char *>(allocateBig(bytes));
    ASSERT_NE(block, nullptr);
    std::memset(block, 0xab, bytes);
    EXPECT_EQ(block[0], 0xab);
    EXPECT_EQ(block[bytes - 1], 0xab);
    if (!kPlainBlocks) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % (2 * kMiB), 0U);
        if (kernelHasHugePages()) {
            EXPECT_EQ(fieldOf(mappingOf(block), "THPeligible:"), 1) << mappingOf(block);
        }
    }
    releaseBig(block, bytes);
}

TEST(BigBlocks, ASmallBlockComesFromTheHeapAndAVectorUsesTheAllocator)
{
    void *small = allocateBig(100);
    ASSERT_NE(small, nullptr);
    std::memset(small, 1, 100);
    releaseBig(small, 100);

    std::vector<int, BigBlockAllocator<int>> values;
    for (int i = 0; i < 1'000'000; ++i) // grows through small blocks into big ones
        values.push_back(i);
    EXPECT_EQ(values[999'999], 999'999);
    EXPECT_EQ(values.front(), 0);
}

// Asks for two blocks of `bytes`, letting the second thread finish between: the second must be one
// it made ahead, all zero and writable whole. Empty when so, else what went wrong.
std::string secondBlockComesMadeAhead(std::size_t bytes)
{
    const BigBlockCounts before = bigBlockCounts();
    auto *first = static_cast<unsigned char *>(allocateBig(bytes));
    waitForBlocksAhead();
    const BigBlockCounts between = bigBlockCounts();
    auto *second = static_cast<unsigned char *>(allocateBig(bytes));
    const BigBlockCounts after = bigBlockCounts();
    std::string wrong;
    if (between.madeAhead < before.madeAhead + 1)
        wrong += "no block was made ahead; ";
    if (after.takenAhead != between.takenAhead + 1)
        wrong += "the second block was not one made ahead; ";
    for (std::size_t at = 0; at < bytes; at += 4096)
        if (second[at] != 0 || second[at + 4095] != 0) {
            wrong += "a block made ahead is not all zero; ";
            break;
        }
    std::memset(second, 0xcd, bytes);
    std::memset(first, 0xab, bytes);
    if (second[bytes - 1] != 0xcd)
        wrong += "the two blocks overlap; ";
    releaseBig(first, bytes);
    releaseBig(second, bytes);
    return wrong;
}

TEST(BigBlocks, TheNextBlockOfASizeIsMadeAheadAndTakenWhenAskedFor)
{
    if (kPlainBlocks)
        GTEST_SKIP() << "a sanitizer build maps no block itself";
    EXPECT_EQ(secondBlockComesMadeAhead(6 * kMiB), "");
}

TEST(BigBlocks, ABlockSmallerThanAWholeChunkIsNotMadeAhead)
{
    // A list's first blocks grow through such sizes, and seldom ask for the same one again.
    waitForBlocksAhead(); // what other tests asked for
    const std::size_t made = bigBlockCounts().madeAhead;
    for (int i = 0; i < 2; ++i) {
        releaseBig(allocateBig(3 * kMiB / 2), 3 * kMiB / 2); // one huge page
        waitForBlocksAhead();
    }
    EXPECT_EQ(bigBlockCounts().madeAhead, made);
}

TEST(BigBlocks, AForkedChildMakesItsOwnBlocksAheadWithoutWaitingOnTheParentsThread)
{
    if (kPlainBlocks)
        GTEST_SKIP() << "a sanitizer build maps no block itself";
    // The parent's second thread is busy making blocks when the child is made (the way
    // cli/supervisor.cpp forks a run): the child has none of it, and must make its own.
    releaseBig(allocateBig(10 * kMiB), 10 * kMiB);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0)
        _exit(secondBlockComesMadeAhead(10 * kMiB).empty() ? 0 : 1);
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            FAIL() << "the child still waits for a block after 20 s";
        }
        usleep(10'000);
    }
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    waitForBlocksAhead();
}

} // namespace
} // namespace rankstep::core
