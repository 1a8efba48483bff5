// SPDX-License-Identifier: MIT
#include "pipelineshape.h"

#include "explainsentences.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

namespace rankstep::explain {
namespace {

bool isWork(core::OpKind op)
{
    return op == core::OpKind::Forward || core::isBackward(op);
}

std::string percent(double share)
{
    return std::to_string(int(std::lround(share * 100.0))) + "%";
}

// The layers each rank forwards, or none when a layer is forwarded by two ranks (not a
// pipeline: data parallel ranks forward every layer).
std::optional<std::map<int, std::set<int>>> layersByRank(const core::Trace &trace)
{
    std::map<int, int> owner; // layer -> rank
    std::map<int, std::set<int>> layers;
    for (const core::Event &event : trace.events) {
        if (event.op != core::OpKind::Forward)
            continue;
        const auto [at, added] = owner.emplace(event.layer, event.rank);
        if (!added && at->second != event.rank)
            return std::nullopt;
        layers[event.rank].insert(event.layer);
    }
    return layers;
}

int runsOfConsecutive(const std::set<int> &layers)
{
    int runs = 0, previous = -2;
    for (const int layer : layers) {
        if (layer != previous + 1)
            ++runs;
        previous = layer;
    }
    return runs;
}

// GPipe runs every forward of a rank before its first backward; 1F1B mixes them.
bool forwardsFirst(const core::Trace &trace)
{
    std::map<int, bool> backwardSeen;
    for (const core::Event &event : trace.events) {
        if (core::isBackward(event.op))
            backwardSeen[event.rank] = true;
        else if (event.op == core::OpKind::Forward && backwardSeen[event.rank])
            return false;
    }
    return true;
}

} // namespace

std::optional<PipelineShape> pipelineShape(const core::Trace &trace)
{
    const auto layers = layersByRank(trace);
    if (!layers || layers->size() < 2)
        return std::nullopt;
    PipelineShape shape;
    shape.stages = int(layers->size());
    for (const auto &[rank, owned] : *layers)
        shape.virtualStages = std::max(shape.virtualStages, runsOfConsecutive(owned));
    double forward = 0, input = 0, weight = 0, work = 0, other = 0;
    bool split = false;
    for (const core::Event &event : trace.events) {
        const double duration = event.duration.toDouble();
        switch (event.op) {
            case core::OpKind::Forward:
                forward += duration;
                shape.microBatches += event.layer == 0 ? 1 : 0;
                break;
            case core::OpKind::Backward:
            case core::OpKind::BackwardInput:
                input += duration;
                split = split || event.op == core::OpKind::BackwardInput;
                break;
            case core::OpKind::BackwardWeight:
                weight += duration;
                split = true;
                break;
            default:
                if (!core::isCommunication(event.op))
                    other += duration; // updates, the loss
                break;
        }
        work += isWork(event.op) ? duration : 0.0;
    }
    if (shape.microBatches == 0 || work <= 0)
        return std::nullopt;
    const double p = shape.stages, m = shape.microBatches;
    shape.forward = forward / (p * m);
    shape.backwardInput = input / (p * m);
    shape.backwardWeight = weight / (p * m);
    const double meanWork = work / p, meanOther = other / p;
    shape.measured = (trace.figures.endTime.toDouble() - meanWork - meanOther) / meanWork;
    if (split)
        shape.schedule = PipelineSchedule::ZeroBubble;
    else if (shape.virtualStages > 1)
        shape.schedule = PipelineSchedule::Interleaved;
    else
        shape.schedule =
            forwardsFirst(trace) ? PipelineSchedule::GPipe : PipelineSchedule::OneFOneB;
    shape.formula = scheduleFormula(shape, shape.microBatches);
    return shape;
}

double scheduleFormula(const PipelineShape &shape, int microBatches)
{
    const double p = shape.stages, m = microBatches, v = shape.virtualStages;
    switch (shape.schedule) {
        case PipelineSchedule::ZeroBubble: {
            const double f = shape.forward, b = shape.backwardInput, w = shape.backwardWeight;
            return (p - 1) * (f + b - w) / (m * (f + b + w));
        }
        case PipelineSchedule::Interleaved:
            return (p - 1) / (v * m);
        case PipelineSchedule::GPipe:
        case PipelineSchedule::OneFOneB:
            break;
    }
    return (p - 1) / m;
}

const char *scheduleName(PipelineSchedule schedule)
{
    switch (schedule) {
        case PipelineSchedule::GPipe:
            return "gpipe";
        case PipelineSchedule::OneFOneB:
            return "1f1b";
        case PipelineSchedule::Interleaved:
            return "interleaved_1f1b";
        case PipelineSchedule::ZeroBubble:
            return "zero_bubble";
    }
    return "?";
}

const char *formulaText(PipelineSchedule schedule)
{
    switch (schedule) {
        case PipelineSchedule::GPipe:
        case PipelineSchedule::OneFOneB:
            return "(p-1)/m";
        case PipelineSchedule::Interleaved:
            return "(p-1)/(v*m)";
        case PipelineSchedule::ZeroBubble:
            return "(p-1)(F+B-W)/(m(F+B+W))";
    }
    return "?";
}

std::string pipelineBubbleSentence(const PipelineShape &shape, const core::Phrasebook &words)
{
    const std::string p = std::to_string(shape.stages), m = std::to_string(shape.microBatches);
    std::string name, with;
    switch (shape.schedule) {
        case PipelineSchedule::GPipe:
            name = "GPipe";
            with = "p = " + p + ", m = " + m;
            break;
        case PipelineSchedule::OneFOneB:
            name = "1F1B";
            with = "p = " + p + ", m = " + m;
            break;
        case PipelineSchedule::Interleaved:
            name = "interleaved 1F1B";
            with = "p = " + p + ", v = " + std::to_string(shape.virtualStages) + ", m = " + m;
            break;
        case PipelineSchedule::ZeroBubble:
            name = "zero-bubble (ZB-H1)";
            with = words.say(sentence::kZeroBubbleTerms, {"p = " + p + ", m = " + m});
            break;
    }
    return words.say(
        sentence::kPipelineBubble,
        {percent(shape.measured), name, formulaText(shape.schedule), with, percent(shape.formula)});
}

} // namespace rankstep::explain
