// SPDX-License-Identifier: MIT
// The experiments of a lesson (the pipeline bubble's m = 1, 2, 4, 8): the learner's code runs
// again at each setting, in child processes one after another so the window never waits, and a
// table and a chart put the measured idle share beside GPipe's formula (p - 1) / (m + p - 1), or,
// where the runs show another schedule (1F1B, interleaved, zero-bubble), the measured bubble
// beside that schedule's formula, both as shares of the ideal time (core/explain/pipelineshape.h).
#pragma once

#include "core/explain/pipelineshape.h"
#include "core/lessons/lesson.h"
#include "experimentscontroller.h"

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
    // The runs are the controller's (it outlives the view); the view shows them.
    ExperimentsView(RunSession &session, Appearance &appearance, ExperimentsController &experiments,
                    QWidget *parent = nullptr);

    // Runs base's code and function at each experiment's ranks, layers and batches.
    void runExperiments(const RunSpec &base);
    bool isRunning() const { return m_experiments.isRunning(); }

    const QTableWidget *table() const { return m_table; }
    QLineSeries *measuredSeries() const { return m_measured; }
    QLineSeries *formulaSeries() const { return m_formula; }

Q_SIGNALS:
    void experimentsFinished();

private:
    // Empties the table and chart; one row per experiment of the session's lesson (none without).
    void showLesson();
    void onStarted(int index);
    void onTraceAvailable(int index, const TracePtr &trace);
    void onFinished();
    void setRow(int row, const QString &measured, const QString &formula);
    void setMeasured(int row, const QString &text);
    void replot();
    // The runs are of this schedule, not GPipe: the columns, lines and axis say its bubble.
    void showSchedule(const explain::PipelineShape &shape);
    QString formulaAt(const lessons::Experiment &experiment) const;

    RunSession &m_session;
    const lessons::Lesson *m_lesson = nullptr;
    ExperimentsController &m_experiments;
    std::vector<std::optional<double>> m_shares;
    std::optional<explain::PipelineShape> m_schedule; // none: GPipe's idle share and formula
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    QChart *m_chart = nullptr;
    QLineSeries *m_measured = nullptr;
    QLineSeries *m_formula = nullptr;
    QValueAxis *m_mAxis = nullptr;
    QValueAxis *m_shareAxis = nullptr;
};

} // namespace rankstep::gui
