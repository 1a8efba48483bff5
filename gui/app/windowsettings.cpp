// SPDX-License-Identifier: MIT
#include "windowsettings.h"

#include "appearance.h"

#include <QMainWindow>
#include "presentation.h"
#include "stepcontroller.h"

#include <QDataStream>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QWindow>

#include <algorithm>

namespace rankstep::gui {
namespace {

// A splitter's saved sizes (QSplitter::saveState: marker, version, sizes, ...); empty when the
// state is not one.
QList<int> savedSizes(const QByteArray &state)
{
    QDataStream stream(state);
    stream.setVersion(QDataStream::Qt_5_0);
    qint32 marker = 0, version = 0;
    QList<int> sizes;
    stream >> marker >> version >> sizes;
    if (stream.status() != QDataStream::Ok || marker != 0xff || version < 0)
        return {};
    return sizes;
}

// A saved split that would give a pane that must not collapse (the editor) less than its minimum
// (a narrow editor saved by an older version, or at another zoom) is not restored.
bool starves(const QSplitter &splitter, const QByteArray &state)
{
    const QList<int> sizes = savedSizes(state);
    if (sizes.size() != splitter.count())
        return true; // another arrangement of panes
    for (int i = 0; i < splitter.count(); ++i) {
        const QSize hint = splitter.widget(i)->minimumSizeHint();
        const int minimum = splitter.orientation() == Qt::Horizontal ? hint.width() : hint.height();
        if (!splitter.isCollapsible(i) && sizes[i] < minimum)
            return true;
    }
    return false;
}

void restoreLayout(const WindowLayout &layout)
{
    QMainWindow &window = *layout.window;
    const QSettings settings;
    if (settings.contains(settingskeys::geometry))
        window.restoreGeometry(settings.value(settingskeys::geometry).toByteArray());
    fitWindowToScreen(window); // saved on a larger screen, or the first start on a small one
    if (settings.contains(settingskeys::state))
        window.restoreState(settings.value(settingskeys::state).toByteArray());
    for (QSplitter *splitter : layout.splitters) {
        const QVariant state = settings.value(settingskeys::splitters + splitter->objectName());
        if (state.isValid() && !starves(*splitter, state.toByteArray()))
            splitter->restoreState(state.toByteArray());
    }
}

void restoreAppearance(Appearance &appearance)
{
    const QSettings settings;
    const auto theme = themeFromName(settings.value(settingskeys::theme).toString());
    appearance.setTheme(theme.value_or(Theme::System));
    appearance.setColorBlindSafe(settings.value(settingskeys::colorBlindSafe, false).toBool());
    bool ok = false;
    const double zoom = settings.value(settingskeys::zoom).toDouble(&ok);
    appearance.setZoom(ok && zoom > 0 ? zoom : 1.0);
}

// The frame the window manager draws around the window: known once it is shown, else a title
// bar's height as the style draws one.
QMargins frameOf(const QMainWindow &window)
{
    if (window.isVisible())
        return {window.geometry().left() - window.frameGeometry().left(),
                window.geometry().top() - window.frameGeometry().top(),
                window.frameGeometry().right() - window.geometry().right(),
                window.frameGeometry().bottom() - window.geometry().bottom()};
    return {0, window.style()->pixelMetric(QStyle::PM_TitleBarHeight), 0, 0};
}

} // namespace

WindowFit fitWindow(const QRect &geometry, const QMargins &frame, const QRect &available)
{
    const QRect framed = geometry.marginsAdded(frame);
    if (framed.width() > available.width() || framed.height() > available.height())
        return {available.marginsRemoved(frame), true};
    QRect inside = framed;
    inside.moveLeft(
        std::clamp(framed.left(), available.left(), available.right() + 1 - framed.width()));
    inside.moveTop(
        std::clamp(framed.top(), available.top(), available.bottom() + 1 - framed.height()));
    return {inside.marginsRemoved(frame), false};
}

void fitWindowToScreen(QMainWindow &window)
{
    if (window.isMaximized() || window.isFullScreen())
        return;
    const QScreen *screen = QGuiApplication::screenAt(window.geometry().center());
    if (!screen)
        screen = window.screen();
    if (!screen)
        return;
    const WindowFit fit =
        fitWindow(window.geometry(), frameOf(window), screen->availableGeometry());
    if (fit.maximized) {
        window.setGeometry(fit.geometry); // where it goes back to from maximized
        window.setWindowState(window.windowState() | Qt::WindowMaximized);
    } else if (window.testAttribute(Qt::WA_Moved)) { // placed by a saved geometry
        window.setGeometry(fit.geometry);
    }
}

void restoreWindowSettings(const WindowLayout &layout, Appearance &appearance,
                           const PresentationMode &presentation, StepController &step)
{
    QMainWindow &window = *layout.window;
    restoreLayout(layout);
    restoreAppearance(appearance);
    bool ok = false;
    const double speed = QSettings().value(settingskeys::speed).toDouble(&ok);
    if (ok && speed > 0)
        step.setSpeed(speed);

    QObject::connect(&appearance, &Appearance::themeChanged, &window, [](Theme theme) {
        QSettings().setValue(settingskeys::theme, themeName(theme));
    });
    QObject::connect(&appearance, &Appearance::colorBlindSafeChanged, &window,
                     [](bool on) { QSettings().setValue(settingskeys::colorBlindSafe, on); });
    // A presentation's zoom lasts as long as the presentation.
    QObject::connect(&appearance, &Appearance::zoomChanged, &window, [&presentation](double zoom) {
        if (!presentation.isActive())
            QSettings().setValue(settingskeys::zoom, zoom);
    });
    QObject::connect(&step, &StepController::speedChanged, &window,
                     [](double now) { QSettings().setValue(settingskeys::speed, now); });
}

void saveWindowLayout(const WindowLayout &layout, const PresentationMode &presentation)
{
    const QMainWindow &window = *layout.window;
    if (presentation.isActive())
        return;
    QSettings settings;
    settings.setValue(settingskeys::geometry, window.saveGeometry());
    settings.setValue(settingskeys::state, window.saveState());
    for (const QSplitter *splitter : layout.splitters)
        settings.setValue(settingskeys::splitters + splitter->objectName(), splitter->saveState());
}

} // namespace rankstep::gui
