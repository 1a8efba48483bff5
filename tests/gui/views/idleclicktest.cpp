// SPDX-License-Identifier: MIT
// Clicking where a rank waits shows why: the chain that ended the wait, highlighted on
// the timeline and said in a sentence; the Why tab's toggle highlights the critical path.
#include "explainview.h"
#include "guitestsupport.h"
#include "timelineview.h"
#include "viewcontext.h"

#include "core/explain/waitexplain.h"

#include <QTest>

#include <algorithm>

namespace rankstep::gui::testing {
namespace {

TEST(IdleClick, ClickingRankThreesFirstWaitHighlightsRankTwosPassTo)
{
    ViewContext context;
    TimelineView view(context.session, context.appearance);
    view.resize(1200, 400);
    view.show();
    const auto trace = referenceTrace("gpipe");
    context.session.setTrace(trace);
    // Rank 3's first gap: from 0 until its first receive.
    const auto &gaps = view.gaps();
    const auto gap =
        std::find_if(gaps.begin(), gaps.end(), [](const explain::Wait &w) { return w.rank == 3; });
    ASSERT_NE(gap, gaps.end());
    const TimeAxis axis = view.timeAxis();
    const double middle = (double(gap->from.ticks()) + double(gap->to.ticks())) / 2.0;
    const RowLayout layout = view.rowLayout();
    const QPoint at(int(axis.toX(middle)),
                    int(layout.rowTop(*layout.rowOf(3)) + layout.rowHeight / 2.0));
    ASSERT_EQ(view.gapAt(at), std::optional<std::size_t>(std::size_t(gap - gaps.begin())));
    QTest::mouseClick(&view, Qt::LeftButton, {}, at);
    const auto &highlight = context.session.highlight();
    ASSERT_FALSE(highlight.empty());
    const bool passTo = std::any_of(highlight.begin(), highlight.end(), [&](std::size_t e) {
        return trace->events[e].rank == 2 && trace->events[e].op == core::OpKind::PassTo;
    });
    EXPECT_TRUE(passTo);
    EXPECT_TRUE(context.session.highlightSentence().startsWith(QStringLiteral("Rank 3 waited ")))
        << utf8(context.session.highlightSentence());
    // A click on the axis band clears it.
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(at.x(), 2));
    EXPECT_TRUE(context.session.highlight().empty());
}

TEST(IdleClick, TheCriticalPathToggleHighlightsThePathOnTheTimeline)
{
    ViewContext context;
    ExplainView view(context.session, context.appearance);
    const auto trace = referenceTrace("gpipe");
    context.session.setTrace(trace);
    view.showCriticalPath(true);
    view.chainList(); // the path is made on a worker: this waits for it
    EXPECT_EQ(context.session.highlight(), explain::criticalPath(*trace));
    view.showCriticalPath(false);
    EXPECT_TRUE(context.session.highlight().empty());
}

} // namespace
} // namespace rankstep::gui::testing
