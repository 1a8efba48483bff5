// SPDX-License-Identifier: MIT
// What if: the learner's code at every setting of a grid (ranks, layers, batches or batches a
// rank, bandwidth, cost model), run in the background by `rankstep-cli sweep` (docs/sweeps.md):
// a progress bar, a table that fills as rows arrive, and a scatter of Timesteps against peak
// memory with the Pareto front drawn and the run on screen ringed. Clicking a point (or a row)
// opens that setting's run in every view. The fields (whatiffields.h), the chart (whatifchart.h)
// and the table (whatiftable.h) are widgets of their own; this view runs the sweep and shows it.
#pragma once

#include "core/io/sweeprow.h"
#include "core/lessons/lesson.h"
#include "describable.h"
#include "sweepcontroller.h"

#include <QWidget>

#include <functional>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QLabel;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QScatterSeries;
class QTabWidget;
class QToolButton;
class QTableWidget;

namespace rankstep::gui {

class Appearance;
class BubbleChart;
class RunSession;
class WhatIfChart;
class WhatIfFields;
class WhatIfTable;

class WhatIfView
    : public QWidget
    , public Describable
{
    Q_OBJECT
public:
    // Describable: the point labels that found no clear place at the last placing.
    QString describedName() const override { return QStringLiteral("whatif"); }
    QStringList elidedTexts() const override;
    // The points' labels as drawn (tests): their words and where they sit in the chart.
    QList<QPair<QString, QRectF>> pointLabels() const;

    // The sweep runs in the controller (it outlives the view); the view shows its rows.
    WhatIfView(RunSession &session, Appearance &appearance, SweepController &sweep,
               QWidget *parent = nullptr);

    // Saves the code and says what to run (the window's); nullopt: nothing (it said why).
    void setCodeSource(std::function<std::optional<SweepSpec>()> source);
    // Sets the fields (a scripted sweep: "ranks=2,4,8;batches=1,2,4,8;bandwidth=50;cost=...";
    // "batches-per-rank=1"; "compare=schedules"). False, with the reason in `why`, for a field it
    // does not know.
    bool setFields(const QString &fields, QString *why = nullptr);

    bool isRunning() const;
    // Shows the fields (folded or not) and puts the cursor in Ranks.
    void focusFields();
    const std::vector<io::SweepRow> &rows() const { return m_rows; }
    // The rows on the Pareto front and the one of the run on screen (-1: none), for tests.
    std::vector<bool> front() const { return io::paretoFront(m_rows); }
    int currentRow() const { return m_current; }
    const QTableWidget *table() const;
    QScatterSeries *pointSeries() const;
    // The points over the device's memory and the line at it (empty without a device's memory).
    QScatterSeries *overMemorySeries() const;
    QLineSeries *deviceMemoryLine() const;
    QProgressBar *progress() const { return m_progress; }
    // A pipeline lesson's comparison of schedules: the choice, and the chart of their bubbles.
    QCheckBox *compareSchedules() const;
    const BubbleChart *bubbleChart() const { return m_bubbles; }
    QLabel *status() const { return m_status; }
    // Shows the table instead of the chart (or back).
    void showTable(bool table);

public Q_SLOTS:
    void runSweep();
    void stop();
    // Opens the run of m_rows[index] (what a click on its point or row does).
    void openRow(int index);

Q_SIGNALS:
    void runningChanged(bool running);
    void sweepFinished(); // ran to the end, failed or stopped
    // Show this row's run (its trace file) in the views.
    void openRun(const rankstep::io::SweepRow &row);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    // The session's lesson: the fields start from its setting; the rows of another lesson's
    // sweep go.
    void onLessonChanged();
    QWidget *settingsPage(); // the fields, the buttons and the status
    void keepSettingsHeight();
    void foldIfShort();
    void setStatus(const QString &text);
    void onRow(const io::SweepRow &row);
    void onFinished(double seconds);
    void onFailed(const QString &message);
    void onStopped();
    void findCurrent();
    void replot();
    bool isOwnRow(const io::SweepRow &row) const; // the learner's code, not a compared solution

    RunSession &m_session;
    Appearance &m_appearance;
    SweepController *m_sweep; // not owned
    std::function<std::optional<SweepSpec>()> m_source;
    std::vector<io::SweepRow> m_rows; // in the order they arrived
    int m_current = -1;
    int m_expected = 0;
    QString m_sweptCost; // the cost model the rows ran under

    WhatIfFields *m_fields;
    QWidget *m_settingsArea = nullptr;
    QToolButton *m_fieldsToggle = nullptr;
    bool m_foldPending = false; // a sweep ended: fold the fields once the tab shows if it is short
    QPushButton *m_run;
    QPushButton *m_stop;
    QProgressBar *m_progress;
    QLabel *m_status;
    WhatIfChart *m_chart;
    WhatIfTable *m_table;
    BubbleChart *m_bubbles;
    std::string m_ownProgram;        // the learner's program as a comparison's rows name it
    QTabWidget *m_results = nullptr; // the chart, the table
};

} // namespace rankstep::gui
