// SPDX-License-Identifier: MIT
#include "applicationstyle.h"

#include "appearance.h"

#include <QApplication>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {

ApplicationStyle::ApplicationStyle(Appearance &appearance, QObject *parent)
    : QObject(parent), m_appearance(appearance), m_baseFont(QApplication::font())
{
    connect(&appearance, &Appearance::themeChanged, this, &ApplicationStyle::applyTheme);
    connect(&appearance, &Appearance::zoomChanged, this, &ApplicationStyle::applyZoom);
    applyTheme();
    applyZoom();
}

ApplicationStyle::~ApplicationStyle()
{
    QApplication::setFont(m_baseFont);
}

void ApplicationStyle::applyTheme()
{
    QApplication::setPalette(themePalette(m_appearance.theme()));
}

void ApplicationStyle::applyZoom()
{
    const double factor = m_appearance.zoom();
    QFont font = m_baseFont;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * factor))));
    QApplication::setFont(font);
}

} // namespace rankstep::gui
