// SPDX-License-Identifier: MIT
#include "palette.h"

#include <algorithm>
#include <array>

namespace rankstep::gui {
namespace {

// The color-blind-safe layer scale: dark blue to orange in even steps of CIELAB lightness and hue,
// so that neighbors differ as much under deuteranopia and protanopia (which keep lightness and
// the blue-yellow axis) as with full color vision. A straight RGB blend bunched the orange end.
constexpr std::array<QRgb, 8> kColorBlindLayers = {0x1a3a8a, 0x52467e, 0x725372, 0x8c6165,
                                                   0xa47057, 0xbb7f46, 0xd08f30, 0xe69f00};

// The notebook's draw() fills with chalk's fill_opacity over a white page.
constexpr double kBackwardOpacity = 0.2;
constexpr double kBackwardInputOpacity = 0.4; // not the notebook's: it has no split backward
constexpr double kBackwardWeightOpacity = 0.12;
constexpr double kCollectiveOpacity = 0.5;
constexpr double kUpdateOpacity = 0.5;
constexpr double kPassOpacity = 0.5;
const QColor kNotebookYellow(0xff, 0xff, 0x00); // colour's Color("yellow")
const QColor kNotebookGrey(0x80, 0x80, 0x80);   // colour's Color("grey")

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

QColor Palette::notebookLayer(int layer, int layers)
{
    // The notebook's drawing code: Color("green").range_to("red", LAYERS + 1) of the colour
    // package, which steps hue, saturation and lightness evenly from green (#008000) to red.
    const double t = layers <= 0 ? 0.0 : std::clamp(double(layer) / double(layers), 0.0, 1.0);
    constexpr double greenLightness = 128.0 / 255.0 / 2.0;
    return QColor::fromHslF(float((1.0 - t) / 3.0), 1.0f,
                            float(greenLightness + (0.5 - greenLightness) * t))
        .toRgb(); // compared and mixed as RGB everywhere
}

Palette::Palette(Scheme scheme) : m_scheme(scheme)
{
    if (scheme == Scheme::Standard) {
        m_update = QColor(0xf2, 0xc1, 0x2e);
        m_message = QColor(0x9e, 0x9e, 0x9e);
        m_loss = QColor(0xd6, 0x27, 0x28);
        m_input = QColor(0x2c, 0xa0, 0x2c);
    } else {
        // Apart from the layer scale and from each other in lightness or on the blue-yellow axis,
        // the two cues left without red and green (tests/gui/colorvisiontest.cpp checks it).
        m_update = QColor(0xf0, 0xe4, 0x42);  // yellow, lighter than any layer
        m_message = QColor(0x40, 0x40, 0x40); // dark gray: a light one looks like a faded layer
        m_loss = QColor(0x6b, 0x1f, 0x00);    // dark brown-red, darker than any layer
        m_input = QColor(0x88, 0xcc, 0xee);   // pale sky blue
    }
}

const Palette &Palette::of(Scheme scheme)
{
    static const Palette standard(Scheme::Standard);
    static const Palette colorBlind(Scheme::ColorBlindSafe);
    return scheme == Scheme::Standard ? standard : colorBlind;
}

QColor Palette::layer(int layer, int layers) const
{
    const double t = layers <= 0 ? 0.0 : std::clamp(double(layer) / double(layers), 0.0, 1.0);
    if (m_scheme == Scheme::Standard)
        return notebookLayer(layer, layers);
    const double at = t * double(kColorBlindLayers.size() - 1);
    const std::size_t below = std::min(std::size_t(at), kColorBlindLayers.size() - 2);
    return mix(QColor(kColorBlindLayers[below]), QColor(kColorBlindLayers[below + 1]),
               at - double(below));
}

QColor Palette::event(const core::Event &e, int layers) const
{
    if (m_scheme == Scheme::Standard) {
        switch (e.op) {
            case core::OpKind::Forward:
                return layer(e.layer, layers);
            case core::OpKind::Backward:
                return faded(layer(e.layer, layers), 1.0 - kBackwardOpacity);
            // The halves of a backward, told apart: the input gradient (others wait for it)
            // stronger, the weight gradient (it can wait) lighter.
            case core::OpKind::BackwardInput:
                return faded(layer(e.layer, layers), 1.0 - kBackwardInputOpacity);
            case core::OpKind::BackwardWeight:
                return faded(layer(e.layer, layers), 1.0 - kBackwardWeightOpacity);
            case core::OpKind::Loss:
                return m_loss;
            case core::OpKind::Update:
                return faded(kNotebookYellow, 1.0 - kUpdateOpacity);
            case core::OpKind::AllReduce:
            case core::OpKind::AllGather:
            case core::OpKind::ScatterReduce:
            case core::OpKind::AllToAll: // tokens of the layer, out to experts and back
                return faded(layer(e.layer, layers), 1.0 - kCollectiveOpacity);
            case core::OpKind::PassTo:
            case core::OpKind::Receive:
                return faded(kNotebookGrey, 1.0 - kPassOpacity);
        }
        return m_message;
    }
    switch (e.op) {
        case core::OpKind::Forward:
            return layer(e.layer, layers);
        case core::OpKind::Backward:
            return faded(layer(e.layer, layers), 0.5);
        case core::OpKind::BackwardInput:
            return faded(layer(e.layer, layers), 1.0 - kBackwardInputOpacity);
        case core::OpKind::BackwardWeight:
            return faded(layer(e.layer, layers), 0.8);
        case core::OpKind::Loss:
            return m_loss;
        case core::OpKind::Update:
            return m_update;
        case core::OpKind::AllReduce:
        case core::OpKind::AllGather:
        case core::OpKind::ScatterReduce:
        case core::OpKind::AllToAll:
        case core::OpKind::PassTo:
        case core::OpKind::Receive:
            return m_message; // hatched: communication never reads as a layer's compute
    }
    return m_message;
}

QColor Palette::rank(int rank) const
{
    static const std::array<QColor, 8> colors = {
        QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x94, 0x67, 0xbd),
        QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf),
        QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22)};
    return colors[std::size_t(rank < 0 ? 0 : rank) % colors.size()];
}

QColor Palette::faded(const QColor &color, double amount)
{
    return QColor::fromRgbF(float(color.redF() + (1.0 - color.redF()) * amount),
                            float(color.greenF() + (1.0 - color.greenF()) * amount),
                            float(color.blueF() + (1.0 - color.blueF()) * amount));
}

QColor Palette::toward(const QColor &color, const QColor &background, double amount)
{
    return mix(color, background, amount);
}

QColor Palette::textOn(const QColor &background)
{
    const double luminance =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luminance > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace rankstep::gui
