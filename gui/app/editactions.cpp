// SPDX-License-Identifier: MIT
#include "editactions.h"

#include "codeeditor.h"

#include <QAction>
#include <QApplication>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace rankstep::gui {

EditActions::EditActions(CodeEditor &editor, QMenuBar *menuBar, QWidget *window)
    : QObject(window), m_editor(editor), m_window(window)
{
    m_menu = menuBar->addMenu(tr("&Edit"));
    m_menu->setObjectName(QStringLiteral("editMenu"));
    connect(add(QStringLiteral("undoAction"), tr("&Undo"),
                QKeySequence::keyBindings(QKeySequence::Undo)),
            &QAction::triggered, this, [this] { onFocusText("undo"); });
    connect(add(QStringLiteral("redoAction"), tr("&Redo"),
                QKeySequence::keyBindings(QKeySequence::Redo)),
            &QAction::triggered, this, [this] { onFocusText("redo"); });
    m_menu->addSeparator();
    connect(
        add(QStringLiteral("cutAction"), tr("Cu&t"), QKeySequence::keyBindings(QKeySequence::Cut)),
        &QAction::triggered, this, [this] { onFocusText("cut"); });
    connect(add(QStringLiteral("copyAction"), tr("&Copy"),
                QKeySequence::keyBindings(QKeySequence::Copy)),
            &QAction::triggered, this, [this] { onFocusText("copy"); });
    connect(add(QStringLiteral("pasteAction"), tr("&Paste"),
                QKeySequence::keyBindings(QKeySequence::Paste)),
            &QAction::triggered, this, [this] { onFocusText("paste"); });
    connect(add(QStringLiteral("selectAllAction"), tr("Select &All"),
                QKeySequence::keyBindings(QKeySequence::SelectAll)),
            &QAction::triggered, this, [this] { onFocusText("selectAll"); });
    m_menu->addSeparator();
    connect(add(QStringLiteral("findAction"), tr("&Find…"),
                QKeySequence::keyBindings(QKeySequence::Find)),
            &QAction::triggered, this, [this] { showFind(false); });
    connect(add(QStringLiteral("findNextAction"), tr("Find &Next"),
                QKeySequence::keyBindings(QKeySequence::FindNext)),
            &QAction::triggered, this, [this] { findNext(false); });
    connect(add(QStringLiteral("findPreviousAction"), tr("Find Pre&vious"),
                QKeySequence::keyBindings(QKeySequence::FindPrevious)),
            &QAction::triggered, this, [this] { findNext(true); });
    connect(add(QStringLiteral("replaceAction"), tr("R&eplace…"),
                QKeySequence::keyBindings(QKeySequence::Replace)),
            &QAction::triggered, this, [this] { showFind(true); });
    m_menu->addSeparator();
    // No StandardKey goes to a line: Ctrl+L, as in Qt Creator.
    connect(add(QStringLiteral("goToLineAction"), tr("&Go to Line…"),
                {QKeySequence(Qt::CTRL | Qt::Key_L)}),
            &QAction::triggered, this, &EditActions::goToLine);
    buildFindBar();
}

QAction *EditActions::add(const QString &name, const QString &text, const QList<QKeySequence> &keys)
{
    QAction *action = m_menu->addAction(text);
    action->setObjectName(name);
    action->setShortcuts(keys);
    action->setShortcutContext(Qt::WindowShortcut);
    return action;
}

// A text field with the focus (a line edit, the lesson text) gets the edit; else the code.
void EditActions::onFocusText(const char *slot)
{
    QWidget *focus = QApplication::focusWidget();
    if (focus && focus != &m_editor && focus->window() == m_window &&
        focus->metaObject()->indexOfMethod(QByteArray(slot) + "()") >= 0) {
        QMetaObject::invokeMethod(focus, slot);
        return;
    }
    QMetaObject::invokeMethod(&m_editor, slot);
}

void EditActions::buildFindBar()
{
    m_findBar = new QWidget;
    m_findBar->setObjectName(QStringLiteral("findBar"));
    auto *column = new QVBoxLayout(m_findBar);
    column->setContentsMargins(4, 2, 4, 2);
    column->setSpacing(2);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Find:")));
    m_find = new QLineEdit;
    m_find->setObjectName(QStringLiteral("findField"));
    m_find->setAccessibleName(tr("Text to find in the code"));
    m_find->setClearButtonEnabled(true);
    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(false); });
    row->addWidget(m_find, 1);
    const auto button = [row](const QString &text, const QString &tip) {
        auto *b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        row->addWidget(b);
        return b;
    };
    const auto keys = [](QKeySequence::StandardKey key) {
        return QKeySequence(key).toString(QKeySequence::NativeText);
    };
    connect(button(tr("◀"), tr("Find the one before (%1)").arg(keys(QKeySequence::FindPrevious))),
            &QToolButton::clicked, this, [this] { findNext(true); });
    connect(button(tr("▶"), tr("Find the next one (%1)").arg(keys(QKeySequence::FindNext))),
            &QToolButton::clicked, this, [this] { findNext(false); });
    QToolButton *close =
        button(tr("✕"), tr("Close the find bar (%1)").arg(keys(QKeySequence::Cancel)));
    connect(close, &QToolButton::clicked, m_findBar, &QWidget::hide);
    column->addLayout(row);
    m_replaceRow = new QWidget;
    auto *replaceRow = new QHBoxLayout(m_replaceRow);
    replaceRow->setContentsMargins(0, 0, 0, 0);
    replaceRow->addWidget(new QLabel(tr("Replace with:")));
    m_replace = new QLineEdit;
    m_replace->setObjectName(QStringLiteral("replaceField"));
    m_replace->setAccessibleName(tr("Text to replace it with"));
    replaceRow->addWidget(m_replace, 1);
    auto *one = new QToolButton;
    one->setText(tr("Replace"));
    connect(one, &QToolButton::clicked, this, &EditActions::replaceOne);
    replaceRow->addWidget(one);
    auto *all = new QToolButton;
    all->setText(tr("Replace All"));
    connect(all, &QToolButton::clicked, this, &EditActions::replaceAll);
    replaceRow->addWidget(all);
    column->addWidget(m_replaceRow);
    // Esc in the bar closes it (the window's Esc stops runs everywhere else): its fields take
    // the key before the window's shortcut does.
    m_find->installEventFilter(this);
    m_replace->installEventFilter(this);
    m_findBar->hide();
}

bool EditActions::eventFilter(QObject *watched, QEvent *event)
{
    const bool field = watched == m_find || watched == m_replace;
    if (field && (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) &&
        static_cast<QKeyEvent *>(event)->matches(QKeySequence::Cancel)) {
        if (event->type() == QEvent::KeyPress) {
            m_findBar->hide();
            m_editor.setFocus();
        }
        event->accept();
        return event->type() == QEvent::KeyPress;
    }
    return QObject::eventFilter(watched, event);
}

void EditActions::showFind(bool replace)
{
    m_replaceRow->setVisible(replace && !m_editor.isReadOnly());
    if (m_editor.hasSelectedText() && !m_editor.selectedText().contains(QLatin1Char('\n')))
        m_find->setText(m_editor.selectedText());
    m_findBar->show();
    m_find->setFocus();
    m_find->selectAll();
}

bool EditActions::findNext(bool backwards)
{
    const QString text = m_find->text();
    if (text.isEmpty()) {
        showFind(false);
        return false;
    }
    int line = 0, index = 0;
    m_editor.getCursorPosition(&line, &index);
    if (backwards && m_editor.hasSelectedText()) { // start before the match on screen
        int lineFrom = 0, indexFrom = 0, lineTo = 0, indexTo = 0;
        m_editor.getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
        line = lineFrom;
        index = indexFrom;
    }
    const bool found =
        m_editor.findFirst(text, false, false, false, true, !backwards, line, index, true);
    m_find->setStyleSheet(
        found ? QString() : QStringLiteral("QLineEdit { background: #f8d7da; color: #212529; }"));
    return found;
}

void EditActions::replaceOne()
{
    if (m_editor.isReadOnly())
        return;
    // The search ignores case, and so does the check that the selection is its match.
    if (m_editor.hasSelectedText() &&
        m_editor.selectedText().compare(m_find->text(), Qt::CaseInsensitive) == 0)
        m_editor.replace(m_replace->text());
    findNext(false);
}

int EditActions::replaceAll()
{
    const QString text = m_find->text();
    if (text.isEmpty() || m_editor.isReadOnly())
        return 0;
    int count = 0;
    m_editor.beginUndoAction(); // one Ctrl+Z takes them all back
    bool found = m_editor.findFirst(text, false, false, false, false, true, 0, 0, false);
    while (found && count < 100000) {
        m_editor.replace(m_replace->text());
        ++count;
        found = m_editor.findNext();
    }
    m_editor.endUndoAction();
    return count;
}

void EditActions::goToLine()
{
    int line = 0, index = 0;
    m_editor.getCursorPosition(&line, &index);
    bool ok = false;
    const int wanted = QInputDialog::getInt(m_window, tr("Go to Line"),
                                            tr("Line (1 to %1):").arg(m_editor.lines()), line + 1,
                                            1, std::max(1, m_editor.lines()), 1, &ok);
    if (ok) {
        m_editor.jumpToLine(wanted);
        m_editor.setFocus();
    }
}

} // namespace rankstep::gui
