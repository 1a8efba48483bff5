// SPDX-License-Identifier: MIT
// What `rankstep-cli explain` prints, as text and as JSON (docs/explain.md).
#pragma once

#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>

namespace rankstep::explain {

struct ExplainOptions {
    std::optional<core::SimTime> at;          // also explain every rank's memory at this time
    std::optional<std::int64_t> targetMemory; // say how far the peak is over it
};

std::string explainText(const core::Trace &trace, const ExplainOptions &options);
std::string explainJson(const core::Trace &trace, const ExplainOptions &options);

} // namespace rankstep::explain
