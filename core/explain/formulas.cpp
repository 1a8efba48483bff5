// SPDX-License-Identifier: MIT
#include "formulas.h"

#include "explainsentences.h"
#include "pipelineshape.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace rankstep::explain {
namespace {

// The stages of a pipeline the code lays out itself: as many as the sets of layers its ranks
// forward (Pipeline + FSDP's 16 ranks forward 4: stage rank % 4 in each of 4 lanes); 0 when no
// rank forwards.
int forwardStages(const core::Trace &trace)
{
    std::map<int, std::set<int>> layers; // rank -> the layers it forwards
    for (const core::Event &event : trace.events)
        if (event.op == core::OpKind::Forward)
            layers[event.rank].insert(event.layer);
    std::set<std::set<int>> stages;
    for (const auto &[rank, forwarded] : layers)
        stages.insert(forwarded);
    return int(stages.size());
}

} // namespace

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

std::string bubbleSentence(const core::Trace &trace, const core::Phrasebook &words)
{
    const auto percent = [](double share) {
        return std::to_string(int(std::lround(share * 100.0))) + "%";
    };
    // A laid-out run's pipelines are its pipeline degree deep, each data-parallel lane's fed its
    // share of the batches. A plain run's are as deep as the sets of layers its ranks forward,
    // each lane of that many ranks fed its share: a stage a rank and every batch in the pipeline
    // lessons; 4 stages in 4 lanes of one batch each in Pipeline + FSDP (a stage a rank said
    // p = 16, m = 4 there, 79% against its measured 40%).
    const core::RunConfig &config = trace.config;
    const core::RankLayout layout(config.ranks, config.layout);
    const bool laidOut = !config.layout.isPlain() && layout.data() > 0;
    int p = config.layout.pipeline, lanes = layout.data();
    if (!laidOut) {
        const int stages = forwardStages(trace);
        const bool inLanes = stages > 0 && config.ranks % stages == 0;
        p = inLanes ? stages : config.ranks;
        lanes = inLanes ? config.ranks / stages : 1;
    }
    const int m = laidOut ? config.batches / lanes : std::max(config.batches / lanes, 1);
    return words.say(sentence::kBubble, {percent(measuredIdleShare(trace)), std::to_string(p),
                                         std::to_string(m), percent(bubbleFormula(p, m))});
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

std::string modelStateSentence(const core::RunConfig &config, int sharers,
                               const core::Phrasebook &words)
{
    // One sharer is every rank holding the whole model (DDP), not "divided among 1 rank".
    const std::string bytes = std::to_string(modelStateBytes(config, sharers)),
                      layers = std::to_string(config.layers),
                      hidden = std::to_string(config.cost.sizes.hidden);
    return sharers == 1 ? words.say(sentence::kModelStateWhole, {bytes, layers, hidden})
                        : words.say(sentence::kModelStateShared,
                                    {bytes, layers, hidden, std::to_string(sharers)});
}

std::string lessonFormulaSentence(const core::Trace &trace, lessons::Parallelism parallelism,
                                  const core::Phrasebook &words)
{
    if (!trace.figures.hasEvents)
        return {};
    if (parallelism == lessons::Parallelism::Pipeline) {
        // The schedules that shrink the bubble are measured against the ideal time, as their
        // papers count it; GPipe and 1F1B keep GPipe's share of the whole run.
        const auto shape = pipelineShape(trace);
        if (shape && (shape->schedule == PipelineSchedule::Interleaved ||
                      shape->schedule == PipelineSchedule::ZeroBubble))
            return pipelineBubbleSentence(*shape, words);
        return bubbleSentence(trace, words);
    }
    if (const int sharers = modelSharers(parallelism, trace.config.ranks); sharers > 0)
        return modelStateSentence(trace.config, sharers, words);
    return {};
}

} // namespace rankstep::explain
