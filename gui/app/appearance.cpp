// SPDX-License-Identifier: MIT
#include "appearance.h"

#include "codeeditor.h"
#include "mainwindow.h"
#include "memorychart.h"
#include "palette.h"
#include "stateview.h"
#include "zoom.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLegend>

#include <cmath>

namespace rankstep::gui {
namespace {

constexpr int kEditorPoints = 11; // the editor's own font size (CodeEditor::setUpLook)

// The font an object had at zoom 1, kept on it the first time: the chart keeps its theme's fonts
// across setDarkTheme when the theme does not change, and zooms must not compound.
QFont unzoomed(QObject &object, const char *name, const QFont &font)
{
    const QVariant kept = object.property(name);
    if (kept.isValid())
        return kept.value<QFont>();
    object.setProperty(name, font);
    return font;
}

QFont scaledFont(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * factor))));
    return font;
}

// The chart theme sets its own fonts, in points of its own: scale them after every theme change.
void zoomChartFonts(MemoryChart &memory, double factor)
{
    auto *view = memory.findChild<QChartView *>();
    if (!view || !view->chart())
        return;
    QChart *chart = view->chart();
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsFont(
            scaledFont(unzoomed(*axis, "rankstepLabelsFont", axis->labelsFont()), factor));
        axis->setTitleFont(
            scaledFont(unzoomed(*axis, "rankstepTitleFont", axis->titleFont()), factor));
    }
    QLegend *legend = chart->legend();
    legend->setFont(scaledFont(unzoomed(*legend, "rankstepFont", legend->font()), factor));
}

} // namespace

Appearance::Appearance(MainWindow *window) : QObject(window), m_window(window)
{
    qApp->installEventFilter(this);
    m_zoom = zoomFactor();
    m_colorBlindSafe = Palette::scheme() == Palette::Scheme::ColorBlindSafe;
    refreshViews();
}

bool Appearance::dark() const
{
    return isDark(QApplication::palette());
}

void Appearance::setTheme(Theme theme)
{
    m_theme = theme;
    QApplication::setPalette(themePalette(theme)); // System: every role back to the platform's
    refreshViews();
    Q_EMIT themeChanged(theme);
}

void Appearance::setColorBlindSafe(bool on)
{
    m_colorBlindSafe = on;
    Palette::setScheme(on ? Palette::Scheme::ColorBlindSafe : Palette::Scheme::Standard);
    // The state view keeps its layer bands in a picture it redraws when told the colors changed.
    if (m_window) {
        QEvent colorsChanged(QEvent::PaletteChange);
        QCoreApplication::sendEvent(m_window->stateView(), &colorsChanged);
    }
    refreshViews();
    Q_EMIT colorBlindSafeChanged(on);
}

void Appearance::setZoom(double factor)
{
    setZoomFactor(factor);
    m_zoom = zoomFactor();
    refreshViews();
    Q_EMIT zoomChanged(m_zoom);
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

bool Appearance::eventFilter(QObject *watched, QEvent *event)
{
    // The desktop switched between light and dark (System), or someone set a palette: the chart,
    // which keeps a theme of its own, follows the palette the widgets now have.
    if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange && m_window) {
        if (dark() != m_darkViews)
            refreshViews();
        else
            m_window->editor()->setColors(QApplication::palette());
    }
    return QObject::eventFilter(watched, event);
}

// Views that paint read the palette, the scheme and the zoom as they paint: they need a repaint.
// The chart and the editor keep looks of their own, set here.
void Appearance::refreshViews()
{
    if (!m_window)
        return;
    m_darkViews = dark();
    MemoryChart *memory = m_window->memoryChart();
    memory->setDarkTheme(m_darkViews); // also rebuilds its series, with pens at the new zoom
    zoomChartFonts(*memory, m_zoom);
    m_window->editor()->setZoomSteps(int(std::lround(kEditorPoints * (m_zoom - 1.0))));
    m_window->editor()->setColors(QApplication::palette());
    const auto widgets = m_window->findChildren<QWidget *>();
    for (QWidget *widget : widgets)
        widget->update();
}

} // namespace rankstep::gui
