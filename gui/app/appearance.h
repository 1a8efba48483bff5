// SPDX-License-Identifier: MIT
#pragma once

#include "theme.h"

#include <QObject>
#include <QPointer>

namespace rankstep::gui {

class MainWindow;

// How the window looks: its theme, the color-blind-safe palette and the zoom. Applies them to the
// whole application (palette, font, Palette::setScheme, zoomFactor) and to the views that keep
// their own look (the memory chart's light or dark chart theme and fonts, the editor's zoom).
// With the System theme it follows the desktop's palette as it changes.
class Appearance : public QObject
{
    Q_OBJECT
public:
    explicit Appearance(MainWindow *window);

    Theme theme() const { return m_theme; }
    bool colorBlindSafe() const { return m_colorBlindSafe; }
    double zoom() const { return m_zoom; }
    // Whether the views now paint for a dark window (the palette in use decides, also for System).
    bool dark() const;

public Q_SLOTS:
    void setTheme(Theme theme);
    void setColorBlindSafe(bool on);
    void setZoom(double factor);
    void zoomIn();
    void zoomOut();
    void resetZoom();

Q_SIGNALS:
    void themeChanged(Theme theme);
    void colorBlindSafeChanged(bool on);
    void zoomChanged(double factor);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refreshViews();

    QPointer<MainWindow> m_window;
    Theme m_theme = Theme::System;
    bool m_colorBlindSafe = false;
    double m_zoom = 1.0;
    bool m_darkViews = false; // what the chart was last themed for
};

} // namespace rankstep::gui
