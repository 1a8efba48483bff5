// SPDX-License-Identifier: MIT
#include "formulas.h"

#include "pipelineshape.h"

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

int modelSharers(lessons::Parallelism parallelism, int ranks)
{
    switch (parallelism) {
        case lessons::Parallelism::DataParallel:
            return 1;
        case lessons::Parallelism::Sharded:
            return ranks;
        case lessons::Parallelism::None:
        case lessons::Parallelism::Pipeline:
            break;
    }
    return 0;
}

std::string modelStateSentence(const core::RunConfig &config, int sharers)
{
    // One sharer is every rank holding the whole model (DDP), not "divided among 1 rank".
    const std::string split =
        sharers == 1 ? ": every rank holds all of them"
                     : ", divided among " + std::to_string(sharers) + " ranks that share them";
    return "Each rank should hold " + std::to_string(modelStateBytes(config, sharers)) +
           " B of weights and optimizer states (" + std::to_string(config.layers) +
           " layers × 2 × " + std::to_string(config.cost.sizes.hidden) + "²" + split + ").";
}

std::string lessonFormulaSentence(const core::Trace &trace, lessons::Parallelism parallelism)
{
    if (!trace.figures.hasEvents)
        return {};
    if (parallelism == lessons::Parallelism::Pipeline) {
        // The schedules that shrink the bubble are measured against the ideal time, as their
        // papers count it; GPipe and 1F1B keep GPipe's share of the whole run.
        const auto shape = pipelineShape(trace);
        if (shape && (shape->schedule == PipelineSchedule::Interleaved ||
                      shape->schedule == PipelineSchedule::ZeroBubble))
            return pipelineBubbleSentence(*shape);
        return bubbleSentence(trace);
    }
    if (const int sharers = modelSharers(parallelism, trace.config.ranks); sharers > 0)
        return modelStateSentence(trace.config, sharers);
    return {};
}

} // namespace rankstep::explain
