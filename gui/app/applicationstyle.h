// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>
#include <QObject>

namespace rankstep::gui {

class Appearance;

// Applies the appearance to the whole application: the theme as its palette (System: every role
// back to the platform's, which keeps following the desktop) and the zoom as its font, scaled
// from the font it had before, so steps do not compound. Views that paint follow the appearance
// themselves (gui/session/appearance.h).
class ApplicationStyle : public QObject
{
    Q_OBJECT
public:
    explicit ApplicationStyle(Appearance &appearance, QObject *parent = nullptr);
    ~ApplicationStyle() override; // the application font as it was

private:
    void applyTheme();
    void applyZoom();

    Appearance &m_appearance;
    QFont m_baseFont; // the application font at zoom 1
};

} // namespace rankstep::gui
