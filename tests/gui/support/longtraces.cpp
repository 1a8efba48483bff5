// SPDX-License-Identifier: MIT
#include "longtraces.h"

namespace rankstep::gui::testing {

namespace {

core::Event call(int rank, std::int64_t startTicks, std::int64_t durationTicks, int index)
{
    core::Event event;
    event.rank = rank;
    event.layer = 0;
    event.op = index % 2 == 0 ? core::OpKind::Forward : core::OpKind::Backward;
    event.batches.insert(0);
    event.start = core::SimTime::fromTicks(startTicks);
    event.duration = core::SimTime::fromTicks(durationTicks);
    event.memory = 1000 + 100 * (index % 7);
    event.line = 3;
    return event;
}

std::shared_ptr<const core::Trace> finished(core::Trace trace)
{
    trace.figures = core::computeFigures(trace.events, trace.config.ranks);
    return std::make_shared<const core::Trace>(std::move(trace));
}

} // namespace

std::shared_ptr<const core::Trace> loopTrace(int events, int ranks, std::int64_t steps)
{
    core::Trace trace;
    trace.config.ranks = ranks;
    trace.config.layers = 2;
    const std::int64_t ticks = steps * core::SimTime::kTicksPerStep;
    for (int i = 0; i < events; ++i)
        for (int rank = 0; rank < ranks; ++rank)
            trace.events.push_back(call(rank, i * ticks, ticks, i));
    return finished(std::move(trace));
}

std::shared_ptr<const core::Trace> absurdTrace(std::int64_t steps)
{
    core::Trace trace;
    trace.config.ranks = 1;
    trace.config.layers = 2;
    const std::int64_t step = core::SimTime::kTicksPerStep;
    trace.events.push_back(call(0, 0, step, 0));
    trace.events.push_back(call(0, step, steps * step, 1));
    trace.events.push_back(call(0, (steps + 1) * step, step, 2));
    return finished(std::move(trace));
}

} // namespace rankstep::gui::testing
