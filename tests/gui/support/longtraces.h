// SPDX-License-Identifier: MIT
// Learner-shaped worst cases for the views: a long loop of back-to-back calls, one call of an
// absurd duration.
#pragma once

#include "core/trace.h"

#include <cstdint>
#include <memory>

namespace rankstep::gui::testing {

// `events` back-to-back calls on each of `ranks` ranks, each `steps` steps long, forward and
// backward in turn (two fills), the memory rising and falling by the call; figures filled in.
std::shared_ptr<const core::Trace> loopTrace(int events, int ranks = 1, std::int64_t steps = 1);

// A short run whose second call lasts `steps` steps (2^31: a learner's sleep of a lifetime).
std::shared_ptr<const core::Trace> absurdTrace(std::int64_t steps);

} // namespace rankstep::gui::testing
