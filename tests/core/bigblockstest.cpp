// SPDX-License-Identifier: MIT
// The record's big blocks (core/bigblocks.h): usable memory, on a huge-page boundary and marked
// for transparent huge pages where the kernel has them; small blocks come from the heap.
#include "core/bigblocks.h"

#include <gtest/gtest.h>

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

} // namespace
} // namespace rankstep::core
