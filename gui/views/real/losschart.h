// SPDX-License-Identifier: MIT
#pragma once

#include "look.h"

#include "core/io/torchlessonreport.h"

#include <QChartView>
#include <QString>

#include <optional>

class QAbstractSeries;
class QLabel;
class QValueAxis;

namespace rankstep::gui {

class Appearance;
class RunSession;

// The loss over the steps of a PyTorch lesson's run (lessons/100-torch_loop and on): each rank's
// logged loss, the reference loop's (dashed: the fp32 loop beside an autocast one, one process
// beside DDP's ranks), and the loss of a model that guesses every token equally likely, ln of the
// vocabulary, dotted, where a fresh model should start (the training checklist's check). When the
// run logged gradient norms (the checklist lesson: run.log(loss, norm)), they are drawn too, on an
// axis of their own at the right: the learner's, the reference's dashed, and the clipping norm.
// It draws the session's lesson report (RunSession::lessonReport), the placeholder ("Run your
// code to see its loss curve") without one, and redraws when the report or the look changes.
class LossChart : public QChartView
{
    Q_OBJECT
public:
    LossChart(const RunSession &session, const Appearance &appearance, QWidget *parent = nullptr);

    // The series drawn (for tests): their names and point counts.
    QStringList seriesSummary() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    void placeLegend();
    void addGradNorms(const io::TorchLessonReport &report, double width);

    const RunSession &m_session;
    const Appearance &m_appearance;
    Look m_look;
    QValueAxis *m_steps;
    QValueAxis *m_loss;
    QValueAxis *m_norm; // shown only when the run has gradient norms
    QLabel *m_legend;   // above the chart, wrapping between its entries
};

// The legend of these curves as HTML: each name whole, after a mark in the curve's color and
// style (solid, dashed, dotted); lines wrap between entries only.
QString legendHtml(const QList<QAbstractSeries *> &series);

// The name of the reference loop of a lesson's check ("the fp32 loop", "one process").
QString referenceName(const std::string &check);

// A PyTorch lesson's verdict for the results panel, as HTML: "Solved!" or what is missing, then
// every check; without a report (a rank's error, a stop, PyTorch missing) what the command said.
QString torchLessonHtml(int exitCode, const QString &output, const io::TorchLessonReport *report);
// The line of the learner's error in the output of a run on real processes (a PyTorch lesson's,
// or `rankstep-cli real`: "Error (rank 1, line 12): ..."), or 0.
int rankErrorLine(const QString &output);

} // namespace rankstep::gui
