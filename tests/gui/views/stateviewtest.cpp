// SPDX-License-Identifier: MIT
// The state view fed replayed reference runs: tooltips, colors in the grabbed frame, selection,
// the animations between states, and (with RANKSTEP_SCREENSHOTS=folder) the docs' pictures.
#include "palette.h"
#include "statetestsupport.h"
#include "stateview.h"
#include "tests/gui/support/eventwaits.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QImage>
#include <QSignalSpy>
#include <QTest>

#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

namespace gui = rankstep::gui;
using rankstep::core::MapKind;
using rankstep::replay::RunState;

namespace {

std::unique_ptr<gui::StateView> shownView(const gui::testing::ReplayedRun &run, QSize size)
{
    auto view = gui::testing::makeView<gui::StateView>();
    // The shared session's trace too: its rank count bounds the ranks a picker may choose (run
    // after a test that left a one-rank trace there, rank 3 of 16 was refused).
    gui::testing::sharedContext().session.setTrace(run.trace());
    // The first 16 ranks, whichever a test before chose (in one process, as --gtest_shuffle runs).
    gui::testing::sharedContext().session.setShownRanks({});
    // The session's new trace puts its state at the end of the run: the view starts from none,
    // so that the first state a test sets shows at once, as the first step does.
    const bool animated = view->isAnimated();
    view->setAnimated(false);
    view->setState({});
    view->setAnimated(animated);
    view->resize(size);
    view->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(view.get()));
    return view;
}

bool holdsColor(const QImage &image, const QColor &color)
{
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (image.pixel(x, y) == color.rgb())
                return true;
    return false;
}

// The center of where `map`'s objects of `band` are drawn in rank's panel.
QPointF cellCenter(const gui::StateView &view, int rank, MapKind map, int band)
{
    const auto layout = gui::panelLayout(view.panelRectOf(rank), view.trace()->config.layers);
    return gui::mapCell(layout, map, band).center();
}

TEST(StateView, WithoutAStateShowsOnlyThePlaceholder)
{
    gui::testing::ViewContext context;
    gui::StateView view(context.session, context.appearance);
    view.resize(400, 300);
    EXPECT_TRUE(view.visibleRanks().empty());
    EXPECT_TRUE(view.toolTipAt(QPointF(200, 150)).isEmpty());
    EXPECT_EQ(view.rankAt(QPointF(200, 150)), -1);
    EXPECT_FALSE(view.grab().isNull());
}

TEST(StateView, HoveringAGradientTellsItsNameValueAndSize)
{
    gui::testing::ReplayedRun run("ddp");
    auto view = shownView(run, QSize(900, 700));
    view->setState(run.afterSlices(1));
    ASSERT_EQ(view->visibleRanks().size(), 4U);
    EXPECT_EQ(view->toolTipAt(cellCenter(*view, 0, MapKind::GradWeights, 1)).toStdString(),
              "grad_weights[1] · WeightGrad(layer=1, batches={0}, shards={0}, total=1) · 262144");
    const auto hit = view->objectAt(cellCenter(*view, 0, MapKind::Activations, 2));
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->rank, 0);
    EXPECT_EQ(hit->map, MapKind::Activations);
    // Rank 1 has not run yet: nothing to hover but its panel.
    EXPECT_EQ(view->toolTipAt(cellCenter(*view, 1, MapKind::Weights, 0)).toStdString(),
              "rank 1 holds 0 B of the run's largest 1.84 MB");
    EXPECT_TRUE(view->toolTipAt(view->panelRectOf(0).center())
                    .startsWith(QStringLiteral(
                        "rank 0 holds 1.84 MB of the run's largest 1.84 MB; last ran line ")));
    EXPECT_TRUE(view->toolTipAt(QPointF(1, 1)).isEmpty()); // the gap around the panels
}

TEST(StateView, PaintsWeightsInTheirLayersColorAndUpdatedOnesEdgedYellow)
{
    const gui::Palette &colors = gui::Palette::of(gui::Palette::Scheme::Standard);
    gui::testing::ReplayedRun run("ddp");
    auto view = shownView(run, QSize(900, 700));
    view->setState(run.afterSlices(1));
    const QImage image = view->grab().toImage();
    EXPECT_TRUE(holdsColor(image, colors.layer(0, 2)));
    EXPECT_TRUE(holdsColor(image, colors.layer(1, 2)));
    EXPECT_FALSE(holdsColor(image, colors.update().darker(115))); // nothing updated yet
    view->setState(run.stateAt(run.home().end()));
    QSignalSpy finished(view.get(), &gui::StateView::animationFinished);
    ASSERT_TRUE(finished.wait(gui::testing::kSettleTimeoutMs));
    const QImage end = view->grab().toImage();
    EXPECT_TRUE(holdsColor(end, colors.update().darker(115))); // every weight updated
    EXPECT_TRUE(holdsColor(end, colors.layer(1, 2)));          // and still its layer's
}

TEST(StateView, ClickingAPanelSelectsItsRank)
{
    gui::testing::ReplayedRun run("ddp");
    auto view = shownView(run, QSize(900, 700));
    view->setState(run.afterSlices(2));
    QSignalSpy selected(view.get(), &gui::StateView::rankSelected);
    QTest::mouseClick(view.get(), Qt::LeftButton, {},
                      view->panelRectOf(2).topLeft().toPoint() + QPoint(20, 10));
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(selected.first().first().toInt(), 2);
    EXPECT_EQ(view->selectedRank(), 2);
}

TEST(StateView, RapidStateChangesEndInOneFinishedAnimation)
{
    gui::testing::ReplayedRun run("gpipe");
    auto view = shownView(run, QSize(1000, 800));
    rankstep::replay::Cursor cursor = run.home();
    view->setState(run.stateAt(cursor));
    EXPECT_FALSE(view->isAnimating());
    const gui::testing::EventCounter paints(view.get(), QEvent::Paint);
    for (int i = 0; i < 40; ++i) {
        cursor = cursor.nextOperation();
        const int painted = paints.count();
        view->setState(run.stateAt(cursor));
        // Some states skipped at once, some with a frame painted mid-fade.
        if (i % 5 != 0) {
            ASSERT_TRUE(paints.waitPast(painted)) << "state " << i << " was never painted";
        }
    }
    view->setState(run.stateAt(cursor.end()));
    EXPECT_TRUE(view->isAnimating());
    EXPECT_FALSE(view->grab().isNull());
    QSignalSpy finished(view.get(), &gui::StateView::animationFinished);
    ASSERT_TRUE(finished.wait(gui::testing::kSettleTimeoutMs));
    EXPECT_FALSE(view->isAnimating());
}

TEST(StateView, AnimationFramesRepaintOnlyThePanelsThatChanged)
{
    gui::testing::ReplayedRun run("ddp");
    auto view = shownView(run, QSize(900, 700));
    view->setState(run.afterSlices(0));
    view->setState(run.afterSlices(1)); // only rank 0 worked
    ASSERT_TRUE(view->isAnimating());
    const QRegion animated = view->animatedRegion();
    EXPECT_TRUE(animated.contains(view->panelRectOf(0).center().toPoint()));
    EXPECT_FALSE(animated.contains(view->panelRectOf(1).center().toPoint()));
    view->setState(run.afterSlices(1));
    EXPECT_TRUE(view->animatedRegion().isEmpty()); // nothing changed: nothing fades
}

TEST(StateView, AJumpThatChangesMoreThanTheEyeCanFollowShowsAtOnce)
{
    gui::testing::ReplayedRun run("pipeline_fsdp");
    auto view = shownView(run, QSize(1200, 900));
    const rankstep::replay::Cursor home = run.home();
    view->setState(run.afterSlices(1));
    view->setState(run.afterSlices(2)); // one rank's slice: a few objects fade in
    EXPECT_TRUE(view->isAnimating());
    view->setState(run.stateAt(home.end())); // every shown rank's whole run at once
    EXPECT_FALSE(view->isAnimating());
    EXPECT_TRUE(view->travels().empty());
    const QImage end = view->grab().toImage(); // painted in full at once, as after a fade
    view->setAnimated(false);
    view->setState(run.stateAt(home));
    view->setState(run.stateAt(home.end()));
    EXPECT_EQ(view->grab().toImage(), end);
}

TEST(StateView, WhatAReceiveBroughtFadesInWithAGrayOutline)
{
    gui::testing::ReplayedRun run("gpipe");
    const rankstep::core::Trace &trace = *run.trace();
    // The first activation rank 1 stores after its first receive.
    std::size_t receive = 0;
    while (trace.events[receive].rank != 1 ||
           trace.events[receive].op != rankstep::core::OpKind::Receive)
        ++receive;
    std::size_t change = 0;
    while (trace.changes[change].rank != 1 || trace.changes[change].eventCount <= receive)
        ++change;
    ASSERT_EQ(trace.changes[change].map, MapKind::Activations);
    const auto at = [&](std::size_t changes) {
        return run.stateAt(run.home().toPosition({trace.changes[change].eventCount, changes}));
    };
    auto view = shownView(run, QSize(1000, 800));
    view->setState(at(change));
    view->setState(at(change + 1));
    ASSERT_TRUE(view->isAnimating());
    const std::size_t index = view->state().ranks[1].map(MapKind::Activations).size() - 1;
    EXPECT_EQ(view->state().ranks[1].map(MapKind::Activations)[index].key(),
              trace.changes[change].key);
    const gui::ObjectLook arriving = view->lookOf(1, MapKind::Activations, index);
    EXPECT_TRUE(arriving.arrived);
    EXPECT_LT(arriving.opacity, 1.0);
    EXPECT_FALSE(view->lookOf(1, MapKind::Weights, 0).arrived); // loaded long before
    QSignalSpy finished(view.get(), &gui::StateView::animationFinished);
    ASSERT_TRUE(finished.wait(gui::testing::kSettleTimeoutMs));
    EXPECT_EQ(view->lookOf(1, MapKind::Activations, index).opacity, 1.0);
    EXPECT_FALSE(view->lookOf(1, MapKind::Activations, index).arrived);
}

TEST(StateView, ShowsTheChosenRanksOfALargeRun)
{
    gui::testing::ReplayedRun run("pipeline_fsdp");
    auto view = shownView(run, QSize(1500, 900));
    view->setState(run.stateAt(run.home().end()));
    EXPECT_EQ(view->visibleRanks().size(), 16U);
    view->setVisibleRanks({3, 7, 99});
    EXPECT_EQ(view->visibleRanks(), (std::vector<int>{3, 7}));
    EXPECT_TRUE(view->panelRectOf(0).isEmpty());
    EXPECT_EQ(view->rankAt(view->panelRectOf(7).center()), 7);
}

// Two ranks of one context group: each stores the output of a forward that has seen its own
// chunk's keys and values only (an unfinished attention, docs/simulation.md).
rankstep::core::RankTask storesAnUnfinishedAttention(rankstep::core::Model &m)
{
    using rankstep::core::CallSite;
    const auto loaded = m.loadWeights(0);
    const rankstep::core::Object chunk = m.getActivation({0});
    m.activations.set(0, chunk);
    const std::vector<rankstep::core::Object> own{
        *m.engine().keysValues(CallSite{m.rank, 1}, 0, chunk, loaded.first)};
    m.activations.set(1, *m.engine().forward(CallSite{m.rank, 2}, 0, chunk, loaded.first, &own));
    co_return;
}

// The mean lightness of `image` over `rect`.
double lightnessOver(const QImage &image, const QRectF &rect)
{
    double sum = 0;
    int count = 0;
    for (int y = int(rect.top()) + 2; y < int(rect.bottom()) - 1; ++y)
        for (int x = int(rect.left()) + 2; x < int(rect.right()) - 1; ++x, ++count)
            sum += QColor(image.pixel(x, y)).lightness();
    return count > 0 ? sum / count : 0;
}

// The marks of a part of a value (an unfinished attention's veil over the chunks it lacks) are
// drawn over an object that stands still too, not only while it moves.
TEST(StateView, AnUnfinishedAttentionStandingStillIsVeiledOverTheChunksItLacks)
{
    rankstep::core::RunConfig config{2, 2, 1, {}};
    config.layout.context = 2;
    gui::testing::ReplayedRun run(config, storesAnUnfinishedAttention);
    auto view = shownView(run, QSize(900, 500));
    view->setAnimated(false);
    view->setState(run.stateAt(run.home().end()));
    const QImage image = view->grab().toImage();
    const auto layout = gui::panelLayout(view->panelRectOf(0), config.layers);
    std::optional<QRectF> unfinished;
    for (const gui::PlacedObject &placed : gui::placeObjects(layout, view->state().ranks[0]))
        if (placed.map == MapKind::Activations &&
            view->state().ranks[0].map(placed.map)[placed.index].object().layer == 1)
            unfinished = placed.rect;
    ASSERT_TRUE(unfinished);
    // Half seen (chunk 0 of 2): the right half is veiled, the left is not (below the label).
    const QRectF seen(QPointF(unfinished->left(), unfinished->bottom() - 7),
                      QSizeF(unfinished->width() / 2, 7));
    const QRectF lacking = seen.translated(unfinished->width() / 2, 0);
    EXPECT_GT(lightnessOver(image, lacking), lightnessOver(image, seen) + 30);
    const QString tip = view->toolTipAt(unfinished->center());
    EXPECT_TRUE(tip.contains(QStringLiteral("attended={0}"))) << tip.toStdString();
}

// Writes the docs' pictures when RANKSTEP_SCREENSHOTS names a folder.
TEST(StateViewScreenshots, WritesTheDocsPictures)
{
    const char *folder = std::getenv("RANKSTEP_SCREENSHOTS");
    if (!folder)
        GTEST_SKIP() << "set RANKSTEP_SCREENSHOTS=folder to write the pictures";
    ASSERT_TRUE(QDir().mkpath(QString::fromLocal8Bit(folder)));
    const auto save = [folder](const char *puzzle, double fraction, int slices, QSize size,
                               const char *file) {
        gui::testing::ReplayedRun run(puzzle);
        auto view = shownView(run, size);
        const auto cursor = slices > 0 ? run.home() : run.home().fromFraction(fraction);
        view->setState(slices > 0 ? run.afterSlices(slices) : run.stateAt(cursor));
        view->setSelectedRank(0);
        const QString path = QDir(QString::fromLocal8Bit(folder)).filePath(QString::fromUtf8(file));
        EXPECT_TRUE(view->grab().save(path)) << path.toStdString();
    };
    save("ddp", 0, 5, QSize(1200, 800), "state-ddp.png");
    save("gpipe", 0.4, 0, QSize(1200, 900), "state-gpipe.png");
    save("pipeline_fsdp", 0.3, 0, QSize(1500, 900), "state-pipeline-fsdp.png");
}

} // namespace
