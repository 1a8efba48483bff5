// SPDX-License-Identifier: MIT
// A reference puzzle's finished run with a replayer over it, for the state view's tests.
#pragma once

#include "core/model.h"
#include "core/replay/replayer.h"
#include "core/trace.h"

#include <functional>
#include <memory>
#include <string>

namespace rankstep::gui::testing {

class ReplayedRun
{
public:
    // Runs the named reference solution ("ddp", "gpipe", "pipeline_fsdp", ...).
    explicit ReplayedRun(const std::string &puzzle);
    // Runs `program` on every rank of `config` ("fsdp" on 24 ranks: more than the view shows).
    ReplayedRun(const core::RunConfig &config,
                const std::function<core::RankTask(core::Model &)> &program);

    const std::shared_ptr<const core::Trace> &trace() const { return m_trace; }
    replay::Cursor home() const { return replay::Cursor(*m_stops); }
    replay::RunState stateAt(const replay::Cursor &cursor) { return m_replayer->stateAt(cursor); }
    // The state after `count` slice steps from home.
    replay::RunState afterSlices(int count);

private:
    std::shared_ptr<const core::Trace> m_trace;
    std::unique_ptr<replay::StopPoints> m_stops;
    std::unique_ptr<replay::Replayer> m_replayer;
};

} // namespace rankstep::gui::testing
