// SPDX-License-Identifier: MIT
#include "palette.h"

#include <gtest/gtest.h>

using rankstep::gui::Palette;

TEST(Palette, LayerScaleRunsFromGreenToRed)
{
    const Palette &p = Palette::of(Palette::Scheme::Standard);
    const QColor first = p.layer(0, 8);
    const QColor last = p.layer(7, 8);
    EXPECT_GT(first.green(), first.red());
    EXPECT_GT(last.red(), last.green());
    EXPECT_NE(p.layer(3, 8), p.layer(4, 8));
}

// The notebook's draw(): the layer's color at 20% opacity on white (layercolorstest.cpp).
TEST(Palette, BackwardIsTheForwardColorFaded)
{
    rankstep::core::Event forward;
    forward.op = rankstep::core::OpKind::Forward;
    forward.layer = 2;
    rankstep::core::Event backward = forward;
    backward.op = rankstep::core::OpKind::Backward;
    const Palette &p = Palette::of(Palette::Scheme::Standard);
    const QColor f = p.event(forward, 4);
    const QColor b = p.event(backward, 4);
    EXPECT_GT(b.lightnessF(), f.lightnessF());
    EXPECT_EQ(p.event(backward, 4), Palette::faded(f, 0.8));
}

TEST(Palette, TextStaysReadableOnEveryLayerColor)
{
    const Palette &p = Palette::of(Palette::Scheme::Standard);
    for (int l = 0; l < 8; ++l) {
        const QColor fill = p.layer(l, 8);
        const QColor text = Palette::textOn(fill);
        const double contrast = std::abs(text.lightnessF() - fill.lightnessF());
        EXPECT_GT(contrast, 0.3) << "layer " << l;
    }
}

// The backward's two halves: the input gradient stronger than the weight gradient in both looks,
// so a zero-bubble timeline tells B from W at a glance.
TEST(Palette, TheWeightGradientIsLighterThanTheInputGradient)
{
    rankstep::core::Event backward;
    backward.op = rankstep::core::OpKind::Backward;
    backward.layer = 2;
    rankstep::core::Event input = backward;
    input.op = rankstep::core::OpKind::BackwardInput;
    rankstep::core::Event weight = backward;
    weight.op = rankstep::core::OpKind::BackwardWeight;
    for (const auto scheme : {Palette::Scheme::Standard, Palette::Scheme::ColorBlindSafe}) {
        const Palette &p = Palette::of(scheme);
        EXPECT_GT(p.event(weight, 4).lightnessF(), p.event(input, 4).lightnessF() + 0.1);
        EXPECT_NE(p.event(input, 4), p.event(backward, 4));
    }
}
