// SPDX-License-Identifier: MIT
#include "experimentsview.h"

#include "bubblechart.h"
#include "runsession.h"

#include "core/bubble.h"
#include "explainview.h"

#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

QString percent(double share)
{
    return QStringLiteral("%1%").arg(share * 100.0, 0, 'f', 1);
}

} // namespace

ExperimentsView::ExperimentsView(RunSession &session, Appearance &,
                                 ExperimentsController &experiments, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_experiments(experiments)
    , m_status(new QLabel(this))
    , m_table(new QTableWidget(0, 3, this))
    , m_chart(new QChart)
    , m_measured(new QLineSeries)
    , m_formula(new QLineSeries)
    , m_mAxis(new QValueAxis)
    , m_shareAxis(new QValueAxis)
{
    setObjectName(QStringLiteral("experimentsView"));
    m_status->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("experimentsTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("m"), tr("idle, measured"), tr("(p - 1) / (m + p - 1)")}); // showLesson says them
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_measured->setName(tr("measured"));
    m_measured->setPointsVisible(true);
    m_formula->setName(tr("(p - 1) / (m + p - 1)"));
    m_chart->addSeries(m_measured);
    m_chart->addSeries(m_formula);
    m_formula->setPen(QPen(Qt::gray, 2, Qt::DashLine)); // after addSeries: the theme sets pens
    m_mAxis->setTitleText(tr("m"));
    m_mAxis->setLabelFormat(QStringLiteral("%d"));
    m_mAxis->setTickType(QValueAxis::TicksDynamic); // from 0 in round steps, not a count
    m_mAxis->setTickAnchor(0);
    m_shareAxis->setTitleText(tr("idle %"));
    m_shareAxis->setRange(0, 100);
    m_shareAxis->setLabelFormat(QStringLiteral("%d"));
    m_chart->addAxis(m_mAxis, Qt::AlignBottom);
    m_chart->addAxis(m_shareAxis, Qt::AlignLeft);
    for (QLineSeries *series : {m_measured, m_formula}) {
        series->attachAxis(m_mAxis);
        series->attachAxis(m_shareAxis);
    }
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    auto *chartView = new QChartView(m_chart, this);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumHeight(180);
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(m_status);
    layout->addWidget(m_table);
    layout->addWidget(chartView, 1);
    // Scrolls in a short pane: its chart's height must not set the window's minimum (presenting
    // at 1280x800 and 150% the window grew past the screen).
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scrollable(page));
    connect(&m_experiments, &ExperimentsController::experimentStarted, this,
            &ExperimentsView::onStarted);
    connect(&m_experiments, &ExperimentsController::experimentAvailable, this,
            &ExperimentsView::onTraceAvailable);
    connect(&m_experiments, &ExperimentsController::experimentFailed, this,
            [this](int index, const QString &message) { setMeasured(index, message); });
    connect(&m_experiments, &ExperimentsController::stopped, this,
            [this](int index) { setMeasured(index, tr("stopped")); });
    connect(&m_experiments, &ExperimentsController::finished, this, &ExperimentsView::onFinished);
    connect(&m_session, &RunSession::lessonChanged, this, &ExperimentsView::showLesson);
    showLesson();
}

void ExperimentsView::showLesson()
{
    m_experiments.stop();
    const lessons::Lesson *lesson = m_session.lesson();
    m_lesson = lesson;
    const std::size_t count = lesson ? lesson->experiments.size() : 0;
    m_shares.assign(count, std::nullopt);
    m_schedule.reset();
    m_table->setHorizontalHeaderLabels(
        {tr("m"), tr("idle, measured"), tr("(p - 1) / (m + p - 1)")});
    m_measured->setName(tr("measured"));
    m_formula->setName(tr("(p - 1) / (m + p - 1)"));
    m_shareAxis->setTitleText(tr("idle %"));
    m_table->setRowCount(int(count));
    for (std::size_t i = 0; i < count; ++i) {
        const lessons::Experiment &experiment = lesson->experiments[i];
        m_table->setItem(int(i), 0, new QTableWidgetItem(QString::number(experiment.batches)));
        setRow(int(i), QStringLiteral("-"), formulaAt(experiment));
    }
    m_status->setText(count == 0 ? tr("This lesson has no experiments.")
                                 : tr("Run your code (F5): it then runs again at each m."));
    replot();
}

void ExperimentsView::runExperiments(const RunSpec &base)
{
    if (!m_lesson || m_lesson->experiments.empty())
        return;
    showLesson();
    std::vector<RunSpec> specs;
    for (const lessons::Experiment &experiment : m_lesson->experiments) {
        RunSpec spec = base;
        spec.ranks = experiment.ranks;
        spec.layers = experiment.layers;
        spec.batches = experiment.batches;
        specs.push_back(spec);
    }
    m_experiments.start(specs);
}

void ExperimentsView::onStarted(int index)
{
    if (!m_lesson || std::size_t(index) >= m_lesson->experiments.size())
        return;
    m_status->setText(
        tr("Running %1 (%2 of %3)…")
            .arg(QString::fromStdString(m_lesson->experiments[std::size_t(index)].label))
            .arg(index + 1)
            .arg(m_lesson->experiments.size()));
}

void ExperimentsView::onFinished()
{
    if (!m_lesson || m_lesson->experiments.empty())
        return;
    m_status->setText(tr("Your code at each m (p = %1 pipeline stages).")
                          .arg(m_lesson->experiments.front().ranks));
    Q_EMIT experimentsFinished();
}

void ExperimentsView::onTraceAvailable(int index, const TracePtr &trace)
{
    const std::size_t row = std::size_t(index);
    if (row >= m_shares.size())
        return;
    const bool usable = trace->status == core::RunStatus::Ok && trace->figures.hasEvents;
    const auto shape = usable ? explain::pipelineShape(*trace) : std::nullopt;
    if (shape && shape->schedule != explain::PipelineSchedule::GPipe && !m_schedule)
        showSchedule(*shape);
    if (usable)
        m_shares[row] = m_schedule && shape ? shape->measured : core::idleShare(*trace);
    setMeasured(index, usable ? percent(*m_shares[row])
                              : tr("did not finish (%1)")
                                    .arg(QString::fromLatin1(core::runStatusName(trace->status))));
    replot();
}

void ExperimentsView::showSchedule(const explain::PipelineShape &shape)
{
    m_schedule = shape;
    // "(p-1)/(v*m)" as a person writes it.
    const QString formula = QString::fromLatin1(explain::formulaText(shape.schedule))
                                .replace(QLatin1Char('*'), QChar(0x00B7))
                                .replace(QLatin1Char('-'), QChar(0x2212));
    m_table->setHorizontalHeaderLabels({tr("m"), tr("bubble, measured"), formula});
    m_measured->setName(tr("bubble, measured"));
    m_formula->setName(formula);
    m_shareAxis->setTitleText(tr("bubble %")); // of the ideal time, as the lesson says
    for (std::size_t i = 0; m_lesson && i < m_lesson->experiments.size(); ++i)
        if (QTableWidgetItem *item = m_table->item(int(i), 2))
            item->setText(formulaAt(m_lesson->experiments[i]));
}

QString ExperimentsView::formulaAt(const lessons::Experiment &experiment) const
{
    return percent(m_schedule ? explain::scheduleFormula(*m_schedule, experiment.batches)
                              : core::bubbleFormula(experiment.ranks, experiment.batches));
}

void ExperimentsView::setMeasured(int row, const QString &text)
{
    if (QTableWidgetItem *item = m_table->item(row, 1))
        item->setText(text);
}

void ExperimentsView::setRow(int row, const QString &measured, const QString &formula)
{
    m_table->setItem(row, 1, new QTableWidgetItem(measured));
    m_table->setItem(row, 2, new QTableWidgetItem(formula));
}

void ExperimentsView::replot()
{
    m_measured->clear();
    m_formula->clear();
    int largest = 1;
    for (std::size_t i = 0; m_lesson && i < m_lesson->experiments.size(); ++i) {
        const lessons::Experiment &experiment = m_lesson->experiments[i];
        largest = std::max(largest, experiment.batches);
        m_formula->append(
            experiment.batches,
            100.0 * (m_schedule ? explain::scheduleFormula(*m_schedule, experiment.batches)
                                : core::bubbleFormula(experiment.ranks, experiment.batches)));
        if (m_shares[i])
            m_measured->append(experiment.batches, 100.0 * *m_shares[i]);
    }
    m_mAxis->setRange(0, largest + 1);
    m_mAxis->setTickInterval(roundTickStep(largest + 1)); // whole, round: 0, 2, 4, ...
    // A bubble may pass the ideal time itself (a short pipeline, messages that cost).
    double highest = 100;
    for (const QPointF &point : m_measured->points())
        highest = std::max(highest, std::ceil(point.y() / 20.0) * 20.0);
    m_shareAxis->setRange(0, highest);
}

} // namespace rankstep::gui
