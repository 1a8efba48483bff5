// SPDX-License-Identifier: MIT
#include "codeeditor.h"

#include <Qsci/qscilexerpython.h>

#include <QFontDatabase>

namespace rankstep::gui {

CodeEditor::CodeEditor(QWidget *parent) : QsciScintilla(parent)
{
    setUpLook();
    m_saveTimer.setSingleShot(true);
    m_saveTimer.setInterval(400);
    connect(&m_saveTimer, &QTimer::timeout, this, &CodeEditor::codeEdited);
    connect(this, &QsciScintilla::textChanged, this, [this] {
        if (!m_loading)
            m_saveTimer.start();
    });
}

void CodeEditor::setUpLook()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSize(11);
    auto *lexer = new QsciLexerPython(this);
    lexer->setDefaultFont(font);
    lexer->setFont(font);
    lexer->setIndentationWarning(QsciLexerPython::Inconsistent);
    setLexer(lexer);
    setUtf8(true);
    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginsFont(font);
    setMarginWidth(0, QStringLiteral("00000"));
    setMarginLineNumbers(0, true);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xee, 0xf3, 0xfb));
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setAutoIndent(true);
    setBraceMatching(QsciScintilla::SloppyBraceMatch);
    setEdgeMode(QsciScintilla::EdgeLine);
    setEdgeColumn(100);
    m_errorMarker = markerDefine(QsciScintilla::Background);
    setMarkerBackgroundColor(QColor(0xfd, 0xd8, 0xd8), m_errorMarker);
    setMarginWidth(1, 0); // no symbol margin: the error line is marked by its background
}

void CodeEditor::setCode(const QString &text)
{
    m_loading = true;
    setText(text);
    SendScintilla(SCI_EMPTYUNDOBUFFER);
    setModified(false);
    clearMarkers();
    m_loading = false;
}

void CodeEditor::replaceAllUndoable(const QString &text)
{
    beginUndoAction();
    selectAll();
    replaceSelectedText(text);
    endUndoAction();
    setCursorPosition(0, 0);
    m_saveTimer.stop();
    Q_EMIT codeEdited();
}

void CodeEditor::markError(int line)
{
    markerDeleteAll(m_errorMarker);
    m_errorLine = line;
    if (line > 0) {
        markerAdd(line - 1, m_errorMarker);
        jumpToLine(line);
    }
}

void CodeEditor::clearMarkers()
{
    markerDeleteAll();
    m_errorLine = 0;
}

void CodeEditor::jumpToLine(int line)
{
    if (line <= 0)
        return;
    setCursorPosition(line - 1, 0);
    ensureLineVisible(line - 1);
    setFocus();
}

void CodeEditor::setZoomSteps(int steps)
{
    zoomTo(steps);
}

} // namespace rankstep::gui
