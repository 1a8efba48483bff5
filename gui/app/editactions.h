// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QAction;
class QLineEdit;
class QMenu;
class QMenuBar;
class QWidget;

namespace rankstep::gui {

class CodeEditor;

// The Edit menu: Undo, Redo, Cut, Copy, Paste, Select All, Find, Find Next, Find Previous,
// Replace and Go to Line, each on its QKeySequence::StandardKey where one exists (Go to Line:
// Ctrl+L, as Qt Creator). Undo to Select All act on the focused text field, else on the code
// editor; the find bar (built here, shown above the editor) searches and replaces in the code.
class EditActions : public QObject
{
    Q_OBJECT
public:
    EditActions(CodeEditor &editor, QMenuBar *menuBar, QWidget *window);

    QMenu *menu() const { return m_menu; }
    // The bar above the editor that Find and Replace show (the window lays it out).
    QWidget *findBar() const { return m_findBar; }
    QLineEdit *findField() const { return m_find; }
    QLineEdit *replaceField() const { return m_replace; }

public Q_SLOTS:
    void showFind(bool replace = false);
    // From the cursor on, wrapping at the end; false (and the field turns red) when not found.
    bool findNext(bool backwards = false);
    void replaceOne();
    int replaceAll(); // how many
    void goToLine();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildFindBar();
    QAction *add(const QString &name, const QString &text, const QList<QKeySequence> &keys);
    void onFocusText(const char *slot);

    CodeEditor &m_editor;
    QWidget *m_window;
    QMenu *m_menu = nullptr;
    QWidget *m_findBar = nullptr;
    QLineEdit *m_find = nullptr;
    QLineEdit *m_replace = nullptr;
    QWidget *m_replaceRow = nullptr;
};

} // namespace rankstep::gui
