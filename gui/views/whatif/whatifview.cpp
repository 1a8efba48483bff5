// SPDX-License-Identifier: MIT
#include "whatifview.h"

#include "appearance.h"
#include "bubblechart.h"
#include "explainview.h"
#include "memoryseries.h"
#include "runsession.h"
#include "sweeplabels.h"
#include "whatifchart.h"
#include "whatiffields.h"
#include "whatiftable.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QShowEvent>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {

WhatIfView::WhatIfView(RunSession &session, Appearance &appearance, SweepController &sweep,
                       QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_appearance(appearance)
    , m_sweep(&sweep)
    , m_fields(new WhatIfFields)
    , m_run(new QPushButton(tr("Sweep")))
    , m_stop(new QPushButton(tr("Stop")))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_chart(new WhatIfChart(appearance))
    , m_table(new WhatIfTable)
    , m_bubbles(new BubbleChart(appearance))
{
    setObjectName(QStringLiteral("whatIfView"));
    setAccessibleName(tr("What if"));
    setAccessibleDescription(
        tr("Runs your code at every setting of a grid and plots Timesteps against peak memory."));
    connect(m_fields, &WhatIfFields::runRequested, this, &WhatIfView::runSweep);
    m_run->setObjectName(QStringLiteral("whatIfRun"));
    m_run->setToolTip(tr("Run your code at every setting listed (Enter in a field)"));
    m_stop->setObjectName(QStringLiteral("whatIfStop"));
    m_stop->setToolTip(
        tr("Stop the sweep (%1)")
            .arg(QKeySequence(QKeySequence::Cancel).toString(QKeySequence::NativeText)));
    m_stop->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &WhatIfView::runSweep);
    connect(m_stop, &QPushButton::clicked, this, &WhatIfView::stop);
    m_progress->setObjectName(QStringLiteral("whatIfProgress"));
    m_progress->setFormat(tr("%v of %m"));
    m_progress->setMinimumWidth(60);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    connect(m_chart, &WhatIfChart::rowClicked, this, &WhatIfView::openRow);
    connect(m_table, &WhatIfTable::rowOpened, this, &WhatIfView::openRow);

    // The fields, buttons and status scroll in a short tab; the chart and the table below them
    // take the rest of its height (in the scroll area a wrapped label would size them instead).
    m_settingsArea = scrollable(settingsPage());
    // The chart and the table take turns: in a narrow window both at once would leave neither
    // readable.
    m_results = new QTabWidget;
    m_results->setObjectName(QStringLiteral("whatIfResults"));
    m_results->setDocumentMode(true);
    m_results->addTab(m_chart, tr("Chart"));
    m_results->addTab(m_table, tr("Table"));
    m_results->addTab(m_bubbles, tr("Bubble"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_settingsArea);
    outer->addWidget(m_results, 1);
    keepSettingsHeight();

    connect(m_sweep, &SweepController::rowArrived, this, &WhatIfView::onRow);
    connect(m_sweep, &SweepController::finished, this, &WhatIfView::onFinished);
    connect(m_sweep, &SweepController::failed, this, &WhatIfView::onFailed);
    connect(m_sweep, &SweepController::stopped, this, &WhatIfView::onStopped);
    connect(m_sweep, &SweepController::runningChanged, this, [this](bool running) {
        m_run->setEnabled(!running);
        m_stop->setEnabled(running);
        Q_EMIT runningChanged(running);
    });
    connect(&m_session, &RunSession::traceChanged, this, [this] {
        findCurrent();
        replot();
    });
    connect(&m_appearance, &Appearance::lookChanged, m_chart, &WhatIfChart::applyLook);
    connect(&m_session, &RunSession::lessonChanged, this, &WhatIfView::onLessonChanged);
    m_chart->applyLook();
    onLessonChanged();
}

QWidget *WhatIfView::settingsPage()
{
    // Where the tab is short the fields fold away once there are rows to see (onFinished).
    m_fieldsToggle = new QToolButton;
    m_fieldsToggle->setObjectName(QStringLiteral("whatIfFieldsToggle"));
    m_fieldsToggle->setToolTip(tr("Show or hide the settings to sweep"));
    m_fieldsToggle->setAccessibleName(tr("Settings"));
    m_fieldsToggle->setCheckable(true);
    m_fieldsToggle->setChecked(true);
    m_fieldsToggle->setArrowType(Qt::UpArrow);
    connect(m_fieldsToggle, &QToolButton::toggled, this, [this](bool shown) {
        m_fields->setVisible(shown);
        m_fieldsToggle->setArrowType(shown ? Qt::UpArrow : Qt::DownArrow);
        keepSettingsHeight();
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_fieldsToggle);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("whatIfStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(m_fields);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    return page;
}

QStringList WhatIfView::elidedTexts() const
{
    return m_chart->elidedTexts();
}

QList<QPair<QString, QRectF>> WhatIfView::pointLabels() const
{
    return m_chart->pointLabels();
}

const QTableWidget *WhatIfView::table() const
{
    return m_table;
}

QScatterSeries *WhatIfView::pointSeries() const
{
    return m_chart->pointSeries();
}

QScatterSeries *WhatIfView::overMemorySeries() const
{
    return m_chart->overMemorySeries();
}

QLineSeries *WhatIfView::deviceMemoryLine() const
{
    return m_chart->deviceMemoryLine();
}

QCheckBox *WhatIfView::compareSchedules() const
{
    return m_fields->compare();
}

void WhatIfView::onLessonChanged()
{
    if (m_sweep->isRunning())
        m_sweep->stop();
    const lessons::Lesson *lesson = m_session.lesson();
    m_rows.clear();
    m_table->setRowCount(0);
    m_current = -1;
    m_bubbles->setRows(m_rows);
    // The schedules' lessons give every rank a stage: a laid-out lesson's (four_d) sweep would
    // hand them layouts they do not take, and its own runs have no one-stage-a-rank bubble.
    const bool pipeline = lesson && lesson->parallelism == lessons::Parallelism::Pipeline &&
                          lesson->config.layout.isPlain();
    m_fields->compare()->setVisible(pipeline);
    m_fields->compare()->setChecked(false);
    m_results->setTabVisible(m_results->indexOf(m_bubbles), pipeline);
    m_fields->fillFrom(lesson ? lesson->config : core::RunConfig());
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    setStatus(
        lesson && !lesson->isTorch()
            ? tr("Your code at every setting you list (2,4,8), each run in the background as F5 "
                 "runs it. The lesson's own setting is filled in.")
            : tr("A PyTorch lesson trains for real: it has no what-if sweep."));
    m_run->setEnabled(lesson && !lesson->isTorch());
    replot();
}

void WhatIfView::setCodeSource(std::function<std::optional<SweepSpec>()> source)
{
    m_source = std::move(source);
}

bool WhatIfView::setFields(const QString &fields, QString *why)
{
    QCheckBox *compare = m_fields->compare();
    for (const QString &pair : fields.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        const QString key = pair.left(equals).trimmed();
        const QString value = equals < 0 ? QString() : pair.mid(equals + 1).trimmed();
        if (m_fields->setField(key, value))
            continue;
        if (key == QStringLiteral("show") &&
            (value == QStringLiteral("chart") || value == QStringLiteral("table"))) {
            showTable(value == QStringLiteral("table"));
        } else if (key == QStringLiteral("show") && value == QStringLiteral("bubble") &&
                   compare->isVisibleTo(this)) {
            m_results->setCurrentWidget(m_bubbles);
        } else if (key == QStringLiteral("compare") && compare->isVisibleTo(this) &&
                   (value == QStringLiteral("schedules") || value == QStringLiteral("none"))) {
            compare->setChecked(value == QStringLiteral("schedules"));
        } else {
            if (why)
                *why = tr("'%1': the fields are ranks, layers, batches, batches-per-rank, "
                          "bandwidth, tensor, pipeline, cost (a preset), show (chart or table; "
                          "bubble) and, in a pipeline lesson, compare (schedules or none)")
                           .arg(pair);
            return false;
        }
    }
    return true;
}

void WhatIfView::foldIfShort()
{
    if (!m_foldPending || !isVisible())
        return; // a hidden tab's layout is not done: its heights say nothing yet
    m_foldPending = false;
    if (m_results->height() < 3 * m_chart->minimumHeight())
        m_fieldsToggle->setChecked(false);
}

void WhatIfView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    QTimer::singleShot(0, this, &WhatIfView::foldIfShort); // once the layout placed everything
}

void WhatIfView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Two pairs of a label and a field need about 34 characters each.
    m_fields->arrange(width() >= 2 * 34 * fontMetrics().averageCharWidth());
    keepSettingsHeight();
}

// The settings area is as tall as what it holds, and never more than half the tab.
void WhatIfView::keepSettingsHeight()
{
    auto *area = static_cast<QScrollArea *>(m_settingsArea);
    QWidget *page = area->widget();
    // At the width left beside a scroll bar: measured at the whole width, the wrapped status came
    // out a line short.
    const int width = m_settingsArea->width() - area->verticalScrollBar()->sizeHint().width();
    const int wanted = page->heightForWidth(std::max(1, width)) + 2;
    const int natural = wanted > 2 ? wanted : page->sizeHint().height();
    // Up to half the tab; at least what it holds up to a third (the layout would give it only
    // its size hint, a status of one line). Never more: the tab's minimum must not grow the
    // window (presenting at 1280x800 and 150%, tests/gui/app/presentationsizetest.cpp).
    m_settingsArea->setMinimumHeight(std::min(natural, height() / 3));
    m_settingsArea->setMaximumHeight(std::max(40, std::min(natural, height() / 2)));
}

void WhatIfView::setStatus(const QString &text)
{
    m_status->setText(text);
    keepSettingsHeight();
    // Again once the layout placed the new text: its lines at the area's final width.
    QTimer::singleShot(0, this, &WhatIfView::keepSettingsHeight);
}

void WhatIfView::showTable(bool table)
{
    m_results->setCurrentWidget(table ? static_cast<QWidget *>(m_table) : m_chart);
}

void WhatIfView::focusFields()
{
    m_fieldsToggle->setChecked(true);
    m_fields->focusRanks();
}

bool WhatIfView::isRunning() const
{
    return m_sweep->isRunning();
}

void WhatIfView::runSweep()
{
    const lessons::Lesson *lesson = m_session.lesson();
    if (!lesson || lesson->isTorch() || m_sweep->isRunning() || !m_source)
        return;
    std::optional<SweepSpec> spec = m_source(); // saves the code
    if (!spec)
        return;
    m_fields->fill(*spec);
    const bool compare = m_fields->compare()->isVisibleTo(this) && m_fields->compare()->isChecked();
    if (!compare)
        spec->compared.clear();
    // The sweep names the learner's program as it is given: the file's name in its folder.
    m_ownProgram =
        spec->compared.empty() ? std::string() : QFileInfo(spec->codePath).fileName().toStdString();
    m_table->setColumnHidden(WhatIfTable::Program, spec->compared.empty());
    if (compare)
        m_results->setCurrentWidget(m_bubbles);
    m_rows.clear();
    m_table->setRowCount(0);
    m_current = -1;
    m_bubbles->setRows(m_rows);
    m_expected = m_fields->expectedSettings() * (1 + int(spec->compared.size()));
    m_progress->setRange(0, m_expected);
    m_progress->setValue(0);
    setStatus(tr("Running %n setting(s) in the background…", nullptr, m_expected));
    m_sweptCost = m_fields->costModel();
    replot();
    m_sweep->start(*spec);
}

void WhatIfView::stop()
{
    m_sweep->stop();
}

void WhatIfView::openRow(int index)
{
    if (index < 0 || index >= int(m_rows.size()))
        return;
    const io::SweepRow &row = m_rows[std::size_t(index)];
    if (row.trace.empty()) {
        setStatus(
            tr("That setting's run left no trace: %1").arg(QString::fromStdString(row.error)));
        return;
    }
    Q_EMIT openRun(row);
}

void WhatIfView::onRow(const io::SweepRow &row)
{
    m_rows.push_back(row);
    m_table->addRow(m_rows, int(m_rows.size()) - 1,
                    sweepResultText(row, m_session.lesson(), m_sweptCost.toStdString()),
                    isOwnRow(row) ? tr("your code") : programTitle(row.program));
    m_progress->setValue(int(m_rows.size()));
    m_bubbles->setRows(m_rows);
    findCurrent();
    replot();
}

void WhatIfView::onFinished(double seconds)
{
    // A short tab (1280x800): the chart gets the fields' height until they are asked for again.
    m_foldPending = true;
    foldIfShort();
    const auto correct =
        std::count_if(m_rows.begin(), m_rows.end(), [](const io::SweepRow &r) { return r.solved; });
    // "Solved" is the results panel's verdict, given at the lesson's own setting only: the
    // status says which row that is and what it got, as the table's result column does.
    QString graded;
    const std::string cost = m_sweptCost.toStdString();
    if (const lessons::Lesson *lesson = m_session.lesson()) {
        const auto own = std::find_if(m_rows.begin(), m_rows.end(), [&](const io::SweepRow &r) {
            return isOwnRow(r) && isGradedSetting(r, *lesson, cost);
        });
        graded = own == m_rows.end()
                     ? tr(" The lesson is graded at %1 only, which this sweep did not run.")
                           .arg(settingText(lesson->config))
                     : tr(" The lesson is graded at %1 only: %2 there.")
                           .arg(settingText(lesson->config), sweepResultText(*own, lesson, cost));
    }
    // As the command line's summary counts them: the settings that do not fit the device.
    const auto overDevice = [](const io::SweepRow &r) {
        return r.overDeviceMemory();
    };
    const auto firstOver = std::find_if(m_rows.begin(), m_rows.end(), overDevice);
    const QString fit = firstOver == m_rows.end()
                            ? QString()
                            : tr(" %n starred: over the device's %1, not fitting.", nullptr,
                                 int(std::count_if(firstOver, m_rows.end(), overDevice)))
                                  .arg(formatMemory(*firstOver->deviceMemory));
    setStatus(tr("%1 settings in %2 s; %3 with the right weights.%4 Click a point or "
                 "double-click a row to open its run.")
                  .arg(m_rows.size())
                  .arg(seconds, 0, 'f', 1)
                  .arg(correct)
                  .arg(fit + graded));
    Q_EMIT sweepFinished();
}

bool WhatIfView::isOwnRow(const io::SweepRow &row) const
{
    return row.program.empty() || row.program == m_ownProgram;
}

void WhatIfView::onFailed(const QString &message)
{
    setStatus(tr("The sweep did not run: %1").arg(message));
    Q_EMIT sweepFinished();
}

void WhatIfView::onStopped()
{
    setStatus(tr("Stopped: %1 of %2 settings ran.").arg(m_rows.size()).arg(m_expected));
    Q_EMIT sweepFinished();
}

// The row of the run on screen: its setting, under the cost model the sweep ran.
void WhatIfView::findCurrent()
{
    m_current = -1;
    const TracePtr &trace = m_session.trace();
    if (!trace || m_sweptCost.toStdString() != trace->config.cost.name)
        return;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const io::SweepPoint &p = m_rows[i].point;
        const core::RunConfig &c = trace->config;
        const bool bandwidth =
            p.bandwidth <= 0 || (c.cost.network && std::abs(c.cost.network->intraNodeBandwidth -
                                                            p.bandwidth * 1e9) < 1.0);
        if (p.ranks == c.ranks && p.layers == c.layers && p.batches == c.batches && bandwidth &&
            m_rows[i].finished() && trace->figures.timesteps == *m_rows[i].timesteps) {
            m_current = int(i);
            return;
        }
    }
}

void WhatIfView::replot()
{
    m_chart->plot(m_rows, m_current);
    bool seconds = false; // as the last finished row measured
    for (const io::SweepRow &row : m_rows)
        if (row.finished() && row.peakMemory)
            seconds = row.seconds;
    m_table->showColumnsOf(m_rows, seconds);
}

} // namespace rankstep::gui
