// SPDX-License-Identifier: MIT
#include "palette.h"

#include <array>

namespace rankstep::gui {
namespace {

Palette::Scheme g_scheme = Palette::Scheme::Standard;

} // namespace

Palette::Palette(Scheme scheme) : m_scheme(scheme)
{
    if (scheme == Scheme::Standard) {
        m_update = QColor(0xf2, 0xc1, 0x2e);
        m_message = QColor(0x9e, 0x9e, 0x9e);
        m_loss = QColor(0xd6, 0x27, 0x28);
        m_input = QColor(0x2c, 0xa0, 0x2c);
    } else {
        // Okabe-Ito: distinguishable without red and green.
        m_update = QColor(0xf0, 0xe4, 0x42);
        m_message = QColor(0x99, 0x99, 0x99);
        m_loss = QColor(0xcc, 0x79, 0xa7);
        m_input = QColor(0x56, 0xb4, 0xe9);
    }
}

const Palette &Palette::current()
{
    static const Palette standard(Scheme::Standard);
    static const Palette colorBlind(Scheme::ColorBlindSafe);
    return g_scheme == Scheme::Standard ? standard : colorBlind;
}

void Palette::setScheme(Scheme scheme)
{
    g_scheme = scheme;
}

QColor Palette::layer(int layer, int layers) const
{
    const double t = layers <= 1 ? 0.0 : double(layer) / double(layers - 1);
    if (m_scheme == Scheme::Standard)
        return QColor::fromHsvF(float((1.0 - t) * 120.0 / 360.0), 0.75f, 0.85f);
    // Blue to orange through light gray-blue: readable for all common color-vision deficiencies.
    const QColor from(0x00, 0x72, 0xb2), to(0xe6, 0x9f, 0x00);
    return QColor::fromRgbF(float(from.redF() + (to.redF() - from.redF()) * t),
                            float(from.greenF() + (to.greenF() - from.greenF()) * t),
                            float(from.blueF() + (to.blueF() - from.blueF()) * t));
}

QColor Palette::event(const core::Event &e, int layers) const
{
    switch (e.op) {
    case core::OpKind::Forward: return layer(e.layer, layers);
    case core::OpKind::Backward: return faded(layer(e.layer, layers), 0.5);
    case core::OpKind::Loss: return m_loss;
    case core::OpKind::Update: return m_update;
    case core::OpKind::AllReduce:
    case core::OpKind::AllGather:
    case core::OpKind::ScatterReduce: return faded(layer(e.layer, layers), 0.25);
    case core::OpKind::PassTo:
    case core::OpKind::Receive: return m_message;
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

QColor Palette::textOn(const QColor &background)
{
    const double luminance =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luminance > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace rankstep::gui
