// SPDX-License-Identifier: MIT
#pragma once

#include <Qsci/qsciscintilla.h>

#include <QTimer>

namespace rankstep::gui {

// The learner's Python: highlighting, line numbers, the current line, an error marker on the
// line a run failed at, and undo. Emits codeEdited (debounced) so the window can save as they type.
class CodeEditor : public QsciScintilla
{
    Q_OBJECT
public:
    explicit CodeEditor(QWidget *parent = nullptr);

    // Replaces the whole text as one undoable step (reset to starter, load solution).
    void replaceAllUndoable(const QString &text);
    // Shows text without an undo history (opening a lesson).
    void setCode(const QString &text);
    void markError(int line); // 1-based; 0 clears
    void clearMarkers();
    void jumpToLine(int line); // 1-based
    int errorLine() const { return m_errorLine; }
    void setZoomSteps(int steps);

Q_SIGNALS:
    void codeEdited();

private:
    void setUpLook();
    QTimer m_saveTimer;
    int m_errorLine = 0;
    int m_errorMarker = -1;
    bool m_loading = false;
};

} // namespace rankstep::gui
