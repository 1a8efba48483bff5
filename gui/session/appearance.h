// SPDX-License-Identifier: MIT
#pragma once

#include "look.h"
#include "theme.h"

#include <QObject>

namespace rankstep::gui {

// How the app looks, as one observable object (after Hotspot's src/settings.h): the theme, the
// color-blind-safe colors, the zoom and presentation mode. Views are built with it and follow its
// signals; the app applies the theme and the zoom to the application's palette and font
// (gui/app/applicationstyle.h). Nothing here is global: a test makes its own.
class Appearance : public QObject
{
    Q_OBJECT

public:
    explicit Appearance(QObject *parent = nullptr);

    Theme theme() const { return m_theme; }
    bool colorBlindSafe() const { return m_colorBlindSafe; }
    double zoom() const { return m_zoom; } // 1 is the unzoomed size
    bool presenting() const { return m_presenting; }
    // What painters need of it: the color scheme and the zoom.
    Look look() const;

public Q_SLOTS:
    void setTheme(rankstep::gui::Theme theme);
    void setColorBlindSafe(bool on);
    void setZoom(double factor); // clamped to [kMinZoom, kMaxZoom]
    void zoomIn();
    void zoomOut();
    void resetZoom();
    void setPresenting(bool on);

Q_SIGNALS:
    void themeChanged(rankstep::gui::Theme theme);
    void colorBlindSafeChanged(bool on);
    void zoomChanged(double factor);
    void presentingChanged(bool on);
    // The scheme or the zoom changed: what every painter draws with (look()).
    void lookChanged();

private:
    Theme m_theme = Theme::System;
    bool m_colorBlindSafe = false;
    double m_zoom = 1.0;
    bool m_presenting = false;
};

} // namespace rankstep::gui
