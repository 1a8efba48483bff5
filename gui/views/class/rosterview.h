// SPDX-License-Identifier: MIT
#pragma once

#include "gradecontroller.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace rankstep::gui {

// The Class tab (File > Open Class Folder): a class folder's roster, a row per learner and a
// column per lesson (solved, not solved with the kind of mistake, missing), the common mistakes
// counted by learner under it, and while grading runs, how long it has been at it. A click on a
// cell asks to open that learner's code for that lesson (cellActivated); the window shows it
// read-only and runs it. README "Grading a class". Every lesson's column fits the table's width
// (the mistakes wrap within it) as long as each keeps room for its longest word.
// The columns' widths in `room` pixels: each its natural width when all fit, else the widest
// narrowed alike (never below their least width, the longest word), so that as many as can fit.
std::vector<int> fitColumnWidths(const std::vector<int> &natural, const std::vector<int> &least,
                                 int room);

class RosterView : public QWidget
{
    Q_OBJECT
public:
    explicit RosterView(QWidget *parent = nullptr);

    // Grading of `folder` started: the table empties, the busy bar and the clock run.
    void showGrading(const QString &folder);
    void setRoster(const ClassRoster &roster);
    void showFailure(const QString &message);
    void showStopped();

    const ClassRoster &roster() const { return m_roster; }
    const QString &folder() const { return m_folder; } // the last one opened
    QTableWidget *table() const { return m_table; }
    QLabel *status() const { return m_status; }
    QLabel *mistakes() const { return m_mistakes; }
    QProgressBar *busy() const { return m_busy; }

Q_SIGNALS:
    void openFolderRequested();
    void gradeAgainRequested();
    // A cell of a learner's graded lesson (file: the submission it came from).
    void cellActivated(const QString &learner, const QString &lesson, const QString &file);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onCellClicked(int row, int column);
    void fitColumns();
    void tick();

    ClassRoster m_roster;
    QString m_folder;
    QLabel *m_folderLabel = nullptr;
    QPushButton *m_again = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_busy = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_mistakes = nullptr;
    QElapsedTimer m_clock;
    QTimer m_ticker;
    int m_fittedWidth = -1; // the viewport's width the columns were fitted to
};

} // namespace rankstep::gui
