// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTextDocument;

namespace rankstep::gui {

class RunSession;

// The lesson's text, its hints (revealed one at a time) and, after a confirmation, its solution.
// Shows the session's lesson.
class LessonPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LessonPanel(RunSession &session, QWidget *parent = nullptr);

    int hintsShown() const { return m_hintsShown; }
    // Hints and the solution stay out of sight (presentation mode) until asked for.
    void setSpoilersHidden(bool hidden);
    const QTextDocument *textDocument() const;
    // The widest the text's pictures may be, in pixels: the pane's width less its margins and a
    // scroll bar's room. A picture takes less when its words would be larger than the text's.
    int picturesWidth() const;

public Q_SLOTS:
    void showNextHint();
    // Asks first; then emits solutionRequested with the code.
    void askForSolution();

Q_SIGNALS:
    void solutionRequested(const QString &code);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onLessonChanged();
    void updateHintButton();
    void sizeCode(); // inline code as large as the text around it, at every zoom
    // The text's pictures (![alt](name.svg)) drawn from the lesson's files at the pane's width,
    // its font and its colors; again whenever one of them changes.
    void drawPictures();

    RunSession &m_session;
    QTextBrowser *m_text;
    QTextBrowser *m_hints;
    QPushButton *m_hintButton;
    QPushButton *m_solutionButton;
    int m_hintsShown = 0;
    int m_picturesWidth = 0; // what the pictures were last drawn at; 0: draw them again
};

} // namespace rankstep::gui
