// SPDX-License-Identifier: MIT
#pragma once

#include "gradecontroller.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace rankstep::gui {

// The Class tab (File > Open Class Folder): a class folder's roster, a row per learner and a
// column per lesson (solved, not solved with the kind of mistake, missing), the common mistakes
// counted by learner under it, and while grading runs, how long it has been at it. A click on a
// cell asks to open that learner's code for that lesson (cellActivated); the window shows it
// read-only and runs it. README "Grading a class".
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

private:
    void onCellClicked(int row, int column);
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
};

} // namespace rankstep::gui
