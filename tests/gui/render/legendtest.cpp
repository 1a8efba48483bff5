// SPDX-License-Identifier: MIT
// The legend: what it names, that it draws the painters' own colors, and that exported figures
// carry it.
#include "exportfigure.h"
#include "legendpainter.h"
#include "palette.h"
#include "statetestsupport.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

namespace gui = rankstep::gui;

namespace {

bool holdsColor(const QImage &image, const QColor &color, const QRect &area)
{
    for (int y = std::max(0, area.top()); y <= std::min(image.height() - 1, area.bottom()); ++y)
        for (int x = std::max(0, area.left()); x <= std::min(image.width() - 1, area.right()); ++x)
            if (image.pixel(x, y) == color.rgb())
                return true;
    return false;
}

bool holdsColor(const QImage &image, const QColor &color)
{
    return holdsColor(image, color, image.rect());
}

gui::LegendScene sceneOf(int layers)
{
    return {layers, gui::Look{}, QApplication::palette(), QApplication::font()};
}

TEST(Legend, NamesTheKindsTheLayersAndTheCells)
{
    const QStringList texts = gui::legendTexts(4);
    const QString all = texts.join(QLatin1Char('|'));
    for (const char *word :
         {"layers 0-3, output", "forward", "backward", "update", "loss", "collectives AR, AG, SR",
          "pass", "held batches, shards", "updated weight"})
        EXPECT_TRUE(all.contains(QString::fromUtf8(word))) << word << " in " << all.toStdString();
    // The color-blind-safe look hatches communication, unlike the notebook, and says so.
    const QString colorBlind =
        gui::legendTexts(4, gui::Palette::Scheme::ColorBlindSafe).join(QLatin1Char('|'));
    EXPECT_TRUE(colorBlind.contains(QStringLiteral("communication, hatched for color-blind")))
        << colorBlind.toStdString();
}

// The forward swatch was layer 1's olive alone, though forwards take each layer's color: the
// swatches of the kinds that take the layer's color show the first and the last layer's.
TEST(Legend, SwatchesOfKindsInTheLayersColorShowEveryLayer)
{
    const gui::LegendScene scene = sceneOf(4);
    const double height = gui::legendHeight(scene, 2000);
    QImage image(2000, int(height) + 4, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        gui::paintLegend(painter, QRectF(0, 0, 2000, height), scene);
    }
    const gui::Palette &colors = gui::Palette::of(gui::Palette::Scheme::Standard);
    const auto swatchOf = [&scene](const QString &text) {
        for (const auto &[words, swatch] : gui::legendSwatches(scene, 2000))
            if (words == text)
                return swatch.toAlignedRect();
        ADD_FAILURE() << "no legend item " << text.toStdString();
        return QRect();
    };
    const std::pair<const char *, rankstep::core::OpKind> kinds[] = {
        {"forward", rankstep::core::OpKind::Forward},
        {"backward, gradients", rankstep::core::OpKind::Backward},
        {"collectives AR, AG, SR", rankstep::core::OpKind::AllReduce}};
    for (const auto &[text, op] : kinds) {
        const QRect swatch = swatchOf(QString::fromUtf8(text));
        for (int layer : {0, 3}) {
            rankstep::core::Event event;
            event.op = op;
            event.layer = layer;
            EXPECT_TRUE(holdsColor(image, colors.event(event, 4), swatch))
                << text << ": layer " << layer;
        }
    }
}

// A run that splits its backward gets one more item, drawn in the two halves' colors; any other
// run's legend stays as it was.
TEST(Legend, NamesTheHalvesOfABackwardOnlyForARunThatHasThem)
{
    const QString halves = QStringLiteral("B input gradient, W weight gradient");
    gui::LegendScene scene = sceneOf(4);
    for (const auto &[words, swatch] : gui::legendSwatches(scene, 2000))
        EXPECT_NE(words, halves);
    scene.splitBackward = true;
    QRect swatch;
    for (const auto &[words, rect] : gui::legendSwatches(scene, 2000))
        if (words == halves)
            swatch = rect.toAlignedRect();
    ASSERT_FALSE(swatch.isEmpty());
    const double height = gui::legendHeight(scene, 2000);
    QImage image(2000, int(height) + 4, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        gui::paintLegend(painter, QRectF(0, 0, 2000, height), scene);
    }
    const gui::Palette &colors = gui::Palette::of(gui::Palette::Scheme::Standard);
    for (const auto op :
         {rankstep::core::OpKind::BackwardInput, rankstep::core::OpKind::BackwardWeight}) {
        rankstep::core::Event event;
        event.op = op;
        event.layer = 2;
        EXPECT_TRUE(holdsColor(image, colors.event(event, 4), swatch))
            << rankstep::core::opName(op);
    }
    rankstep::core::Event weight;
    weight.op = rankstep::core::OpKind::BackwardWeight;
    weight.layer = 2;
    EXPECT_TRUE(holdsColor(image, gui::weightHatch(colors, weight, 4), swatch))
        << "the W half is striped as the timeline's weight gradient blocks";
    rankstep::core::Trace trace;
    EXPECT_FALSE(gui::hasSplitBackward(trace));
    trace.events.emplace_back().op = rankstep::core::OpKind::BackwardWeight;
    EXPECT_TRUE(gui::hasSplitBackward(trace));
}

// A run with an all-to-all names it with the collectives; others keep the notebook's words.
TEST(Legend, NamesTheAllToAllOfARunThatHasOne)
{
    rankstep::core::Trace trace;
    EXPECT_FALSE(gui::hasAllToAll(trace));
    trace.events.emplace_back().op = rankstep::core::OpKind::AllToAll;
    EXPECT_TRUE(gui::hasAllToAll(trace));
    gui::LegendScene scene = sceneOf(4);
    const auto named = [&scene] {
        for (const auto &[words, swatch] : gui::legendSwatches(scene, 2000))
            if (words.contains(QStringLiteral("A2A")))
                return true;
        return false;
    };
    EXPECT_FALSE(named());
    scene.allToAll = true;
    EXPECT_TRUE(named());
}

// The weight gradient's faint fill alone was hard to see: it gets stripes and an edge in a much
// stronger ink of its layer in both looks, and no other block does.
TEST(Legend, TheWeightGradientIsHatchedInAStrongerInkOfItsLayer)
{
    rankstep::core::Event weight;
    weight.op = rankstep::core::OpKind::BackwardWeight;
    weight.layer = 2;
    rankstep::core::Event input = weight;
    input.op = rankstep::core::OpKind::BackwardInput;
    for (const auto scheme :
         {gui::Palette::Scheme::Standard, gui::Palette::Scheme::ColorBlindSafe}) {
        const gui::Palette &p = gui::Palette::of(scheme);
        const QColor hatch = gui::weightHatch(p, weight, 4);
        ASSERT_TRUE(hatch.isValid());
        EXPECT_LT(hatch.lightnessF(), p.event(weight, 4).lightnessF() - 0.25);
        EXPECT_LT(hatch.lightnessF(), p.event(input, 4).lightnessF());
        EXPECT_FALSE(gui::weightHatch(p, input, 4).isValid());
    }
}

TEST(Legend, DrawsEveryLayerColorOfTheScaleAndWrapsWhenNarrow)
{
    const gui::LegendScene scene = sceneOf(4);
    const double wide = gui::legendHeight(scene, 2000);
    EXPECT_GT(gui::legendHeight(scene, 300), wide); // more lines
    QImage image(2000, int(wide) + 4, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        EXPECT_EQ(gui::paintLegend(painter, QRectF(0, 0, 2000, wide), scene), wide);
    }
    const gui::Palette &colors = gui::Palette::of(gui::Palette::Scheme::Standard);
    for (int l = 0; l <= 4; ++l)
        EXPECT_TRUE(holdsColor(image, colors.layer(l, 4))) << "layer " << l;
    rankstep::core::Event update;
    update.op = rankstep::core::OpKind::Update;
    EXPECT_TRUE(holdsColor(image, colors.event(update, 4))); // the update blocks' own yellow
}

// The output's color (the scale's last, pure red) shows in no block of a two-layer run: only the
// legend's scale draws it, under the figure's header.
TEST(Legend, IsInTheExportedTimelineAndStateFigures)
{
    gui::testing::ReplayedRun run("ddp");
    const QColor output = gui::Palette::of(gui::Palette::Scheme::Standard).layer(2, 2);
    gui::FigureOptions options;
    options.size = QSize(1280, 720);
    options.title = QStringLiteral("ddp");
    const QImage timeline = gui::renderTimelineFigure(run.trace(), options);
    EXPECT_TRUE(holdsColor(timeline, output, QRect(0, 0, 1280, 200)));
    const QImage state = gui::renderStateFigure(run.trace(), run.stateAt(run.home()), options);
    EXPECT_TRUE(holdsColor(state, output, QRect(0, 0, 1280, 200)));
}

} // namespace
