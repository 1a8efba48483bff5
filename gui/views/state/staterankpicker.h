// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <vector>

class QAction;
class QLabel;
class QLineEdit;
class QMenu;
class QToolButton;

namespace rankstep::gui {

// For a run of many ranks: a "Ranks 0-15 ▾" button opening a checkable list of every rank, and
// a field taking "0-3, 8, 12-15"; the choice is what every view shows (RunSession::shownRanks).
// A text it cannot read, or too many ranks, is said in red next to it and changes nothing.
class StateRankPicker : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kFromRanks = 5; // fewer ranks all fit everywhere: no picker

    explicit StateRankPicker(QWidget *parent = nullptr);

    // The run's rank count, the most that can be shown and those shown now.
    void setRanks(int rankCount, int most, std::vector<int> shown);
    const std::vector<int> &shown() const { return m_shown; }
    QLineEdit *field() const { return m_field; }
    QToolButton *button() const { return m_button; }
    QString message() const; // the last complaint, empty when none

Q_SIGNALS:
    void ranksChosen(const std::vector<int> &ranks);

private:
    void onTextEntered();
    void onRankToggled(QAction *action, int rank, bool checked);
    void fillMenu();
    void choose(std::vector<int> ranks);
    void complain(const QString &message);

    QToolButton *m_button;
    QMenu *m_menu;
    QLineEdit *m_field;
    QLabel *m_message;
    int m_count = 0;
    int m_most = 16;
    std::vector<int> m_shown;
};

} // namespace rankstep::gui
