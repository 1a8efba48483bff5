// SPDX-License-Identifier: MIT
#include "appearance.h"

#include "zoom.h"

#include <algorithm>
#include <cmath>

namespace rankstep::gui {

Appearance::Appearance(QObject *parent) : QObject(parent) {}

Look Appearance::look() const
{
    return {m_colorBlindSafe ? Palette::Scheme::ColorBlindSafe : Palette::Scheme::Standard, m_zoom};
}

void Appearance::setTheme(Theme theme)
{
    if (theme == m_theme)
        return;
    m_theme = theme;
    Q_EMIT themeChanged(theme);
}

void Appearance::setColorBlindSafe(bool on)
{
    if (on == m_colorBlindSafe)
        return;
    m_colorBlindSafe = on;
    Q_EMIT colorBlindSafeChanged(on);
    Q_EMIT lookChanged();
}

void Appearance::setZoom(double factor)
{
    factor = std::clamp(factor, kMinZoom, kMaxZoom);
    if (std::abs(factor - m_zoom) < 1e-9)
        return;
    m_zoom = factor;
    Q_EMIT zoomChanged(factor);
    Q_EMIT lookChanged();
}

void Appearance::zoomIn()
{
    setZoom(nextZoomIn(m_zoom));
}

void Appearance::zoomOut()
{
    setZoom(nextZoomOut(m_zoom));
}

void Appearance::resetZoom()
{
    setZoom(1.0);
}

void Appearance::setPresenting(bool on)
{
    if (on == m_presenting)
        return;
    m_presenting = on;
    Q_EMIT presentingChanged(on);
}

} // namespace rankstep::gui
