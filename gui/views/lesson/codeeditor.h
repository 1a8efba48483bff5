// SPDX-License-Identifier: MIT
#pragma once

#include <Qsci/qsciscintilla.h>

#include <Qsci/qscistyle.h>

#include <QElapsedTimer>
#include <QTimer>

#include <map>
#include <utility>
#include <vector>

namespace rankstep::gui {

class Appearance;

// The learner's Python: highlighting, line numbers, the current line, an error marker on the
// line a run failed at, where each rank stands while stepping through a run, and undo. Emits
// codeEdited after a pause in typing, and at least once a second while typing goes on, so the
// window saves at most a second behind the keyboard.
class CodeEditor : public QsciScintilla
{
    Q_OBJECT
public:
    explicit CodeEditor(Appearance &appearance, QWidget *parent = nullptr);

    // Replaces the whole text as one undoable step (reset to starter, load solution).
    void replaceAllUndoable(const QString &text);
    // Shows text without an undo history (opening a lesson).
    void setCode(const QString &text);
    // Where line `line` (1-based) is drawn, in global coordinates; empty when it is scrolled away.
    QRect lineRectGlobal(int line) const;
    // Typed but not yet reported by codeEdited (saved within a second).
    bool hasUnsavedEdits() const { return m_saveTimer.isActive(); }
    // The text was saved by other means: no codeEdited for what was typed before.
    void markSaved()
    {
        m_saveTimer.stop();
        m_unsavedSince.invalidate();
    }
    void markError(int line); // 1-based; 0 clears
    void clearMarkers();
    // Where each rank stands while stepping: a chip with the rank number in the rank's color in
    // the margin of its line (1-based; 0 skips the rank), the selected rank's line highlighted.
    void setRankLines(const std::vector<std::pair<int, int>> &rankAndLine, int selectedRank);
    void clearRankLines();
    int selectedRankLine() const { return m_selectedRankLine; }
    QString rankMarginText(int line) const; // 1-based; for tests
    // Every rank on the line, in full (the margin shows a compact form for many); 1-based.
    QString rankMarginToolTip(int line) const;
    int rankMarginWidth() const; // in pixels; 0 while no rank is shown
    // How many characters of code fit beside the margins at the current width and zoom.
    int visibleColumns() const;
    // Never narrower than kMinimumColumns of code (at most a maximum share of a small screen),
    // or than the columns setMinimumColumns asked for (a wide tab beside it: the code wraps).
    QSize minimumSizeHint() const override;
    static constexpr int kMinimumColumns = 72;
    void setMinimumColumns(int columns);
    void jumpToLine(int line); // 1-based
    int errorLine() const { return m_errorLine; }
    void setZoomSteps(int steps);
    // Paper, text, margins and syntax colors for the window's palette: on a dark one, each
    // syntax color keeps its hue at a lightness that reads on the dark paper.
    void setColors(const QPalette &palette);

Q_SIGNALS:
    void codeEdited();

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    int textPadding() const;                        // pixels between the margins and the code
    void setRankMarginWidth(const QString &widest); // empty: none
    void setUpLook();
    const QsciStyle &rankStyle(int rank);
    Appearance &m_appearance;
    QTimer m_saveTimer;
    QElapsedTimer m_unsavedSince; // the first edit codeEdited has not reported yet
    int m_errorLine = 0;
    int m_errorMarker = -1;
    int m_rankMarker = -1;
    int m_selectedRankLine = 0;
    int characterWidth() const;
    std::vector<QsciStyle> m_rankStyles;            // styled margin text points at these
    std::map<int, std::vector<int>> m_rankToolTips; // 1-based line -> every rank on it
    QsciStyle m_chipGap; // the first character's paper fills the whole margin
    bool m_loading = false;
    int m_minimumColumns = kMinimumColumns;
    QColor m_paper = Qt::white; // setColors: the selected rank's line is tinted toward it
};

} // namespace rankstep::gui
