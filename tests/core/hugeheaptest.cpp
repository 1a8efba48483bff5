// SPDX-License-Identifier: MIT
// When the app and rankstep-cli start themselves again with their heap on huge pages, and with
// which GLIBC_TUNABLES (core/hugeheap.h).
#include "core/hugeheap.h"

#include <gtest/gtest.h>

namespace rankstep::core {
namespace {

constexpr HugeHeapSystem kDebian{"always [madvise] never", "2.36"};

TEST(HugeHeap, AsksForHugePagesWhenTheUserSetNoTunables)
{
    EXPECT_EQ(hugeHeapTunables(std::nullopt, kDebian), "glibc.malloc.hugetlb=1");
    EXPECT_EQ(hugeHeapTunables("", kDebian), "glibc.malloc.hugetlb=1");
}

TEST(HugeHeap, KeepsTheUsersOtherTunablesBeforeItsOwn)
{
    EXPECT_EQ(hugeHeapTunables("glibc.malloc.check=3:glibc.malloc.arena_max=2", kDebian),
              "glibc.malloc.check=3:glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
}

TEST(HugeHeap, LeavesASettingOfHugePagesAsItIsWhoeverMadeIt)
{
    // The user's 0 says no; a 1 is the second start, which must not start a third.
    for (const char *given : {"glibc.malloc.hugetlb=0", "glibc.malloc.hugetlb=1",
                              "glibc.malloc.check=3:glibc.malloc.hugetlb=2"})
        EXPECT_EQ(hugeHeapTunables(given, kDebian), std::nullopt) << given;
    // A name that only begins like it is another setting.
    EXPECT_EQ(hugeHeapTunables("glibc.malloc.hugetlbx=0", kDebian),
              "glibc.malloc.hugetlbx=0:glibc.malloc.hugetlb=1");
}

TEST(HugeHeap, StartsOnceOnlyWhereGlibcWouldActOnTheSetting)
{
    HugeHeapSystem system = kDebian;
    for (const char *mode : {"[always] madvise never", "always madvise [never]", ""}) {
        system.thpEnabled = mode;
        EXPECT_EQ(hugeHeapTunables(std::nullopt, system), std::nullopt) << mode;
    }
    system = kDebian;
    for (const char *version : {"2.34", "2.31", "", "two"}) {
        system.glibcVersion = version;
        EXPECT_EQ(hugeHeapTunables(std::nullopt, system), std::nullopt) << version;
    }
    for (const char *version : {"2.35", "2.40", "3.0"}) {
        system.glibcVersion = version;
        EXPECT_NE(hugeHeapTunables(std::nullopt, system), std::nullopt) << version;
    }
    system = kDebian;
    system.secure = true;
    EXPECT_EQ(hugeHeapTunables(std::nullopt, system), std::nullopt) << "set-user-ID";
    system = kDebian;
    system.underValgrind = true;
    EXPECT_EQ(hugeHeapTunables(std::nullopt, system), std::nullopt) << "valgrind";
}

TEST(HugeHeap, TheSecondStartGetsBackWhatTheUserHad)
{
    EXPECT_EQ(tunablesBefore(""), std::nullopt) << "unset";
    EXPECT_EQ(tunablesBefore("="), "") << "set and empty";
    EXPECT_EQ(tunablesBefore("=glibc.malloc.check=3"), "glibc.malloc.check=3");
}

} // namespace
} // namespace rankstep::core
