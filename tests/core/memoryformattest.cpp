// SPDX-License-Identifier: MIT
// core::formatMemory, the one way memory is written: decimal units, exact bytes where compared.
#include "core/memoryformat.h"

#include <gtest/gtest.h>

namespace rankstep::core {
namespace {

TEST(MemoryFormat, WritesDecimalUnitsWithAtMostTwoDecimals)
{
    EXPECT_EQ(formatMemory(0), "0 B");
    EXPECT_EQ(formatMemory(900), "900 B");
    EXPECT_EQ(formatMemory(262144), "262.14 kB");
    EXPECT_EQ(formatMemory(2621440), "2.62 MB");
    EXPECT_EQ(formatMemory(2000000000), "2 GB");
}

TEST(MemoryFormat, KeepsTheExactBytesWhereFiguresAreCompared)
{
    EXPECT_EQ(formatMemoryExact(2621440), "2621440 B (2.62 MB)");
    EXPECT_EQ(formatMemoryExact(512), "512 B");
}

} // namespace
} // namespace rankstep::core
