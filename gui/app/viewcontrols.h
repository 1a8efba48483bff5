// SPDX-License-Identifier: MIT
#pragma once

#include "presentation.h"
#include "windowsettings.h"

#include <QObject>

class QAction;
class QMenu;
class QMenuBar;

namespace rankstep::gui {

class Appearance;
class MemoryChart;
class QuizController;
class StepController;

// The View menu and what stands behind it: presentation mode (F11), zoom (Ctrl+Plus, Ctrl+Minus,
// Ctrl+0), the theme (System, Light, Dark, High contrast) and color-blind-safe colors, restored
// from the settings when the window opens. MainWindow makes one and saves the layout through it.
class ViewControls : public QObject
{
    Q_OBJECT
public:
    ViewControls(WindowLayout layout, QMenuBar *menuBar, Appearance &appearance,
                 PresentationMode::Panes panes, StepController &step);

    Appearance &appearance() const { return m_appearance; }
    PresentationMode *presentation() const { return m_presentation; }
    QMenu *menu() const { return m_menu; }
    // The menu's action with this object name ("presentationAction", "zoomInAction", ...).
    QAction *action(const QString &objectName) const;
    // Memory by Kind (the memory chart's button, with a key for the clicker) and Predict the Next
    // Step (the quiz, docs/quiz.md), at the end of the menu.
    void addRunViewActions(MemoryChart &memory, QuizController &quiz);
    // Keeps the window's geometry, toolbars and splitters for the next start.
    void saveLayout() const;

private:
    void buildMenu(QMenuBar *menuBar);
    void buildThemeMenu();
    QAction *addAction(const QString &name, const QString &text, const QList<QKeySequence> &keys);

    WindowLayout m_layout;
    Appearance &m_appearance;
    PresentationMode *m_presentation;
    QMenu *m_menu = nullptr;
    QList<QAction *> m_actions; // by object name through action()
};

} // namespace rankstep::gui
