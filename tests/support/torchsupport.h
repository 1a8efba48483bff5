// SPDX-License-Identifier: MIT
// The tests that run real PyTorch: skipped where python3-torch is missing, except in
// CI, which installs it (scripts/setup-deps.sh) and so must not skip them silently.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>

namespace rankstep::testsupport {

inline bool torchInstalled()
{
    return std::system("/usr/bin/python3 -c 'import torch.distributed' >/dev/null 2>&1") == 0;
}

} // namespace rankstep::testsupport

#define REQUIRE_TORCH()                                                                       \
    do {                                                                                      \
        if (!rankstep::testsupport::torchInstalled()) {                                       \
            if (std::getenv("CI"))                                                            \
                FAIL() << "CI installs python3-torch (scripts/setup-deps.sh); it is missing"; \
            GTEST_SKIP() << "python3-torch is not installed";                                 \
        }                                                                                     \
    } while (false)
