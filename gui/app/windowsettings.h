// SPDX-License-Identifier: MIT
#pragma once

#include <QMargins>
#include <QRect>
#include <QString>

#include <vector>

class QMainWindow;
class QSplitter;

namespace rankstep::gui {

class Appearance;
class PresentationMode;
class StepController;

// What the window keeps across restarts in QSettings (next to the learner's progress, which
// ProgressStore keeps, the last lesson included): the theme, the color-blind-safe palette, the
// zoom and the play speed, saved as they change; the window's geometry, toolbars and splitters,
// saved by saveWindowLayout when the window closes or goes away.
namespace settingskeys {
inline const QString theme = QStringLiteral("view/theme");
inline const QString colorBlindSafe = QStringLiteral("view/colorBlindSafe");
inline const QString zoom = QStringLiteral("view/zoom");
inline const QString speed = QStringLiteral("stepping/speed");
inline const QString geometry = QStringLiteral("window/geometry");
inline const QString state = QStringLiteral("window/state");
inline const QString splitters = QStringLiteral("window/splitters/");
} // namespace settingskeys

// What of the window's layout is kept: its geometry and toolbars, and its splitters, each by its
// object name.
struct WindowLayout {
    QMainWindow *window = nullptr;
    std::vector<QSplitter *> splitters;
};

// The window's first size where the screen has room for it: the lesson, the code and the views.
inline constexpr QSize kPreferredWindowSize(1500, 940);

// Where a window goes on a screen whose free area (less panels and docks) is `available`: a
// `geometry` whose frame (`frame` around it) fits stays as it is, moved inside the area when it
// stuck out; one that does not fit is maximized, with the area less its frame as the geometry it
// returns to. Screen coordinates.
struct WindowFit {
    QRect geometry;
    bool maximized = false;
};
WindowFit fitWindow(const QRect &geometry, const QMargins &frame, const QRect &available);

// Fits the window (not yet shown, or shown) to the screen it is on: on the first start the
// preferred size, and a restored geometry saved on a larger screen.
void fitWindowToScreen(QMainWindow &window);

// Applies what was saved (defaults where nothing was) and saves later changes as they happen.
void restoreWindowSettings(const WindowLayout &layout, Appearance &appearance,
                           const PresentationMode &presentation, StepController &step);

// The geometry, toolbar and splitter layout. Skipped in presentation mode: its full screen is not
// how the window should open next time.
void saveWindowLayout(const WindowLayout &layout, const PresentationMode &presentation);

} // namespace rankstep::gui
