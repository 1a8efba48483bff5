// SPDX-License-Identifier: MIT
// What the file-format fuzz targets share: an invariant that aborts with a message, so that
// libFuzzer records the input as a crash and the seed-corpus test (seedcorpusdriver.cpp) fails.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace rankstep::fuzz {

inline void require(bool holds, const char *what)
{
    if (holds)
        return;
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}

} // namespace rankstep::fuzz
