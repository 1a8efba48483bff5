// SPDX-License-Identifier: MIT
// The run on screen without any widget: what RunSession derives from a trace, the signals views
// follow, and the appearance's values and signals.
#include "appearance.h"
#include "runsession.h"
#include "timelinegeometry.h"
#include "zoom.h"

#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <QSignalSpy>

#include <memory>
#include <string>
#include <vector>

namespace rankstep::gui {
namespace {

TracePtr ddpTrace()
{
    return std::make_shared<const core::Trace>(
        rankstep::testing::runProgram(core::RunConfig{4, 2, 4, {}}, &rankstep::testing::ddp));
}

TEST(RunSession, ANewTraceIsDerivedOnceWithTheCursorAtItsEndAndTheWholeRunInView)
{
    RunSession session;
    QSignalSpy traces(&session, &RunSession::traceChanged);
    QSignalSpy ranges(&session, &RunSession::visibleRangeChanged);
    const TracePtr trace = ddpTrace();
    session.setTrace(trace);
    EXPECT_EQ(traces.count(), 1);
    EXPECT_EQ(ranges.count(), 1);
    EXPECT_EQ(session.trace(), trace);
    EXPECT_EQ(session.endTime(), *core::SimTime::parse("5.6")); // the figures' end time
    EXPECT_EQ(session.units(), TraceUnits::SimulatedSteps);
    ASSERT_TRUE(session.stepper().cursor());
    EXPECT_TRUE(session.stepper().atEnd());
    EXPECT_EQ(session.stepper().cursorTime(), session.endTime());
    const TimeAxis whole = fitted({}, session.endTime());
    EXPECT_EQ(session.visibleRange(), (TimeRange{whole.from, whole.to}));
}

TEST(RunSession, ViewsHearOfTheNewTraceBeforeTheCursorMovesOnIt)
{
    // A view that resets its cursor when the trace changes must then get the new cursor: the
    // memory chart lost its end-of-run line when the cursor came first.
    RunSession session;
    std::vector<std::string> order;
    QObject::connect(&session, &RunSession::traceChanged, [&] { order.push_back("trace"); });
    QObject::connect(&session.stepper(), &StepController::cursorChanged,
                     [&] { order.push_back("cursor"); });
    session.setTrace(ddpTrace());
    ASSERT_EQ(order.size(), 2U);
    EXPECT_EQ(order[0], "trace");
    EXPECT_EQ(order[1], "cursor");
}

TEST(RunSession, ClearingLeavesNoCursorAndNoSelection)
{
    RunSession session;
    session.setTrace(ddpTrace());
    session.setSelectedEvent(3);
    session.clear();
    EXPECT_EQ(session.trace(), nullptr);
    EXPECT_FALSE(session.stepper().cursor());
    EXPECT_FALSE(session.selectedEvent());
    EXPECT_EQ(session.endTime(), core::SimTime());
    EXPECT_FALSE(session.hasEvents());
}

TEST(RunSession, TheVisibleRangeChangesOnlyForANewNonEmptyRange)
{
    RunSession session;
    session.setTrace(ddpTrace());
    QSignalSpy ranges(&session, &RunSession::visibleRangeChanged);
    session.setVisibleRange(1000.0, 2500.5);
    EXPECT_EQ(ranges.count(), 1);
    EXPECT_EQ(session.visibleRange(), (TimeRange{1000.0, 2500.5}));
    session.setVisibleRange(1000.0, 2500.5); // an echo
    session.setVisibleRange(3000.0, 3000.0); // empty
    session.setVisibleRange(3000.0, 2000.0); // reversed
    EXPECT_EQ(ranges.count(), 1);
    session.showWholeRun();
    EXPECT_EQ(ranges.count(), 2);
    EXPECT_EQ(session.visibleRange().to, fitted({}, session.endTime()).to);
}

TEST(RunSession, TheSelectionIsSharedAndSignalledOnce)
{
    RunSession session;
    QSignalSpy ranks(&session, &RunSession::selectedRankChanged);
    QSignalSpy events(&session, &RunSession::selectedEventChanged);
    session.setSelectedRank(2);
    session.setSelectedRank(2);
    session.setSelectedEvent(7);
    session.setSelectedEvent(7);
    EXPECT_EQ(session.selectedRank(), 2);
    EXPECT_EQ(session.selectedEvent(), 7U);
    EXPECT_EQ(ranks.count(), 1);
    EXPECT_EQ(events.count(), 1);
    EXPECT_EQ(ranks.at(0).at(0).toInt(), 2);
}

TEST(RunSession, HoldsASecondTraceToCompareWith)
{
    RunSession session;
    QSignalSpy comparisons(&session, &RunSession::comparisonChanged);
    const TracePtr first = ddpTrace(), second = ddpTrace();
    session.setTrace(first);
    session.setComparison(second);
    EXPECT_EQ(session.trace(), first);
    EXPECT_EQ(session.comparison(), second);
    EXPECT_EQ(comparisons.count(), 1);
}

TEST(RunSession, ARunCarriesItsOutputAndANewRunDropsTheLastVerdict)
{
    RunSession session;
    QSignalSpy verdicts(&session, &RunSession::verdictChanged);
    session.setTrace(ddpTrace(), TraceUnits::SimulatedSteps, QStringLiteral("printed"));
    EXPECT_EQ(session.output(), QStringLiteral("printed"));
    EXPECT_FALSE(session.verdict());
    EXPECT_EQ(verdicts.count(), 0); // nothing was judged, so nothing changed
    lessons::Verdict verdict;
    verdict.kind = lessons::Verdict::Kind::TargetsMissed;
    session.setVerdict(verdict);
    ASSERT_TRUE(session.verdict());
    EXPECT_EQ(session.verdict()->kind, lessons::Verdict::Kind::TargetsMissed);
    EXPECT_EQ(verdicts.count(), 1);
    session.setTrace(ddpTrace()); // the next run is not judged yet
    EXPECT_FALSE(session.verdict());
    EXPECT_TRUE(session.output().isEmpty());
    EXPECT_EQ(verdicts.count(), 2);
}

TEST(RunSession, AnotherLessonClearsTheRunOfTheLastOneBeforeViewsHearOfIt)
{
    RunSession session;
    session.setTrace(ddpTrace(), TraceUnits::SimulatedSteps, QStringLiteral("printed"));
    const lessons::Lesson lesson;
    bool clearedFirst = false;
    QObject::connect(&session, &RunSession::lessonChanged, &session,
                     [&] { clearedFirst = !session.trace() && session.output().isEmpty(); });
    QSignalSpy lessons(&session, &RunSession::lessonChanged);
    session.setLesson(&lesson);
    EXPECT_EQ(lessons.count(), 1);
    EXPECT_EQ(session.lesson(), &lesson);
    EXPECT_TRUE(clearedFirst);
}

TEST(Appearance, TheLookCarriesTheSchemeAndTheZoomAndSaysWhenTheyChange)
{
    Appearance appearance;
    QSignalSpy looks(&appearance, &Appearance::lookChanged);
    QSignalSpy zooms(&appearance, &Appearance::zoomChanged);
    EXPECT_EQ(appearance.look(), Look{});
    appearance.setColorBlindSafe(true);
    EXPECT_EQ(appearance.look().scheme, Palette::Scheme::ColorBlindSafe);
    appearance.zoomIn();
    EXPECT_DOUBLE_EQ(appearance.look().zoom, 1.1);
    EXPECT_DOUBLE_EQ(appearance.look().scaled(10), 11.0);
    appearance.setZoom(100); // clamped
    EXPECT_DOUBLE_EQ(appearance.zoom(), kMaxZoom);
    appearance.setZoom(kMaxZoom); // unchanged: no signal
    EXPECT_EQ(looks.count(), 3);
    EXPECT_EQ(zooms.count(), 2);
}

TEST(Appearance, ThemeAndPresentingAreSignalledOnlyWhenTheyChange)
{
    Appearance appearance;
    QSignalSpy themes(&appearance, &Appearance::themeChanged);
    QSignalSpy presenting(&appearance, &Appearance::presentingChanged);
    QSignalSpy looks(&appearance, &Appearance::lookChanged);
    appearance.setTheme(Theme::System); // already
    appearance.setTheme(Theme::Dark);
    appearance.setPresenting(true);
    appearance.setPresenting(true);
    EXPECT_EQ(themes.count(), 1);
    EXPECT_EQ(presenting.count(), 1);
    EXPECT_EQ(looks.count(), 0); // painters draw the same: the widget palette carries the theme
    EXPECT_TRUE(appearance.presenting());
}

} // namespace
} // namespace rankstep::gui
