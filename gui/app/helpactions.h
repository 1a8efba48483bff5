// SPDX-License-Identifier: MIT
#pragma once

#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>

#include <vector>

class QDialog;
class QMenuBar;
class QWidget;

namespace rankstep::gui {

// One line of Help > Keyboard Shortcuts: what a key does, where, and its keys as the desktop
// writes them.
struct ShortcutEntry {
    QString where; // the menu ("Edit"), or "Stepping" for the step bar's keys
    QString what;  // "Undo", "One step on"
    QList<QKeySequence> keys;
};

// Every shortcut of the window: its menus' actions and its QShortcuts that say what they do
// (QShortcut::whatsThis). Menus in menu-bar order, then the others.
std::vector<ShortcutEntry> windowShortcuts(QWidget *window);

// The Help menu: Keyboard Shortcuts (F1, QKeySequence::HelpContents), Writing Lessons (the
// lesson-writing guide, lessons/README.md as installed), About Rankstep (version, licences,
// credits) and About Qt.
class HelpActions : public QObject
{
    Q_OBJECT
public:
    HelpActions(QMenuBar *menuBar, QWidget *window);

    // The Keyboard Shortcuts page (built anew each time: the keys are read from the window).
    QDialog *shortcutsDialog();
    // Where the lesson-writing guide is: installed beside the app, else this source tree's.
    static QString lessonGuidePath();
    // The About box's text: the version, what Rankstep teaches, its licences and whose work
    // the puzzles build on.
    static QString aboutText();

public Q_SLOTS:
    void showShortcuts();
    void showAbout();

private:
    QWidget *m_window;
};

} // namespace rankstep::gui
