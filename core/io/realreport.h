// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::io {

// Where one rank's wall-clock time went in a real run (seconds from the common start).
struct RealRankTimes {
    int rank = 0;
    double compute = 0;       // forward, backward, loss, update
    double communication = 0; // collectives, pass_to, receive: waiting for the others included
    double end = 0;           // the end of its last call
};

struct RealLayer {
    int layer = 0;
    std::optional<double> maxAbsDiff; // none: no rank set the whole final weight
    std::string problem;              // "" when the layer matches
};

// The report `rankstep-cli real --json` writes (docs/command-line.md, "Running it for real").
struct RealReport {
    bool weightsMatch = false;
    double maxAbsDiff = 0;
    double wallSeconds = 0;
    std::optional<int> firstWrongLayer;
    int ranks = 0, layers = 0, batches = 0, hidden = 0, length = 0;
    std::vector<RealLayer> perLayer;
    std::vector<RealRankTimes> perRank;
};

// A damaged or foreign file is an Error of kind Usage naming the member, as traceFromJson's.
core::Result<RealReport> realReportFromJson(std::string_view text);

} // namespace rankstep::io
