// SPDX-License-Identifier: MIT
// The experiments of a lesson (the pipeline bubble's m = 1, 2, 4, 8): the learner's code runs
// again at each setting, in child processes one after another so the window never waits, and a
// table and a chart put the measured idle share beside GPipe's formula (p - 1) / (m + p - 1).
// One row per experiment of the session's lesson.
#pragma once

#include "core/lessons/lesson.h"
#include "runcontroller.h"

#include <QWidget>

class QChart;
class QLabel;
class QLineSeries;
class QTableWidget;
class QValueAxis;

namespace rankstep::gui {

class Appearance;
class RunSession;

class ExperimentsView : public QWidget
{
    Q_OBJECT
public:
    ExperimentsView(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    // Runs base's code and function at each experiment's ranks, layers and batches.
    void runExperiments(const RunSpec &base);
    bool isRunning() const { return m_next >= 0; }

    const QTableWidget *table() const { return m_table; }
    QLineSeries *measuredSeries() const { return m_measured; }
    QLineSeries *formulaSeries() const { return m_formula; }

Q_SIGNALS:
    void experimentsFinished();

private:
    // Empties the table and chart; one row per experiment of the session's lesson.
    void showLesson();
    void startNext();
    void onTraceAvailable(const TracePtr &trace);
    void onRunFailed(const QString &message);
    void setRow(int row, const QString &measured, const QString &formula);
    void replot();

    RunSession &m_session;
    const lessons::Lesson *m_lesson = nullptr; // the session's, whose experiments are shown
    RunController *m_runner = nullptr;
    RunSpec m_base;
    int m_next = -1; // the experiment running now; -1 when none
    std::vector<std::optional<double>> m_shares;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    QChart *m_chart = nullptr;
    QLineSeries *m_measured = nullptr;
    QLineSeries *m_formula = nullptr;
    QValueAxis *m_mAxis = nullptr;
    QValueAxis *m_shareAxis = nullptr;
};

} // namespace rankstep::gui
