// SPDX-License-Identifier: MIT
#include "zoom.h"

#include <QGuiApplication>
#include <QFont>

#include <algorithm>
#include <array>
#include <optional>

namespace rankstep::gui {
namespace {

// Like a browser's: small steps near 1, larger ones for slides.
constexpr std::array kLadder = {0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0};

double g_factor = 1.0;

// The application font before any zoom: every zoom scales this one, so steps do not compound.
std::optional<QFont> &baseFont()
{
    static std::optional<QFont> font;
    return font;
}

} // namespace

double zoomFactor()
{
    return g_factor;
}

void setZoomFactor(double factor)
{
    factor = std::clamp(factor, kMinZoom, kMaxZoom);
    if (!baseFont())
        baseFont() = QGuiApplication::font();
    g_factor = factor;
    QFont font = *baseFont();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(std::max(1, int(font.pixelSize() * factor + 0.5)));
    QGuiApplication::setFont(font);
}

double zoomed(double size)
{
    return size * g_factor;
}

double nextZoomIn(double factor)
{
    const auto next = std::upper_bound(kLadder.begin(), kLadder.end(), factor + 1e-6);
    return next == kLadder.end() ? kLadder.back() : *next;
}

double nextZoomOut(double factor)
{
    const auto next = std::lower_bound(kLadder.begin(), kLadder.end(), factor - 1e-6);
    return next == kLadder.begin() ? kLadder.front() : *(next - 1);
}

} // namespace rankstep::gui
