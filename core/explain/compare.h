// SPDX-License-Identifier: MIT
// Two runs side by side: what differs in their settings, their figures, and why, in words
// (`rankstep-cli compare A B`, the app's comparison; docs/explain.md).
#pragma once

#include "core/sentences.h"
#include "core/trace.h"

#include <string>
#include <vector>

namespace rankstep::explain {

struct Comparison {
    std::vector<std::string> settings; // "ranks: 4 against 8", ...; empty when they match
    std::string time;   // the end times and why they differ; what became of a run that stopped
    std::string memory; // the peaks and why they differ
};

// Said through `words`: English for the command line and the JSON, the app's language on screen.
Comparison compare(const core::Trace &a, const core::Trace &b,
                   const core::Phrasebook &words = core::english());
std::string compareText(const core::Trace &a, const core::Trace &b,
                        const core::Phrasebook &words = core::english());
std::string compareJson(const core::Trace &a, const core::Trace &b);

} // namespace rankstep::explain
