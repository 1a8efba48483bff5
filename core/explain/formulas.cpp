// SPDX-License-Identifier: MIT
#include "formulas.h"

#include <cmath>

namespace rankstep::explain {

double bubbleFormula(int stages, int microBatches)
{
    const int denominator = microBatches + stages - 1;
    return denominator > 0 ? double(stages - 1) / double(denominator) : 0.0;
}

double measuredIdleShare(const core::Trace &trace)
{
    const auto &ranks = trace.figures.ranks;
    const double end = trace.figures.endTime.toDouble();
    if (ranks.empty() || end <= 0.0)
        return 0.0;
    double idle = 0.0;
    for (const core::RankFigures &rank : ranks)
        idle += rank.idle.toDouble();
    return idle / double(ranks.size()) / end;
}

std::string bubbleSentence(const core::Trace &trace)
{
    const auto percent = [](double share) {
        return std::to_string(int(std::lround(share * 100.0))) + "%";
    };
    const int p = trace.config.ranks, m = trace.config.batches;
    return "Idle " + percent(measuredIdleShare(trace)) +
           " of the time on average; the bubble formula (p-1)/(m+p-1) with p = " +
           std::to_string(p) + ", m = " + std::to_string(m) + " gives " +
           percent(bubbleFormula(p, m)) + ".";
}

std::int64_t modelStateBytes(const core::RunConfig &config, int sharers)
{
    const core::Sizes &sizes = config.cost.sizes;
    const std::int64_t perLayer = 2 * sizes.hidden * sizes.hidden; // a weight and its state
    return perLayer * config.layers / std::max(sharers, 1);
}

} // namespace rankstep::explain
