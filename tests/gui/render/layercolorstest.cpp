// SPDX-License-Identifier: MIT
// One layer scale for every view and figure, as the puzzle notebook's drawing code computes it:
// Color("green").range_to("red", LAYERS + 1) of the colour package, which steps hue,
// saturation and lightness evenly; the notebook's opacities for every other kind of block
// (drawing.py's draw(): backward 20%, update yellow 50%, collectives 50%, pass grey 50%); and in
// the color-blind-safe look communication hatched, so that it never reads as compute.
#include "core/trace.h"
#include "palette.h"
#include "statebatch.h"
#include "statepainter.h"
#include "timelinegeometry.h"
#include "timelinepainter.h"
#include "timelinetext.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

#include <cmath>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

// The colour package's hsl2rgb, as the notebook's drawing code runs it.
double hueToRgb(double v1, double v2, double hue)
{
    while (hue < 0)
        hue += 1;
    while (hue > 1)
        hue -= 1;
    if (6 * hue < 1)
        return v1 + (v2 - v1) * 6 * hue;
    if (2 * hue < 1)
        return v2;
    if (3 * hue < 2)
        return v1 + (v2 - v1) * (2.0 / 3.0 - hue) * 6;
    return v1;
}

// forward_col[layer] of forward_col = list(Color("green").range_to("red", layers + 1)).
QColor notebookColor(int layer, int layers)
{
    const double green[3] = {1.0 / 3.0, 1.0, 128.0 / 255.0 / 2.0}; // rgb2hsl of (0, 128, 0)
    const double red[3] = {0.0, 1.0, 0.5};
    double hsl[3];
    for (int i = 0; i < 3; ++i)
        hsl[i] = green[i] + (red[i] - green[i]) / layers * layer;
    const double l = hsl[2], s = hsl[1];
    const double v2 = l < 0.5 ? l * (1 + s) : l + s - s * l;
    const double v1 = 2 * l - v2;
    return QColor::fromRgbF(float(hueToRgb(v1, v2, hsl[0] + 1.0 / 3.0)),
                            float(hueToRgb(v1, v2, hsl[0])),
                            float(hueToRgb(v1, v2, hsl[0] - 1.0 / 3.0)));
}

// Equal to within one step of 255 per channel (the notebook rounds in its SVG, Qt in QColor).
void expectNear(const QColor &actual, const QColor &expected, const std::string &what)
{
    EXPECT_LE(std::abs(actual.red() - expected.red()), 1) << what;
    EXPECT_LE(std::abs(actual.green() - expected.green()), 1) << what;
    EXPECT_LE(std::abs(actual.blue() - expected.blue()), 1) << what;
}

const gui::Palette &standard()
{
    return gui::Palette::of(gui::Palette::Scheme::Standard);
}

const gui::Palette &colorBlind()
{
    return gui::Palette::of(gui::Palette::Scheme::ColorBlindSafe);
}

// What chalk draws for fill_color(color).fill_opacity(opacity) on the white page.
QColor onWhite(const QColor &color, double opacity)
{
    const auto channel = [opacity](int c) {
        return int(std::lround(255 + (c - 255) * opacity));
    };
    return QColor(channel(color.red()), channel(color.green()), channel(color.blue()));
}

core::Event eventOf(core::OpKind op, int layer, int rank = 0)
{
    core::Event event;
    event.op = op;
    event.layer = layer;
    event.rank = rank;
    event.batches.insert(0);
    event.duration = core::SimTime::fromTicks(1000);
    return event;
}

core::Object objectOf(core::ObjectKind kind, int layer, int step = 0)
{
    core::Object object;
    object.kind = kind;
    object.layer = layer;
    object.step = step;
    object.batches.insert(0);
    return object;
}

TEST(LayerColors, FollowTheNotebooksScaleOfLayersPlusOneSteps)
{
    for (int layers : {1, 2, 4, 6, 8}) {
        for (int l = 0; l <= layers; ++l)
            expectNear(standard().layer(l, layers), notebookColor(l, layers),
                       "layer " + std::to_string(l) + " of " + std::to_string(layers));
    }
    // The notebook's own ends: layer 0 green #008000, the output red; layer 1 of 2 is olive.
    EXPECT_EQ(standard().layer(0, 4), QColor(0, 128, 0));
    EXPECT_EQ(standard().layer(4, 4), QColor(255, 0, 0));
    expectNear(standard().layer(1, 2), QColor(191, 191, 0), "layer 1 of 2");
}

TEST(LayerColors, TimelineStateAndFiguresTakeTheOneScale)
{
    const int layers = 4;
    for (int l = 0; l < layers; ++l) {
        const QColor scale = standard().layer(l, layers);
        EXPECT_EQ(standard().event(eventOf(core::OpKind::Forward, l), layers), scale);
        EXPECT_EQ(gui::objectColor(objectOf(core::ObjectKind::Activation, l), layers, standard()),
                  scale);
        EXPECT_EQ(gui::objectColor(objectOf(core::ObjectKind::Weight, l), layers, standard()),
                  scale);
    }
    // The output activation is the scale's last color; the loss's gradient sits there, faded.
    EXPECT_EQ(gui::objectColor(objectOf(core::ObjectKind::Activation, layers), layers, standard()),
              QColor(255, 0, 0));
    EXPECT_EQ(gui::objectColor(objectOf(core::ObjectKind::ActivationGrad, layers - 1), layers,
                               standard()),
              gui::Palette::faded(QColor(255, 0, 0), gui::kGradientFade));
}

TEST(LayerColors, AWeightsColorTellsItsLayerBeforeAndAfterTheUpdate)
{
    const int layers = 4;
    for (int step : {0, 1}) {
        const QColor first =
            gui::objectColor(objectOf(core::ObjectKind::Weight, 0, step), layers, standard());
        const QColor second =
            gui::objectColor(objectOf(core::ObjectKind::Weight, 1, step), layers, standard());
        EXPECT_NE(first, second) << "step " << step;
        EXPECT_EQ(second, standard().layer(1, layers));
    }
    // Updated: the same fill, an update-yellow edge.
    const auto loaded =
        gui::objectCellColors(objectOf(core::ObjectKind::Weight, 1, 0), 4, standard());
    const auto updated =
        gui::objectCellColors(objectOf(core::ObjectKind::Weight, 1, 1), 4, standard());
    EXPECT_EQ(loaded.fill, updated.fill);
    EXPECT_NE(loaded.edge, updated.edge);
}

// The app once faded backward 50%, painted updates golden and all communication gray.
TEST(LayerColors, EveryKindOfBlockHasTheNotebooksColorAndOpacity)
{
    for (int layers : {2, 4}) {
        for (int l = 0; l < layers; ++l) {
            const QColor scale = notebookColor(l, layers);
            const std::string at = " of layer " + std::to_string(l) + "/" + std::to_string(layers);
            expectNear(standard().event(eventOf(core::OpKind::Backward, l), layers),
                       onWhite(scale, 0.2), "backward" + at);
            for (core::OpKind op :
                 {core::OpKind::AllReduce, core::OpKind::AllGather, core::OpKind::ScatterReduce})
                expectNear(standard().event(eventOf(op, l), layers), onWhite(scale, 0.5),
                           core::opName(op) + at);
        }
    }
    expectNear(standard().event(eventOf(core::OpKind::Update, 1), 4),
               onWhite(QColor(255, 255, 0), 0.5), "update: Color(\"yellow\") at 50%");
    for (core::OpKind op : {core::OpKind::PassTo, core::OpKind::Receive})
        expectNear(standard().event(eventOf(op, 1), 4), onWhite(QColor(128, 128, 128), 0.5),
                   std::string(core::opName(op)) + ": Color(\"grey\") at 50%");
    EXPECT_FALSE(standard().hatchesCommunication());
}

// The color-blind-safe look differs on purpose (docs/colors.md): communication is no layer's
// color, dark and hatched, so it never depends on telling faded layer colors apart.
TEST(Communication, IsNoLayersColorInTheColorBlindLookAndSaysNoBatch)
{
    const int layers = 4;
    EXPECT_TRUE(colorBlind().hatchesCommunication());
    for (core::OpKind op : {core::OpKind::AllReduce, core::OpKind::AllGather,
                            core::OpKind::ScatterReduce, core::OpKind::PassTo}) {
        const QColor color = colorBlind().event(eventOf(op, 1), layers);
        for (int l = 0; l <= layers; ++l) {
            EXPECT_NE(color, colorBlind().layer(l, layers));
            EXPECT_NE(color, gui::Palette::faded(colorBlind().layer(l, layers), 0.25));
            EXPECT_NE(color, gui::Palette::faded(colorBlind().layer(l, layers), 0.5));
        }
    }
    EXPECT_EQ(gui::blockLabel(eventOf(core::OpKind::AllReduce, 1)).toStdString(), "AR L1");
    EXPECT_EQ(gui::blockLabel(eventOf(core::OpKind::AllGather, 0)).toStdString(), "AG L0");
    EXPECT_EQ(gui::blockLabel(eventOf(core::OpKind::ScatterReduce, 2)).toStdString(), "SR L2");
    EXPECT_EQ(gui::blockLabel(eventOf(core::OpKind::Forward, 2)).toStdString(), "0");
}

// How many pixels of `color` a rectangle of the image holds.
int countColor(const QImage &image, const QRect &rect, const QColor &color)
{
    int count = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
            count += image.pixelColor(x, y).rgb() == color.rgb();
    return count;
}

TEST(Communication, IsDrawnHatchedOnTheBackgroundInTheColorBlindLook)
{
    core::Trace trace;
    trace.config.ranks = 1;
    trace.config.layers = 2;
    trace.events = {eventOf(core::OpKind::Forward, 0), eventOf(core::OpKind::AllReduce, 0)};
    trace.events[1].start = core::SimTime::fromTicks(1000);
    QImage image(600, 120, QImage::Format_ARGB32_Premultiplied);
    gui::TimelineScene scene;
    scene.trace = &trace;
    scene.layout = gui::fitRows(gui::RowLayout{1}, image.height(), 60.0);
    scene.axis = {0, 2000, scene.layout.labelWidth, image.width() - scene.layout.labelWidth};
    scene.bounds = image.rect();
    scene.palette = QApplication::palette();
    scene.font = QApplication::font();
    scene.look.scheme = gui::Palette::Scheme::ColorBlindSafe;
    {
        QPainter painter(&image);
        gui::TimelinePainter(painter, scene).paint();
    }
    const QRect forward =
        gui::eventRect(trace.events[0], scene.layout, scene.axis).toRect().adjusted(3, 3, -3, -3);
    const QRect allreduce =
        gui::eventRect(trace.events[1], scene.layout, scene.axis).toRect().adjusted(3, 3, -3, -3);
    const QColor layer0 = colorBlind().layer(0, 2);
    EXPECT_GT(countColor(image, forward, layer0), forward.width() * forward.height() / 2);
    // Neither the layer's color nor its fade: the background, crossed by the hatch's ink.
    for (double fade : {0.0, 0.25, 0.5})
        EXPECT_EQ(countColor(image, allreduce, gui::Palette::faded(layer0, fade)), 0) << fade;
    const QColor background = scene.palette.base().color();
    const QColor ink = colorBlind().event(trace.events[1], 2);
    EXPECT_GT(countColor(image, allreduce, background), allreduce.width());
    EXPECT_GT(countColor(image, allreduce, ink), allreduce.width());
}

} // namespace
