// SPDX-License-Identifier: MIT
#include "statetestsupport.h"

#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

namespace rankstep::gui::testing {

ReplayedRun::ReplayedRun(const std::string &puzzle)
{
    for (const auto &reference : ::rankstep::testing::referencePuzzles())
        if (reference.name == puzzle)
            m_trace = std::make_shared<const core::Trace>(::rankstep::testing::runProgram(
                {reference.ranks, reference.layers, reference.batches, {}}, reference.program));
    if (!m_trace) {
        ADD_FAILURE() << "no reference puzzle " << puzzle;
        m_trace = std::make_shared<const core::Trace>();
    }
    m_stops = std::make_unique<replay::StopPoints>(*m_trace);
    m_replayer = std::make_unique<replay::Replayer>(*m_stops);
}

ReplayedRun::ReplayedRun(const core::RunConfig &config,
                         const std::function<core::RankTask(core::Model &)> &program)
    : m_trace(std::make_shared<const core::Trace>(::rankstep::testing::runProgram(config, program)))
    , m_stops(std::make_unique<replay::StopPoints>(*m_trace))
    , m_replayer(std::make_unique<replay::Replayer>(*m_stops))
{}

replay::RunState ReplayedRun::afterSlices(int count)
{
    replay::Cursor cursor = home();
    for (int i = 0; i < count; ++i)
        cursor = cursor.nextSlice();
    return stateAt(cursor);
}

} // namespace rankstep::gui::testing
