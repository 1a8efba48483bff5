// SPDX-License-Identifier: MIT
// The environment rankstep-runner starts with (cli/supervisor.h): the user's locale and time zone,
// and the runner's own malloc settings in place of whatever the user's environment said of malloc.
#include "cli/supervisor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace rankstep::cli {
namespace {

TEST(RunnerEnvironment, PutsTheRunnersHeapOnHugePagesWhateverTheUserSet)
{
    const char *had = std::getenv("GLIBC_TUNABLES");
    const std::string previous = had ? had : "";
    setenv("GLIBC_TUNABLES", "glibc.malloc.check=3", 1);
    const std::vector<std::string> environment = runnerEnvironment();
    if (had)
        setenv("GLIBC_TUNABLES", previous.c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");

    const auto tunables = std::count_if(
        environment.begin(), environment.end(),
        [](const std::string &entry) { return entry.rfind("GLIBC_TUNABLES=", 0) == 0; });
    EXPECT_EQ(tunables, 1);
    EXPECT_NE(
        std::find(environment.begin(), environment.end(), "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"),
        environment.end());
}

} // namespace
} // namespace rankstep::cli
