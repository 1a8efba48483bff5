// SPDX-License-Identifier: MIT
// The wait-for picture of a hang on runs of C++ rank programs, and its tab in the window after a
// real run. RANKSTEP_SCREENSHOTS=DIR saves the picture as DIR/waitfor-hang.png.
#include "codeeditor.h"
#include "guitestsupport.h"
#include "resultspanel.h"
#include "stateview.h"
#include "stepcontroller.h"
#include "tests/core/referencepuzzles.h"
#include "viewcontext.h"
#include "waitforview.h"

#include <gtest/gtest.h>

#include <QFontMetricsF>

#include <QDir>
#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <cstdlib>
#include <ostream>

namespace rankstep::gui {

void PrintTo(const WaitArrow &arrow, std::ostream *out)
{
    *out << arrow.from << (arrow.anySource ? " - -> " : " -> ") << arrow.to;
}

namespace {

using core::Model;
using core::RankTask;

int g_receiveLine = 0;
int g_allreduceLine = 0;

RankTask bothReceiveFirst(Model &m)
{
    g_receiveLine = __LINE__ + 1;
    const core::Object got = co_await m.receive();
    co_await m.passTo(1 - m.rank, got);
}

RankTask rankThreeSkipsTheAllreduce(Model &m)
{
    if (m.rank == 3)
        co_return;
    const core::Object grad = m.fakeGrad(0, {m.rank});
    g_allreduceLine = __LINE__ + 1;
    co_await m.allreduce(grad, 0);
}

// Every rank computes a forward for one step, then rank 3 skips the allreduce: the run hangs at
// t 1.
RankTask computesThenRankThreeSkips(Model &m)
{
    const std::pair<core::Object, core::Object> loaded = m.loadWeights(0);
    m.activations.set(1, m.forward(0, m.getActivation({m.rank}), loaded.first));
    if (m.rank == 3)
        co_return;
    const core::Object grad = m.fakeGrad(0, {m.rank});
    co_await m.allreduce(grad, 0);
}

// Rank 0 allreduces layer 0, rank 1 layer 1, rank 2 does not get there first.
RankTask allreduceOfDifferentLayers(Model &m)
{
    const core::Object grad = m.fakeGrad(m.rank == 0 ? 0 : 1, {m.rank});
    if (m.rank == 0)
        co_await m.allreduce(grad, 0);
    else
        co_await m.allreduce(grad, 1);
}

TracePtr run(int ranks, const std::function<RankTask(Model &)> &program)
{
    return std::make_shared<const core::Trace>(
        rankstep::testing::runProgram(core::RunConfig{ranks, 2, ranks, {}}, program));
}

class WaitForViewTest : public ::testing::Test
{
protected:
    void SetUp() override { m_view.resize(500, 400); }
    testing::ViewContext m_context;
    WaitForView m_view{m_context.session, m_context.appearance};
};

TEST_F(WaitForViewTest, WithoutAHangShowsOnlyThePlaceholder)
{
    m_context.session.setTrace(nullptr);
    EXPECT_FALSE(m_view.hasDiagnosis());
    EXPECT_TRUE(m_view.arrows().empty());
    EXPECT_TRUE(m_view.nodeRects().empty());
    m_context.session.setTrace(run(4, &rankstep::testing::ddp));
    EXPECT_FALSE(m_view.hasDiagnosis());
    EXPECT_EQ(m_view.rankAt(QPointF(250, 200)), -1);
    EXPECT_TRUE(m_view.toolTipAt(QPointF(250, 200)).isEmpty());
}

TEST_F(WaitForViewTest, TwoRanksReceivingFirstWaitOnEachOtherWithDashedArrows)
{
    m_context.session.setTrace(run(2, bothReceiveFirst));
    ASSERT_TRUE(m_view.hasDiagnosis());
    EXPECT_EQ(m_view.arrows(), (std::vector<WaitArrow>{{0, 1, true}, {1, 0, true}}));
    const QString line = QStringLiteral(" · line %1").arg(g_receiveLine);
    EXPECT_EQ(testing::utf8(m_view.captionOf(0)),
              "waits in receive from any rank" + testing::utf8(line));
    EXPECT_EQ(testing::utf8(m_view.captionOf(1)),
              "waits in receive from any rank" + testing::utf8(line));
    const QString tip = m_view.toolTipAt(m_view.nodeRectOf(1).center());
    EXPECT_TRUE(tip.startsWith(QStringLiteral("Rank 1: waits in receive from any rank")))
        << testing::utf8(tip);
    EXPECT_TRUE(tip.contains(QStringLiteral("A message from rank 0 would let it go on")))
        << testing::utf8(tip);
    EXPECT_TRUE(tip.contains(QStringLiteral("Waited on by rank 0"))) << testing::utf8(tip);
}

TEST_F(WaitForViewTest, ARankThatSkipsTheAllreduceIsFinishedAndEveryOtherWaitsOnIt)
{
    m_context.session.setTrace(run(4, rankThreeSkipsTheAllreduce));
    ASSERT_TRUE(m_view.hasDiagnosis());
    EXPECT_EQ(m_view.arrows(),
              (std::vector<WaitArrow>{{0, 3, false}, {1, 3, false}, {2, 3, false}}));
    EXPECT_EQ(testing::utf8(m_view.captionOf(3)), "finished without calling allreduce(layer 0)");
    EXPECT_EQ(testing::utf8(m_view.captionOf(0)),
              "waits in allreduce(layer 0) for rank 3 · line " + std::to_string(g_allreduceLine));
    EXPECT_EQ(testing::utf8(m_view.title()), "Rank 3 finished without calling allreduce(layer 0)");
    for (int rank = 0; rank < 4; ++rank)
        EXPECT_EQ(m_view.rankAt(m_view.nodeRectOf(rank).center()), rank);
    const QString tip = m_view.toolTipAt(m_view.nodeRectOf(3).center());
    EXPECT_TRUE(
        tip.startsWith(QStringLiteral("Rank 3: finished without calling allreduce(layer 0)")))
        << testing::utf8(tip);
    EXPECT_TRUE(tip.contains(QStringLiteral("Waited on by ranks 0, 1 and 2")))
        << testing::utf8(tip);
    EXPECT_TRUE(m_view.toolTipAt(m_view.nodeRectOf(0).center())
                    .contains(QStringLiteral("Waits on rank 3")));
}

// The picture is the moment the run stopped. Stepped back to before the hang, it said "rank 0
// waits in allreduce · line 28" while the editor put every rank on the backward's line and the
// other views showed an earlier time: now it is faded under a notice with both times, shows no
// moment of the cursor's, and its button goes to the end.
TEST_F(WaitForViewTest, BeforeTheHangThePictureSaysItIsTheEndAndLeadsThere)
{
    m_context.session.setTrace(run(4, computesThenRankThreeSkips));
    ASSERT_TRUE(m_view.hasDiagnosis());
    StepController &stepper = m_context.session.stepper();
    ASSERT_TRUE(stepper.atEnd());
    EXPECT_FALSE(m_view.beforeTheHang());
    EXPECT_EQ(m_view.shownTime(), stepper.cursorTime());
    EXPECT_TRUE(m_view.noticeText().isEmpty());
    EXPECT_TRUE(m_view.toTheHangButton()->isHidden());
    const QRectF nodeAtTheEnd = m_view.nodeRectOf(0);

    stepper.home();
    EXPECT_TRUE(m_view.beforeTheHang());
    EXPECT_EQ(m_view.shownTime(), std::nullopt);
    EXPECT_EQ(testing::utf8(m_view.noticeText()),
              "This is where the run stopped, at its end (t = 1). The other views show t = 0, "
              "before the ranks hung.");
    EXPECT_FALSE(m_view.toTheHangButton()->isHidden());
    const QRectF notice = m_view.noticeRect();
    EXPECT_TRUE(QRectF(m_view.rect()).contains(notice));
    EXPECT_TRUE(notice.contains(QRectF(m_view.toTheHangButton()->geometry())));
    // The picture moves below the notice, not under it.
    EXPECT_GE(m_view.nodeRectOf(0).top(), notice.bottom());
    EXPECT_GT(m_view.nodeRectOf(0).top(), nodeAtTheEnd.top());

    QTest::mouseClick(m_view.toTheHangButton(), Qt::LeftButton);
    EXPECT_TRUE(stepper.atEnd());
    EXPECT_FALSE(m_view.beforeTheHang());
    EXPECT_TRUE(m_view.toTheHangButton()->isHidden());
}

TEST_F(WaitForViewTest, AMismatchNamesEachRanksCallAndWhoHasNotReachedIt)
{
    m_context.session.setTrace(run(3, allreduceOfDifferentLayers));
    ASSERT_TRUE(m_view.hasDiagnosis());
    EXPECT_EQ(m_view.trace()->diagnosis->kind, core::ErrorKind::Mismatch);
    EXPECT_EQ(testing::utf8(m_view.title()),
              "Collective mismatch: ranks 0 and 1 made different calls");
    EXPECT_TRUE(m_view.captionOf(0).startsWith(QStringLiteral("waits in allreduce(layer 0)")));
    EXPECT_TRUE(m_view.captionOf(1).startsWith(QStringLiteral("waits in allreduce(layer 1)")));
    // The mismatch ended the run before rank 2's first turn.
    EXPECT_EQ(testing::utf8(m_view.captionOf(2)), "never started: the run ended first");
    EXPECT_GT(testing::distinctColors(m_view.grab().toImage()), 50);
}

TEST_F(WaitForViewTest, PaintsAReadablePictureOfTheHang)
{
    m_context.session.setTrace(run(4, rankThreeSkipsTheAllreduce));
    const QImage image = m_view.grab().toImage();
    EXPECT_EQ(image.size(), QSize(500, 400));
    EXPECT_GT(testing::distinctColors(image), 50) << "the picture looks blank";
    // The finished rank's node is gray, the others in their rank colors.
    const QRectF finished = m_view.nodeRectOf(3);
    const QColor gray =
        image.pixelColor(QPointF(finished.left() + 4, finished.center().y()).toPoint());
    EXPECT_LT(std::abs(gray.red() - gray.blue()), 8) << gray.name().toStdString();
    EXPECT_GT(gray.lightness(), 200) << gray.name().toStdString();
    const QRectF waiting = m_view.nodeRectOf(1);
    const QColor orange =
        image.pixelColor(QPointF(waiting.left() + 4, waiting.center().y()).toPoint());
    EXPECT_GT(orange.red() - orange.blue(), 60) << orange.name().toStdString();
    const QString folder = qEnvironmentVariable("RANKSTEP_SCREENSHOTS");
    if (!folder.isEmpty()) {
        const QString path = QDir(folder).filePath(QStringLiteral("waitfor-hang.png"));
        EXPECT_TRUE(image.save(path)) << testing::utf8(path);
    }
}

// Presenting at 150%: the nodes grow with their text (at a fixed size the two-line captions
// were cut to "waits in allreduce(l…").
TEST_F(WaitForViewTest, NodesGrowWithTheZoomWhereThereIsRoom)
{
    m_view.resize(900, 420);
    m_context.session.setTrace(run(4, rankThreeSkipsTheAllreduce));
    const QSizeF unzoomed = m_view.nodeRectOf(0).size();
    m_context.appearance.setZoom(1.5);
    const QSizeF zoomed = m_view.nodeRectOf(0).size();
    EXPECT_NEAR(zoomed.width() / unzoomed.width(), 1.5, 0.01);
    EXPECT_GT(zoomed.height() / unzoomed.height(), 1.25); // the ring is shorter than wide
    for (int rank = 0; rank < 4; ++rank)
        EXPECT_TRUE(QRectF(m_view.rect()).contains(m_view.nodeRectOf(rank))) << rank;
    m_context.appearance.setZoom(1.0);
}

// Presenting at 1280x800 the pane is about 370 px wide and the title was cut: it shrinks towards
// the text's size first, then takes a second line, and is never cut where two lines hold it.
TEST_F(WaitForViewTest, ANarrowPaneKeepsTheWholeTitle)
{
    m_context.session.setTrace(run(4, rankThreeSkipsTheAllreduce));
    m_view.resize(900, 420);
    const double roomy = m_view.titleFont().pointSizeF();
    EXPECT_NEAR(roomy, m_view.font().pointSizeF() * 1.25, 0.01);
    const QString title = QStringLiteral("Rank 3 finished without calling allreduce(layer 0)");
    ASSERT_EQ(m_view.title(), title);
    for (int width : {420, 320, 260}) {
        m_view.resize(width, 420);
        const QFont font = m_view.titleFont();
        EXPECT_GE(font.pointSizeF(), m_view.font().pointSizeF());
        m_view.grab();
        EXPECT_FALSE(m_view.elidedTexts().contains(title)) << width << " px";
    }
    EXPECT_GT(m_view.titleRect().height(), QFontMetricsF(m_view.titleFont()).lineSpacing() * 1.5)
        << "260 px: the title takes two lines";
}

// What a paint could not fit is reported for --describe: nothing in a roomy view; the captions
// and the ranks' names in one far too small, as drawn.
TEST_F(WaitForViewTest, ReportsThePaintedTextsItHadToCut)
{
    m_context.session.setTrace(run(4, rankThreeSkipsTheAllreduce));
    m_view.resize(900, 500);
    m_view.grab();
    EXPECT_EQ(m_view.describedName(), QStringLiteral("hang"));
    EXPECT_TRUE(m_view.elidedTexts().isEmpty()) << testing::utf8(m_view.elidedTexts().join('|'));
    m_view.resize(200, 200);
    m_view.grab();
    const QStringList cut = m_view.elidedTexts();
    EXPECT_TRUE(cut.contains(m_view.captionOf(0))) << testing::utf8(cut.join('|'));
    EXPECT_TRUE(cut.contains(m_view.captionOf(3))) << testing::utf8(cut.join('|'));
}

TEST_F(WaitForViewTest, SixteenRanksEachGetANodeInsideTheView)
{
    m_context.session.setTrace(run(16, rankThreeSkipsTheAllreduce));
    ASSERT_EQ(m_view.nodeRects().size(), 16U);
    EXPECT_EQ(m_view.arrows().size(), 15U);
    for (const QRectF &node : m_view.nodeRects())
        EXPECT_TRUE(QRectF(m_view.rect()).contains(node));
}

TEST_F(WaitForViewTest, ClickingANodeTellsItsRankAndTheLineItWaitsOn)
{
    m_context.session.setTrace(run(4, rankThreeSkipsTheAllreduce));
    QSignalSpy activated(&m_view, &WaitForView::rankActivated);
    QTest::mouseClick(&m_view, Qt::LeftButton, {}, m_view.nodeRectOf(1).center().toPoint());
    ASSERT_EQ(activated.count(), 1);
    EXPECT_EQ(activated.at(0).at(0).toInt(), 1);
    EXPECT_EQ(activated.at(0).at(1).toInt(), g_allreduceLine);
    QTest::mouseClick(&m_view, Qt::LeftButton, {}, m_view.nodeRectOf(3).center().toPoint());
    ASSERT_EQ(activated.count(), 2);
    EXPECT_EQ(activated.at(1).at(1).toInt(), 0); // finished: no line to wait on
    QTest::mouseClick(&m_view, Qt::LeftButton, {}, QPoint(2, 2));
    EXPECT_EQ(activated.count(), 2);
}

class WaitForTabTest : public testing::WindowTest
{};

TEST_F(WaitForTabTest, AHungRunOpensWhyItHungAndAnotherLessonDisablesIt)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("hang")));
    auto *tabs = window->findChild<QTabWidget *>(QStringLiteral("leftTabs"));
    ASSERT_NE(tabs, nullptr);
    auto *view = window->findChild<WaitForView *>(QStringLiteral("waitForView"));
    ASSERT_EQ(view, window->parts().waitForView);
    const int tab = tabs->indexOf(view);
    EXPECT_EQ(testing::utf8(tabs->tabText(tab)), "Why it hung");
    EXPECT_FALSE(tabs->isTabEnabled(tab));
    ASSERT_TRUE(runAndWait(*window));
    if (QMessageBox *box = testing::visibleMessageBox(QStringLiteral("runErrorDialog")))
        box->close();
    ASSERT_TRUE(window->parts().session->trace() && window->parts().session->trace()->diagnosis);
    EXPECT_TRUE(tabs->isTabEnabled(tab));
    EXPECT_EQ(tabs->currentWidget(), view);
    EXPECT_FALSE(view->arrows().empty());
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    EXPECT_FALSE(tabs->isTabEnabled(tab));
    EXPECT_FALSE(view->hasDiagnosis());
    EXPECT_NE(tabs->currentWidget(), view);
}

TEST_F(WaitForTabTest, ClickingARankInThePictureMovesTheEditorToItsWaitingLine)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("hang")));
    ASSERT_TRUE(runAndWait(*window));
    if (QMessageBox *box = testing::visibleMessageBox(QStringLiteral("runErrorDialog")))
        box->close();
    ASSERT_TRUE(window->parts().session->trace() && window->parts().session->trace()->diagnosis);
    WaitForView *view = window->parts().waitForView;
    for (const core::RankWait &wait : window->parts().session->trace()->diagnosis->ranks) {
        if (wait.finished)
            continue;
        window->parts().editor->jumpToLine(1);
        QTest::mouseClick(view, Qt::LeftButton, {}, view->nodeRectOf(wait.rank).center().toPoint());
        int line = 0, index = 0;
        window->parts().editor->getCursorPosition(&line, &index);
        EXPECT_EQ(line + 1, wait.line) << "rank " << wait.rank;
        EXPECT_EQ(window->parts().editor->selectedRankLine(), wait.line) << "rank " << wait.rank;
        EXPECT_EQ(window->parts().stateView->selectedRank(), wait.rank);
    }
}

TEST_F(WaitForTabTest, AtTheEndOfTheHangTheFinishedRankHasNoMarkerOnItsLastOperation)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("hang")));
    ASSERT_TRUE(runAndWait(*window));
    const std::string &starter = testing::builtinLesson(QStringLiteral("hang")).starter;
    const int lastOperation =
        testing::lineContaining(starter, QStringLiteral("del grad_activations[0]"));
    const int allreduce = testing::lineContaining(starter, QStringLiteral("model.allreduce("));
    ASSERT_GT(lastOperation, 0);

    // Rank 3 finished: a marker on its last operation would say it stands there.
    EXPECT_FALSE(window->parts().editor->rankMarginText(lastOperation).contains(QLatin1Char('3')))
        << testing::utf8(window->parts().editor->rankMarginText(lastOperation));
    EXPECT_TRUE(window->parts().editor->rankMarginText(allreduce).contains(QLatin1Char('0')));
}

TEST_F(WaitForTabTest, ARankThatSkipsAnAllreduceAndFailsShowsWhoWaitsForIt)
{
    std::string code = testing::builtinLesson(QStringLiteral("hang")).solution;
    const std::string call = "        grad_weights[layer] = await model.allreduce(";
    ASSERT_NE(code.find(call), std::string::npos);
    code.replace(code.find(call), call.size(),
                 "        if not (model.rank == 2 and layer == 0):\n    " + call);
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("hang")));
    window->parts().editor->replaceAllUndoable(QString::fromStdString(code));
    ASSERT_TRUE(runAndWait(*window));
    ASSERT_TRUE(window->parts().session->trace() && window->parts().session->trace()->error);
    const int allreduce = testing::lineContaining(code, QStringLiteral("model.allreduce("));
    const int update = testing::lineContaining(code, QStringLiteral("model.update("));

    // Rank 2's update fails because it skipped the allreduce that ranks 0 and 1 wait in.
    EXPECT_NE(window->parts().session->trace()->error->message.find(
                  "rank 2 stopped at line " + std::to_string(update) +
                  " without calling allreduce(layer 0), which ranks 0 and 1 wait in"),
              std::string::npos)
        << window->parts().session->trace()->error->message;
    // The results lead with rank 2's own error, then who waited for it: they led with the
    // allreduce it never called.
    const std::string results = testing::utf8(window->parts().results->text());
    const std::string error = window->parts().session->trace()->error->message.substr(
        0, window->parts().session->trace()->error->message.find('\n'));
    EXPECT_NE(results.find("rank 2, line " + std::to_string(update) + ": " + error +
                           "; ranks 0 and 1 wait for it in allreduce(layer 0)."),
              std::string::npos)
        << results;
    EXPECT_EQ(testing::utf8(window->parts().editor->rankMarginText(allreduce).simplified()), "0 1");
    EXPECT_EQ(testing::utf8(window->parts().editor->rankMarginText(update).simplified()), "2");
    const WaitForView &view = *window->parts().waitForView;
    EXPECT_TRUE(view.hasDiagnosis());
    EXPECT_EQ(testing::visibleMessageBox(QStringLiteral("runErrorDialog")), nullptr);

    // The picture tells the same story: an error stopped rank 2, not a deadlock; ranks 0 and 1
    // wait on rank 2 alone; rank 3 never started and nobody waits on it.
    EXPECT_EQ(testing::utf8(view.title()),
              "An error stopped rank 2 at line " + std::to_string(update));
    EXPECT_EQ(testing::utf8(view.detail()),
              "Ranks 0 and 1 wait for it in allreduce(layer 0). Rank 3 never started.");
    EXPECT_EQ(view.arrows(), (std::vector<WaitArrow>{{0, 2, false}, {1, 2, false}}));
    EXPECT_EQ(testing::utf8(view.captionOf(2)),
              "stopped by an error · line " + std::to_string(update));
    EXPECT_EQ(testing::utf8(view.captionOf(0)),
              "waits in allreduce(layer 0) for rank 2 · line " + std::to_string(allreduce));
    EXPECT_EQ(testing::utf8(view.captionOf(3)), "never started: the run ended first");
}

// The broadcast lesson's untouched starter: rank 1's forward finds no weights (KeyError) while
// rank 0 waits in the allreduce; ranks 2 and 3 never ran.
TEST_F(WaitForTabTest, TheBroadcastStarterShowsRankOnesErrorAndNoArrowToRanksThatNeverRan)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("broadcast")));
    ASSERT_TRUE(runAndWait(*window));
    if (QMessageBox *box = testing::visibleMessageBox(QStringLiteral("runErrorDialog")))
        box->close();
    const std::string &starter = testing::builtinLesson(QStringLiteral("broadcast")).starter;
    const int forward = testing::lineContaining(starter, QStringLiteral("= model.forward("));
    const int allreduce = testing::lineContaining(starter, QStringLiteral("model.allreduce("));
    const WaitForView &view = *window->parts().waitForView;
    ASSERT_TRUE(view.hasDiagnosis());
    EXPECT_EQ(testing::utf8(view.title()),
              "An error stopped rank 1 at line " + std::to_string(forward));
    EXPECT_EQ(testing::utf8(view.captionOf(1)),
              "stopped by an error · line " + std::to_string(forward));
    EXPECT_EQ(testing::utf8(view.captionOf(0)),
              "waits in allreduce(layer 0) for rank 1 · line " + std::to_string(allreduce));
    for (int rank : {2, 3})
        EXPECT_EQ(testing::utf8(view.captionOf(rank)), "never started: the run ended first");
    EXPECT_EQ(view.arrows(), (std::vector<WaitArrow>{{0, 1, false}}));
    EXPECT_TRUE(view.toolTipAt(view.nodeRectOf(1).center()).contains(QStringLiteral("KeyError")));
}

} // namespace
} // namespace rankstep::gui
