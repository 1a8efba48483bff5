// SPDX-License-Identifier: MIT
// The color-blind-safe palette under simulated color vision deficiency: the layer scale and the
// colors that tell kinds of operation and object apart stay apart for deuteranopes and protanopes.
// Simulation: Machado, Oliveira and Fernandes (2009), severity 1, on linear sRGB; distance:
// CIE 1976 Delta E in CIELAB (2.3 is a just noticeable difference; 10 reads at a glance).
#include "palette.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace rankstep::gui {
namespace {

using Matrix = std::array<std::array<double, 3>, 3>;
using Vec = std::array<double, 3>;

constexpr Matrix kProtanopia = {{{0.152286, 1.052583, -0.204868},
                                 {0.114503, 0.786281, 0.099216},
                                 {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix kDeuteranopia = {{{0.367322, 0.860646, -0.227968},
                                   {0.280085, 0.672501, 0.047413},
                                   {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix kNormal = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};

constexpr double kMinLayerDistance = 10.0; // between any two layers of one run (up to 8 layers)
constexpr double kMinKindDistance = 12.0;  // between kinds, and between a kind and any layer

double linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// The color as a person with that vision sees it, in CIELAB (D65).
Vec seenAs(const QColor &color, const Matrix &vision)
{
    const Vec rgb = {linear(color.redF()), linear(color.greenF()), linear(color.blueF())};
    Vec seen{};
    for (std::size_t i = 0; i < 3; ++i)
        seen[i] = std::clamp(vision[i][0] * rgb[0] + vision[i][1] * rgb[1] + vision[i][2] * rgb[2],
                             0.0, 1.0);
    const double x = (0.4124 * seen[0] + 0.3576 * seen[1] + 0.1805 * seen[2]) / 0.95047;
    const double y = 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2];
    const double z = (0.0193 * seen[0] + 0.1192 * seen[1] + 0.9505 * seen[2]) / 1.08883;
    const auto f = [](double t) {
        return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
    };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double distance(const QColor &a, const QColor &b, const Matrix &vision)
{
    const Vec p = seenAs(a, vision), q = seenAs(b, vision);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

struct Named {
    std::string name;
    QColor color;
};

// What the timeline and the state view tell apart by color besides the layer.
std::vector<Named> kindColors(const Palette &palette)
{
    return {{"update", palette.update()},
            {"message", palette.message()},
            {"loss", palette.loss()},
            {"input", palette.input()}};
}

// The smallest distance among the layer colors of runs with 2 to 8 layers, and which pair.
std::pair<double, std::string> closestLayers(const Palette &palette, const Matrix &vision)
{
    std::pair<double, std::string> closest{1e9, {}};
    for (int layers = 2; layers <= 8; ++layers)
        for (int a = 0; a < layers; ++a)
            for (int b = a + 1; b < layers; ++b) {
                const double d =
                    distance(palette.layer(a, layers), palette.layer(b, layers), vision);
                if (d < closest.first)
                    closest = {d, "layers " + std::to_string(a) + " and " + std::to_string(b) +
                                      " of " + std::to_string(layers)};
            }
    return closest;
}

// The smallest distance between two kinds, or between a kind and a layer (or a faded layer: the
// backward blocks and the gradients), and which pair.
std::pair<double, std::string> closestKinds(const Palette &palette, const Matrix &vision)
{
    std::pair<double, std::string> closest{1e9, {}};
    const auto consider = [&](const Named &a, const Named &b) {
        const double d = distance(a.color, b.color, vision);
        if (d < closest.first)
            closest = {d, a.name + " and " + b.name};
    };
    const auto kinds = kindColors(palette);
    for (std::size_t a = 0; a < kinds.size(); ++a) {
        for (std::size_t b = a + 1; b < kinds.size(); ++b)
            consider(kinds[a], kinds[b]);
        for (int l = 0; l < 8; ++l) {
            consider(kinds[a], {"layer " + std::to_string(l), palette.layer(l, 8)});
            consider(kinds[a], {"faded layer " + std::to_string(l),
                                Palette::faded(palette.layer(l, 8), 0.45)});
        }
    }
    return closest;
}

// The two schemes' palettes.
class ColorVision : public ::testing::Test
{
protected:
    const Palette &colorBlind = Palette::of(Palette::Scheme::ColorBlindSafe);
    const Palette &standard = Palette::of(Palette::Scheme::Standard);
};

TEST_F(ColorVision, ColorBlindSafeLayersStayApartWithoutRedAndGreen)
{
    for (const auto &[vision, name] :
         {std::pair(&kDeuteranopia, "deuteranopia"), std::pair(&kProtanopia, "protanopia"),
          std::pair(&kNormal, "normal vision")}) {
        const auto [d, pair] = closestLayers(colorBlind, *vision);
        EXPECT_GE(d, kMinLayerDistance) << name << ": " << pair;
    }
}

TEST_F(ColorVision, ColorBlindSafeKindsStayApartFromEachOtherAndFromLayers)
{
    for (const auto &[vision, name] :
         {std::pair(&kDeuteranopia, "deuteranopia"), std::pair(&kProtanopia, "protanopia"),
          std::pair(&kNormal, "normal vision")}) {
        const auto [d, pair] = closestKinds(colorBlind, *vision);
        EXPECT_GE(d, kMinKindDistance) << name << ": " << pair;
    }
}

TEST_F(ColorVision, ColorBlindSafeLayersGetLighterLayerByLayer)
{
    // Lightness survives every common deficiency: the scale's order must not depend on hue.
    for (int l = 1; l < 8; ++l)
        EXPECT_GT(seenAs(colorBlind.layer(l, 8), kDeuteranopia)[0],
                  seenAs(colorBlind.layer(l - 1, 8), kDeuteranopia)[0] + 4)
            << "layer " << l;
}

TEST_F(ColorVision, TheStandardGreenToRedScaleCollapsesForProtanopes)
{
    // The check above can fail: the standard scale's neighbors merge without red and green, and
    // its green input and red loss come close.
    const auto [layers, pair] = closestLayers(standard, kProtanopia);
    EXPECT_LT(layers, kMinLayerDistance) << pair;
    EXPECT_LT(closestKinds(standard, kDeuteranopia).first, kMinKindDistance);
    EXPECT_GE(closestLayers(standard, kNormal).first, 2.3);
}

TEST_F(ColorVision, TheSimulationMergesPureRedAndGreenForDeuteranopes)
{
    // The simulation itself: red and green far apart for normal vision, close for deuteranopes.
    const QColor red(0xd6, 0x27, 0x28), green(0x2c, 0xa0, 0x2c);
    EXPECT_GT(distance(red, green, kNormal), 80);
    EXPECT_LT(distance(red, green, kDeuteranopia), distance(red, green, kNormal) / 4);
    EXPECT_NEAR(distance(QColor(Qt::white), QColor(Qt::black), kProtanopia), 100, 0.5);
}

} // namespace
} // namespace rankstep::gui
