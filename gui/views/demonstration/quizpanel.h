// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QWidget>

class QGridLayout;
class QLabel;

namespace rankstep::gui {

// Presentation mode's "predict the next step" (docs/quiz.md), above the step bar: the question in
// large type, its choices as A to D, then, when the step is revealed, the right choice marked and
// a sentence about it. It shows what it is told; gui/app/quizcontroller.h decides when.
class QuizPanel : public QWidget
{
    Q_OBJECT
public:
    explicit QuizPanel(QWidget *parent = nullptr);

    void ask(const QString &question, const QStringList &choices);
    void reveal(int answer, const QString &sentence);
    void hidePanel();

    bool isRevealed() const { return m_revealed; }
    QLabel *question() const { return m_question; }
    QLabel *choice(int index) const;
    QLabel *footer() const { return m_footer; }

Q_SIGNALS:
    void shownChanged(bool shown);

protected:
    void changeEvent(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void updateFonts();
    void placeChoices(int columns);

    QLabel *m_question = nullptr;
    QGridLayout *m_grid = nullptr;
    QList<QLabel *> m_choices;
    QLabel *m_footer = nullptr;
    bool m_revealed = false;
};

} // namespace rankstep::gui
