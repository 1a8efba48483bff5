// SPDX-License-Identifier: MIT
#include "presentation.h"

#include "appearance.h"
#include "lessonpanel.h"

#include <QMainWindow>

#include <QSplitter>

#include <algorithm>

namespace rankstep::gui {

PresentationMode::PresentationMode(QMainWindow *window, Appearance *appearance, Panes panes)
    : QObject(window), m_window(window), m_appearance(appearance), m_panes(panes)
{}

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
        m_appearance->setPresenting(true); // the clicker steps from any widget (StepBar)
    } else {
        m_appearance->setPresenting(false);
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

// The lesson list folds away for the code and the views (MainWindow gives the memory chart its
// height). Leaving puts the panes back as they were.
void PresentationMode::arrangePanes(bool presenting)
{
    QSplitter *panes = m_panes.panes;
    if (presenting) {
        m_panesBefore = panes->saveState();
        m_panes.lessonList->setVisible(false);
        const int width = std::max(1, panes->width());
        panes->setSizes({0, width});
    } else {
        m_panes.lessonList->setVisible(true);
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
    m_panes.lessonPanel->setSpoilersHidden(m_active && !m_spoilersShown);
}

} // namespace rankstep::gui
