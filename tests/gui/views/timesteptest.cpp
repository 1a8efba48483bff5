// SPDX-License-Identifier: MIT
// Time shown honestly: stepping by simulated time (the default) puts every rank at one time, and
// the step bar, the panel titles, the timeline's and the memory chart's cursor all say it; by
// operation, a rank whose clock is ahead says "own t".
#include "guitestsupport.h"
#include "memorychart.h"
#include "memoryseries.h"
#include "statepanels.h"
#include "stateview.h"
#include "stepbar.h"
#include "stepcontroller.h"
#include "timelineview.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QLabel>

namespace rankstep::gui {
namespace {

class TimeStepTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_state.setAnimated(false);
        m_context.session.setTrace(testing::referenceTrace("gpipe"));
    }

    testing::ViewContext m_context;
    StepController &m_step = m_context.session.stepper();
    StepBar m_bar{m_context.session, m_context.appearance};
    StateView m_state{m_context.session, m_context.appearance};
    MemoryChart m_chart{m_context.session, m_context.appearance};
    TimelineView m_timeline{m_context.session, m_context.appearance};
};

TEST_F(TimeStepTest, EveryStepPutsEveryRankAtOneTimeThatEveryViewShows)
{
    ASSERT_EQ(m_step.stepMode(), StepController::StepMode::Time);
    m_step.home();
    int steps = 0;
    for (m_step.next(); !m_step.atEnd(); m_step.next(), ++steps) {
        const core::SimTime t = m_step.cursorTime();
        const QString time = QString::fromStdString(t.toString());
        const replay::RunState &state = m_state.state();
        ASSERT_EQ(state.ranks.size(), 4U);
        for (int r = 0; r < 4; ++r) {
            EXPECT_EQ(state.ranks[std::size_t(r)].clock, t) << "rank " << r << " step " << steps;
            EXPECT_TRUE(statePanelTitle(state, r).contains(QStringLiteral(" · t %1 · ").arg(time)))
                << statePanelTitle(state, r).toStdString();
        }
        EXPECT_TRUE(m_bar.positionText().startsWith(QStringLiteral("t = %1 ").arg(time)))
            << m_bar.positionText().toStdString();
        EXPECT_EQ(m_chart.cursorTime(), t);
        EXPECT_EQ(m_timeline.cursorTime(), t);
    }
    EXPECT_GT(steps, 40) << "one step per event boundary";
}

// By operation too every rank stands at one time, the start of the operation stepped to, and
// every view shows it (the panels said t 4 while the chart's cursor stood at t 1).
TEST_F(TimeStepTest, ByOperationEveryViewShowsTheOperationsStart)
{
    m_step.setStepMode(StepController::StepMode::Operation);
    m_step.home();
    int steps = 0;
    for (m_step.next(); !m_step.atEnd(); m_step.next(), ++steps) {
        const core::SimTime t = m_step.cursorTime();
        ASSERT_EQ(t, m_step.trace()->events[*m_step.cursor()->lastEvent()].start);
        const replay::RunState &state = m_state.state();
        for (int r = 0; r < 4; ++r) {
            EXPECT_EQ(state.ranks[std::size_t(r)].clock, t) << "rank " << r << " step " << steps;
            EXPECT_FALSE(statePanelTitle(state, r).contains(QStringLiteral("own")));
        }
        EXPECT_EQ(m_chart.cursorTime(), t);
        EXPECT_EQ(m_timeline.cursorTime(), t);
    }
    EXPECT_EQ(steps, int(m_step.trace()->events.size()));
}

// The scheduler's turns are the one mode whose ranks stand at their own clocks: a panel says so.
TEST_F(TimeStepTest, BySchedulerTurnARankAheadShowsItsOwnClock)
{
    m_step.setStepMode(StepController::StepMode::Slice);
    m_step.home();
    // GPipe's rank 0 forwards and sends its microbatches before rank 1 receives any.
    m_step.next();
    const replay::RunState &state = m_state.state();
    const core::SimTime shared = m_step.cursorTime();
    ASSERT_EQ(state.ranks[0].clock, shared);
    ASSERT_NE(state.ranks[1].clock, shared);
    EXPECT_TRUE(statePanelTitle(state, 1).startsWith(
        QStringLiteral("rank 1 · own t %1 · ")
            .arg(QString::fromStdString(state.ranks[1].clock.toString()))))
        << statePanelTitle(state, 1).toStdString();
    EXPECT_TRUE(m_bar.positionText().contains(
        QStringLiteral("rank 0 at t = %1").arg(QString::fromStdString(shared.toString()))));
    EXPECT_EQ(m_timeline.cursorTime(), shared);
    m_step.setStepMode(StepController::StepMode::Time);
    m_step.next();
    EXPECT_FALSE(statePanelTitle(m_state.state(), 0).contains(QStringLiteral("own")));
}

// What the chart's line of a rank reads at `time`: its last point at or before it.
std::optional<std::int64_t> chartMemoryAt(const std::vector<MemoryPoint> &line, core::SimTime time)
{
    std::optional<std::int64_t> memory;
    for (const MemoryPoint &point : line)
        if (point.time <= time)
            memory = point.memory;
    return memory;
}

TEST_F(TimeStepTest, TheChartReadsWhatThePanelsHoldAtEveryTime)
{
    const auto lines = memorySeries(*m_context.session.trace());
    m_step.home();
    int compared = 0;
    for (m_step.next();; m_step.next()) {
        const replay::RunState &state = m_state.state();
        for (std::size_t r = 0; r < lines.size(); ++r) {
            // Before its first call a rank has no line yet.
            if (const auto memory = chartMemoryAt(lines[r], m_step.cursorTime())) {
                EXPECT_EQ(*memory, state.ranks[r].memory)
                    << "rank " << r << " at " << m_step.cursorTime().toString();
                ++compared;
            }
        }
        if (m_step.atEnd())
            break;
    }
    EXPECT_GT(compared, 100);
}

} // namespace
} // namespace rankstep::gui
