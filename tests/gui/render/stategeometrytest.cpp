// SPDX-License-Identifier: MIT
// The state view's geometry and words: panel grids, bands bottom to top, shard cells, where a
// DDP rank's objects land and which one a point hits, titles and tooltips.
#include "stategeometry.h"
#include "statepainter.h"
#include "statepanels.h"
#include "statesummary.h"
#include "statetestsupport.h"
#include "statetext.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QFont>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QSet>

#include <cmath>

namespace gui = rankstep::gui;
using rankstep::core::MapKind;

namespace {

const QRectF kArea(0, 0, 1500, 900);

void expectPanelsInsideAndApart(const gui::PanelGrid &grid, int count)
{
    ASSERT_GE(grid.columns * grid.rows, count);
    for (int i = 0; i < count; ++i) {
        const QRectF panel = gui::panelRect(grid, i, kArea, 6);
        EXPECT_TRUE(kArea.contains(panel.adjusted(1, 1, -1, -1))) << "panel " << i;
        for (int j = 0; j < i; ++j)
            EXPECT_FALSE(panel.intersects(gui::panelRect(grid, j, kArea, 6))) << i << ", " << j;
    }
}

TEST(StateGeometry, OneRankFillsTheArea)
{
    EXPECT_EQ(gui::panelGrid(1, kArea.size(), 2), (gui::PanelGrid{1, 1}));
    EXPECT_EQ(gui::panelRect({1, 1}, 0, kArea, 6), kArea);
}

TEST(StateGeometry, FourRanksMakeATwoByTwoGrid)
{
    const gui::PanelGrid grid = gui::panelGrid(4, kArea.size(), 2);
    EXPECT_EQ(grid, (gui::PanelGrid{2, 2}));
    expectPanelsInsideAndApart(grid, 4);
    EXPECT_EQ(gui::panelRect(grid, 3, kArea, 6), QRectF(753, 453, 747, 447));
}

TEST(StateGeometry, SixteenRanksStayWideEnoughToRead)
{
    const gui::PanelGrid grid = gui::panelGrid(16, kArea.size(), 4);
    EXPECT_EQ(grid, (gui::PanelGrid{6, 3}));
    expectPanelsInsideAndApart(grid, 16);
    EXPECT_GE(gui::panelRect(grid, 15, kArea, 6).width(), 240);
}

// At 1280x800 the state tab's sixteen panels of a 128-layer model (the 16,384-rank run's) stood
// in one row, 14 pixels wide, for the bands' height, and the title drew each rank's number at 5
// points. Panels keep the width their number needs, in more rows.
TEST(StateGeometry, PanelsOfAManyLayerModelKeepTheWidthTheirNumberNeeds)
{
    const QSizeF area(270, 190);
    constexpr double kLeast = 34;
    const gui::PanelGrid grid = gui::panelGrid(16, area, 128, kLeast);
    EXPECT_GE(area.width() / grid.columns, kLeast);
    EXPECT_GE(grid.columns * grid.rows, 16);
    EXPECT_GT(grid.columns, 1);
    EXPECT_EQ(gui::panelGrid(16, area, 128, 1000), (gui::PanelGrid{1, 16})) << "none fits: widest";
    EXPECT_EQ(gui::panelGrid(16, kArea.size(), 4, kLeast), gui::panelGrid(16, kArea.size(), 4))
        << "room enough: as before";
}

TEST(StateGeometry, BandsStackFromTheInputAtTheBottom)
{
    const gui::PanelLayout layout = gui::panelLayout(QRectF(0, 0, 300, 400), 2);
    EXPECT_TRUE(layout.model.contains(gui::boundaryBand(layout, 0).center()));
    EXPECT_DOUBLE_EQ(gui::boundaryBand(layout, 0).bottom(), layout.model.bottom());
    EXPECT_DOUBLE_EQ(gui::layerBand(layout, 0).bottom(), gui::boundaryBand(layout, 0).top());
    EXPECT_DOUBLE_EQ(gui::boundaryBand(layout, 1).bottom(), gui::layerBand(layout, 0).top());
    EXPECT_NEAR(gui::boundaryBand(layout, 2).top(), layout.model.top(), 1e-9);
    EXPECT_LT(layout.memory.bottom(), layout.model.top());
}

TEST(StateGeometry, ThinLayersAreLabelledEveryFewLayers)
{
    EXPECT_EQ(gui::layerLabelStep(20.0, 12.0), 1);
    EXPECT_EQ(gui::layerLabelStep(12.0, 12.0), 1);
    EXPECT_EQ(gui::layerLabelStep(2.0, 12.0), 6);
    EXPECT_EQ(gui::layerLabelStep(5.0, 12.0), 3); // 2.4 rounded up: never overlapping
    EXPECT_EQ(gui::layerLabelStep(0.0, 12.0), 1); // a degenerate panel draws what it can
}

TEST(StateGeometry, ShardCellsSplitTheBarEvenly)
{
    const QRectF bar(10, 0, 100, 8);
    EXPECT_EQ(gui::shardCell(bar, 2, 4), QRectF(60, 0, 25, 8));
    EXPECT_EQ(gui::shardCell(bar, 0, 1), bar);
    EXPECT_EQ(gui::slotRect(QRectF(0, 0, 98, 10), 1, 2, 2), QRectF(50, 0, 48, 10));
}

TEST(StateGeometry, GradientsSitOnTheBoundaryTheyFlowInto)
{
    rankstep::core::Object grad;
    grad.kind = rankstep::core::ObjectKind::ActivationGrad;
    grad.layer = -1; // backward at layer 0 made it: the gradient of the input
    EXPECT_EQ(gui::bandOf(MapKind::GradActivations, grad, 2), 0);
    grad.layer = 1; // the loss's, on the output
    EXPECT_EQ(gui::bandOf(MapKind::GradActivations, grad, 2), 2);
    EXPECT_DOUBLE_EQ(gui::memoryFraction(1835008, 3670016), 0.5);
    EXPECT_DOUBLE_EQ(gui::memoryFraction(5, 0), 0.0);
}

TEST(StateGeometry, HitTestingFindsEachObjectOfADdpRank)
{
    gui::testing::ReplayedRun run("ddp");
    const rankstep::replay::RunState state = run.afterSlices(1);
    const auto &rank = state.ranks[0];
    const gui::PanelLayout layout = gui::panelLayout(QRectF(0, 0, 360, 420), 2);
    const auto placed = gui::placeObjects(layout, rank);
    ASSERT_EQ(placed.size(), 8U); // 2 weights, 2 opt states, 1 activation, 1 grad, 2 grads
    for (const auto &object : placed) {
        const auto hit = gui::objectAt(placed, object.rect.center());
        ASSERT_TRUE(hit);
        EXPECT_EQ(hit->map, object.map);
        EXPECT_EQ(hit->index, object.index);
    }
    const auto gradWeight =
        gui::objectAt(placed, gui::mapCell(layout, MapKind::GradWeights, 1).center());
    ASSERT_TRUE(gradWeight);
    EXPECT_EQ(rank.map(gradWeight->map)[gradWeight->index].key(), rankstep::core::Key(1));
    const auto activation =
        gui::objectAt(placed, gui::mapCell(layout, MapKind::Activations, 2).center());
    ASSERT_TRUE(activation);
    EXPECT_EQ(activation->map, MapKind::Activations);
    EXPECT_FALSE(gui::objectAt(placed, layout.title.center()));
    EXPECT_FALSE(gui::objectAt(placed, gui::mapCell(layout, MapKind::Activations, 1).center()));
}

TEST(StateGeometry, MicroBatchActivationsSitAtTheirBatches)
{
    gui::testing::ReplayedRun run("gpipe");
    const rankstep::replay::RunState state = run.stateAt(run.home().fromFraction(0.4));
    const auto &rank = state.ranks[0];
    const gui::PanelLayout layout = gui::panelLayout(QRectF(0, 0, 300, 900), 8);
    const auto placed = gui::placeObjects(layout, rank);
    const QRectF cell = gui::mapCell(layout, MapKind::Activations, 1);
    int atBoundaryOne = 0;
    for (const auto &object : placed) {
        const auto &entry = rank.map(object.map)[object.index];
        if (object.map != MapKind::Activations || entry.object().layer != 1)
            continue;
        ++atBoundaryOne;
        const int batch = entry.key().parts.at(1); // activations[1, batch]
        EXPECT_TRUE(object.heldOnly);
        EXPECT_EQ(object.frame, cell);
        EXPECT_EQ(object.rect, gui::shardCell(cell, batch, 4));
    }
    EXPECT_EQ(atBoundaryOne, 4);
    const auto hit = gui::objectAt(placed, gui::shardCell(cell, 2, 4).center());
    ASSERT_TRUE(hit);
    EXPECT_EQ(rank.map(MapKind::Activations)[hit->index].key(), rankstep::core::Key(1, 2));
}

TEST(StateText, APanelOfARunWithExpertsNamesTheRanksExpert)
{
    gui::testing::ReplayedRun run("ddp");
    const rankstep::replay::RunState state = run.afterSlices(1);
    rankstep::core::Trace experts = *run.trace();
    ASSERT_EQ(experts.config.ranks % 2, 0);
    experts.config.layout.expert = 2; // ranks 0, 2, ... hold expert 0; ranks 1, 3, ... expert 1
    EXPECT_TRUE(gui::statePanelTitle(state, 1, {}, &experts)
                    .startsWith(QStringLiteral("rank 1 · expert 1 · ")))
        << gui::statePanelTitle(state, 1, {}, &experts).toStdString();
    EXPECT_TRUE(gui::statePanelTitle(state, 0, {}, &experts)
                    .startsWith(QStringLiteral("rank 0 · expert 0 · t ")));
    // Without experts the title is as before.
    EXPECT_FALSE(
        gui::statePanelTitle(state, 1, {}, run.trace().get()).contains(QStringLiteral("expert")));
}

TEST(StateText, TitlesAndToolTipsSayWhatTheLearnerWrote)
{
    gui::testing::ReplayedRun run("ddp");
    const rankstep::replay::RunState state = run.afterSlices(1);
    const auto &rank = state.ranks[0];
    EXPECT_EQ(rank.memory, 1835008);
    EXPECT_TRUE(gui::panelTitle(0, rank).startsWith(QStringLiteral("rank 0 · t ")));
    EXPECT_TRUE(gui::panelTitle(0, rank).endsWith(QStringLiteral(" · 1.84 MB")))
        << "the memory chart's format: " << gui::panelTitle(0, rank).toStdString();
    // A real run's clock is in milliseconds, and says so.
    const QString real = gui::panelTitle(0, rank, std::nullopt, QStringLiteral("ms"));
    EXPECT_TRUE(real.contains(QStringLiteral(" ms · 1.84 MB"))) << real.toStdString();
    EXPECT_FALSE(gui::panelTitle(0, rank).contains(QStringLiteral("ms")));
    const auto &grad = rank.map(MapKind::GradWeights).front();
    EXPECT_EQ(gui::objectToolTip(MapKind::GradWeights, grad.key(), grad.object(),
                                 run.trace()->config.cost.sizes)
                  .toStdString(),
              "grad_weights[1] · WeightGrad(layer=1, batches={0}, shards={0}, total=1) · 262144");
    EXPECT_EQ(gui::entryName(MapKind::Activations, rankstep::core::Key(0, 2)),
              QStringLiteral("activations[0, 2]"));
    EXPECT_EQ(gui::shortName(MapKind::GradWeights, rankstep::core::Key(1)), QStringLiteral("gw1"));
    EXPECT_EQ(gui::shortName(MapKind::Activations, rankstep::core::Key(0, 2)),
              QStringLiteral("a0,2"));
}

TEST(StateText, ANarrowPanelDropsTheClockThenTheMemoryThenTheWordRankFromItsTitle)
{
    const QFontMetrics metrics{QFont()};
    const QString title = QStringLiteral("rank 12 · t 8.5 · 600 kB");
    const auto width = [&](const char *text) {
        return metrics.horizontalAdvance(QString::fromUtf8(text));
    };
    EXPECT_EQ(gui::fittedTitle(title, metrics, width("rank 12 · t 8.5 · 600 kB")), title);
    EXPECT_EQ(gui::fittedTitle(title, metrics, width("rank 12 · 600 kB")).toStdString(),
              "rank 12 · 600 kB");
    EXPECT_EQ(gui::fittedTitle(title, metrics, width("rank 12")).toStdString(), "rank 12");
    // Too narrow for the word: the number alone, which tells this panel from its neighbours.
    EXPECT_EQ(gui::fittedTitle(title, metrics, width("rank")).toStdString(), "12");
    // Too narrow for the number: the number whole, which the painter draws smaller.
    const QString wide = QStringLiteral("rank 12345 · t 8.5 · 600 kB");
    EXPECT_EQ(gui::fittedTitle(wide, metrics, width("123")).toStdString(), "12345");
}

// A panel too narrow for its two-digit number at the panel's font (16 ranks in a row of a
// 1500x940 window) draws it smaller rather than cut to "1..." or to nothing.
TEST(StateText, ANumberTooWideForItsPanelIsDrawnSmallerNotCut)
{
    QFont font;
    font.setPointSizeF(9);
    const QString number = QStringLiteral("16");
    const int room = QFontMetrics(font).horizontalAdvance(number) * 2 / 3;
    const QFont smaller = gui::titleFont(font, number, room);
    EXPECT_LT(smaller.pointSizeF(), font.pointSizeF());
    EXPECT_GE(smaller.pointSizeF(), 5.0);
    EXPECT_LE(QFontMetrics(smaller).horizontalAdvance(number), room + 1);
    EXPECT_EQ(gui::titleFont(font, number, room * 3).pointSizeF(), font.pointSizeF());
}

} // namespace

// Sixteen panels on a 1280x800 window are about 62x80 pixels: the compact form keeps every layer
// of a four-layer model labelled (a label of 7 points is 11 pixels tall).
TEST(StateGeometry, ASmallPanelTakesTheCompactFormAndLabelsEveryLayer)
{
    const QRectF panel(0, 0, 62, 80);
    EXPECT_TRUE(gui::isCompactPanel(panel));
    EXPECT_FALSE(gui::isCompactPanel(QRectF(0, 0, 240, 200)));
    const gui::PanelLayout layout = gui::panelLayout(panel, 4);
    EXPECT_LT(layout.title.bottom(), layout.memory.top());
    EXPECT_LT(layout.memory.bottom(), layout.model.top());
    EXPECT_GE(layout.title.height(), 14); // the rank's title stays legible
    const double spacing = gui::layerBand(layout, 0).top() - gui::layerBand(layout, 1).top();
    EXPECT_EQ(gui::layerLabelStep(spacing, 11.0), 1);
}

// The focused rank takes most of a wide area at the left, the others share the rest; a tall area
// stacks them; alone it takes everything.
TEST(StateGeometry, AFocusedRankIsLargeBesideTheOthers)
{
    const gui::FocusSplit wide = gui::focusSplit(QRectF(0, 0, 1000, 500), 3, 6);
    EXPECT_EQ(wide.focus.height(), 500);
    EXPECT_GT(wide.focus.width(), 1.5 * wide.overview.width());
    EXPECT_DOUBLE_EQ(wide.overview.left(), wide.focus.right() + 6);
    EXPECT_DOUBLE_EQ(wide.overview.right(), 1000);
    const gui::FocusSplit tall = gui::focusSplit(QRectF(0, 0, 400, 900), 15, 6);
    EXPECT_EQ(tall.focus.width(), 400);
    EXPECT_DOUBLE_EQ(tall.overview.top(), tall.focus.bottom() + 6);
    EXPECT_DOUBLE_EQ(tall.overview.bottom(), 900);
    const gui::FocusSplit alone = gui::focusSplit(QRectF(0, 0, 400, 300), 0, 6);
    EXPECT_EQ(alone.focus, QRectF(0, 0, 400, 300));
    EXPECT_TRUE(alone.overview.isEmpty());
}

// FSDP's four ranks on a 1500x940 window get panels about 225x195 for a six-layer model: its
// bands are 11.5 pixels apart, as tall as a label of 7 points; sixteen panels of 62x63 are not.
TEST(StateGeometry, APanelFitsItsObjectsWhileEachBandHoldsALabel)
{
    const QSizeF label(27, 11);
    const gui::PanelLayout fsdp = gui::panelLayout(QRectF(0, 0, 225, 195), 6);
    EXPECT_TRUE(gui::objectsFit(fsdp, label));
    EXPECT_LT(gui::mapCell(fsdp, MapKind::OptStates, 0).height(), label.height())
        << "the label covers the gaps between the bands, not the object alone";
    EXPECT_FALSE(gui::objectsFit(gui::panelLayout(QRectF(0, 0, 62, 63), 4), label));
    EXPECT_FALSE(gui::objectsFit(gui::panelLayout(QRectF(0, 0, 70, 400), 4), label));   // narrow
    EXPECT_FALSE(gui::objectsFit(gui::panelLayout(QRectF(0, 0, 400, 300), 96), label)); // deep
}

TEST(StatePanels, AFocusedRankComesFirstAndTheOthersShareTheOverview)
{
    const QRectF area(0, 0, 1200, 600);
    const std::vector<int> ranks{0, 1, 2, 3, 4, 5};
    const auto panels = gui::statePanelSlots(area, ranks, 4, 2);
    ASSERT_EQ(panels.size(), 6U);
    EXPECT_EQ(panels[0].rank, 4);
    EXPECT_TRUE(panels[0].focused);
    EXPECT_EQ(panels[0].layout.frame, gui::focusSplit(area, 5, gui::kPanelGap).focus);
    for (std::size_t i = 1; i < panels.size(); ++i) {
        EXPECT_NE(panels[i].rank, 4);
        EXPECT_FALSE(panels[i].focused);
        EXPECT_LT(panels[i].layout.frame.width() * panels[i].layout.frame.height(),
                  panels[0].layout.frame.width() * panels[0].layout.frame.height() / 4);
        EXPECT_FALSE(panels[i].layout.frame.intersects(panels[0].layout.frame)) << i;
    }
    // A focused rank the picker does not show still gets its panel; no focus: the grid as ever.
    EXPECT_EQ(gui::statePanelSlots(area, {0, 1}, 9, 2).front().rank, 9);
    const auto grid = gui::statePanelSlots(area, ranks, -1, 2);
    ASSERT_EQ(grid.size(), 6U);
    EXPECT_EQ(grid[3].layout.frame, gui::statePanelLayout(area, 6, 3, 2).frame);
}

// A summary counts what a rank holds by kind: the objects and the bytes its memory adds up to.
TEST(StateSummary, TalliesAddUpToTheRanksMemory)
{
    gui::testing::ReplayedRun run("ddp");
    const rankstep::replay::RunState state = run.afterSlices(1);
    const auto &rank = state.ranks[0];
    const auto tallies = gui::kindTallies(rank, run.trace()->config.cost.sizes);
    ASSERT_EQ(tallies.size(), 5U); // every kind: 2 weights, 2 opt states, 1 activation, ...
    EXPECT_EQ(tallies[0], (gui::KindTally{rankstep::core::ObjectKind::Weight, 2, 524288}));
    std::int64_t bytes = 0;
    int count = 0;
    for (const auto &tally : tallies) {
        bytes += tally.bytes;
        count += tally.count;
    }
    EXPECT_EQ(bytes, rank.memory);
    EXPECT_EQ(count, 8);
    EXPECT_TRUE(gui::kindTallies(state.ranks[1], run.trace()->config.cost.sizes).empty());
    const QStringList texts = gui::tallyTexts(tallies[0]);
    ASSERT_EQ(texts.size(), 3);
    EXPECT_EQ(texts[0].toStdString(), "w weights: 2 · 524.29 kB");
    EXPECT_EQ(texts[1].toStdString(), "w 2 · 524.29 kB");
    EXPECT_EQ(texts[2].toStdString(), "w 2");
    EXPECT_EQ(gui::summaryRows(QRectF(0, 0, 50, 40), 5, 12).size(), 3U); // as many as fit whole
    EXPECT_EQ(gui::summaryRows(QRectF(0, 0, 50, 40), 2, 12).size(), 2U);
    EXPECT_EQ(gui::summaryRows(QRectF(0, 10, 50, 40), 2, 12)[1], QRectF(0, 22, 50, 12));
}

// A summary whose lines do not all fit puts its kinds side by side: a 112x40 panel body of two
// lines holds four of five.
TEST(StateSummary, KindsThatDoNotFitALineEachGoSideBySide)
{
    const QRectF body(10, 20, 112, 24);
    const auto items = gui::flowItems(body, {40, 50, 30, 60, 20}, 12, 6);
    ASSERT_EQ(items.size(), 4U);
    EXPECT_EQ(items[0], QRectF(10, 20, 40, 12));
    EXPECT_EQ(items[1], QRectF(56, 20, 50, 12));
    EXPECT_EQ(items[2], QRectF(10, 32, 30, 12)); // 56 + 50 + 6 + 30 passes the right edge
    EXPECT_EQ(items[3], QRectF(46, 32, 60, 12));
    EXPECT_TRUE(gui::flowItems(body, {200}, 12, 6).empty()); // wider than the body
}

// At 16 ranks on a laptop a summary of five kinds showed four ("w 2", "opt 2", ...) and the fifth
// only on a click. Where "w 2" does not fit every kind, the counts alone beside their swatches do.
TEST(StateSummary, EveryKindStaysInASummaryTooNarrowForItsShortWords)
{
    std::vector<gui::KindTally> tallies;
    for (int kind = 0; kind < 5; ++kind)
        tallies.push_back({rankstep::core::ObjectKind(kind), 2, 1000});
    const QFont font = QApplication::font();
    const QFontMetricsF metrics(font);
    const gui::Look look;
    const double line = std::ceil(metrics.height());
    // Two lines, as wide as three "opt 2" items: too narrow for five of the short words.
    double wordsWidth = 0;
    for (const gui::KindTally &tally : tallies)
        wordsWidth += look.scaled(10) + look.scaled(3) +
                      metrics.horizontalAdvance(gui::flowText(tally, false)) + look.scaled(3);
    const QRectF body(0, 0, wordsWidth / 2.6, 2 * line);
    const gui::TallyFlow flow = gui::flowTallies(body, tallies, line, metrics, look);
    EXPECT_EQ(flow.items.size(), 5U) << "every kind";
    EXPECT_TRUE(flow.countOnly);
    EXPECT_EQ(gui::flowText(tallies[1], true).toStdString(), "2");
    // Where the words fit, they stay.
    const gui::TallyFlow wide =
        gui::flowTallies(QRectF(0, 0, 2 * wordsWidth, 2 * line), tallies, line, metrics, look);
    EXPECT_EQ(wide.items.size(), 5U);
    EXPECT_FALSE(wide.countOnly);
}

// Each kind has a pattern of its own, so that none depends on telling colors apart.
TEST(StatePainter, EveryKindHasAPatternOfItsOwn)
{
    QSet<int> patterns;
    for (int kind = 0; kind < 5; ++kind)
        patterns.insert(int(gui::kindPattern(rankstep::core::ObjectKind(kind))));
    EXPECT_EQ(patterns.size(), 5);
}
