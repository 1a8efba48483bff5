// SPDX-License-Identifier: MIT
#include "presentation.h"

#include "appearance.h"
#include "lessonpanel.h"
#include "mainwindow.h"

#include <QApplication>
#include <QKeyEvent>
#include <QListView>
#include <QSplitter>

#include <algorithm>

namespace rankstep::gui {
namespace {

// What a presentation clicker sends for "next slide" and "previous slide".
bool isClickerKey(const QKeyEvent &key)
{
    return key.modifiers() == Qt::NoModifier &&
           (key.key() == Qt::Key_PageDown || key.key() == Qt::Key_PageUp);
}

} // namespace

PresentationMode::PresentationMode(MainWindow *window, Appearance *appearance)
    : QObject(window), m_window(window), m_appearance(appearance)
{
    // Installed after the step bar's filter, so it sees the key first (newest filters run first).
    qApp->installEventFilter(this);
}

void PresentationMode::setActive(bool active)
{
    if (active == m_active || !m_window)
        return;
    m_active = active;
    if (active) {
        m_wasMaximized = m_window->isMaximized();
        m_zoomBefore = m_appearance->zoom();
        m_appearance->setZoom(std::max(m_zoomBefore, kPresentationZoom));
        m_window->showFullScreen();
    } else {
        m_appearance->setZoom(m_zoomBefore);
        if (m_wasMaximized)
            m_window->showMaximized();
        else
            m_window->showNormal();
    }
    arrangePanes(active);
    applySpoilers();
    Q_EMIT activeChanged(active);
}

// The lesson list folds away for the code and the views; the results, whose text grew with the
// zoom, get a wider share. Leaving puts the panes back as they were.
void PresentationMode::arrangePanes(bool presenting)
{
    auto *panes = qobject_cast<QSplitter *>(m_window->centralWidget());
    if (!panes || panes->count() != 3) {
        m_window->lessonList()->setVisible(!presenting);
        return;
    }
    if (presenting) {
        m_panesBefore = panes->saveState();
        m_window->lessonList()->setVisible(false);
        const int width = std::max(1, panes->width());
        panes->setSizes({0, width * 3 / 4, width / 4});
    } else {
        m_window->lessonList()->setVisible(true);
        panes->restoreState(m_panesBefore);
    }
}

void PresentationMode::setSpoilersShown(bool shown)
{
    if (shown == m_spoilersShown)
        return;
    m_spoilersShown = shown;
    applySpoilers();
    Q_EMIT spoilersShownChanged(shown);
}

void PresentationMode::applySpoilers()
{
    if (m_window)
        m_window->lessonPanel()->setSpoilersHidden(m_active && !m_spoilersShown);
}

bool PresentationMode::eventFilter(QObject *watched, QEvent *event)
{
    // The step bar lets a focused editor or text keep PageDown and PageUp by accepting the
    // ShortcutOverride. While presenting, the clicker steps: leaving the override unaccepted
    // (and unseen by that filter) lets the window's step shortcut have the key.
    if (m_active && event->type() == QEvent::ShortcutOverride && watched->isWidgetType() &&
        static_cast<QWidget *>(watched)->window() == m_window.data() &&
        isClickerKey(*static_cast<QKeyEvent *>(event))) {
        event->ignore();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace rankstep::gui
