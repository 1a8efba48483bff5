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

public Q_SLOTS:
    void showNextHint();
    // Asks first; then emits solutionRequested with the code.
    void askForSolution();

Q_SIGNALS:
    void solutionRequested(const QString &code);

protected:
    void changeEvent(QEvent *event) override;

private:
    void onLessonChanged();
    void updateHintButton();
    void sizeCode(); // inline code as large as the text around it, at every zoom

    RunSession &m_session;
    QTextBrowser *m_text;
    QTextBrowser *m_hints;
    QPushButton *m_hintButton;
    QPushButton *m_solutionButton;
    int m_hintsShown = 0;
};

} // namespace rankstep::gui
