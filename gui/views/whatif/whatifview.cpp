// SPDX-License-Identifier: MIT
#include "whatifview.h"

#include "appearance.h"
#include "bubblechart.h"
#include "explainview.h"
#include "memoryseries.h"
#include "runsession.h"
#include "sweeplabels.h"

#include "core/io/costfile.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QPen>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QShowEvent>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rankstep::gui {
namespace {

// Program (which program of a comparison) is shown first, and only in a comparison.
enum Column {
    Ranks,
    Layers,
    Batches,
    Bandwidth,
    Layout, // tensor x pipeline, shown when a row has one
    Result,
    Time,
    Memory,
    Idle,
    Error,
    Program,
    Columns
};

// How many different values a list field names ("2,4,4,8": 3); 1 when empty (run's default).
int countOf(const QString &list)
{
    QSet<QString> values;
    for (const QString &word : list.split(QLatin1Char(','), Qt::SkipEmptyParts))
        values.insert(word.trimmed());
    return std::max(1, int(values.size()));
}

// What does not fit the device: an orange apart from the Pareto front's red (the palette's
// maximum) and the points' blue, that reads on the light and the dark look.
const QColor kOverMemory(0xef, 0x6c, 0x00);

bool isRealScale(const QString &preset)
{
    const auto recipe = io::loadCostRecipe(preset.toStdString());
    return recipe && !recipe->fixed;
}

QString percent(double share)
{
    return QStringLiteral("%1%").arg(share * 100.0, 0, 'f', 1);
}

QString timeText(const io::SweepRow &row, const std::optional<core::SimTime> &time)
{
    return time ? QString::fromStdString(io::formatSweepTime(row, *time)) : QStringLiteral("-");
}

} // namespace

WhatIfView::WhatIfView(RunSession &session, Appearance &appearance, SweepController &sweep,
                       QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_appearance(appearance)
    , m_sweep(&sweep)
    , m_cost(new QComboBox)
    , m_ranks(new QLineEdit)
    , m_layers(new QLineEdit)
    , m_batchesKind(new QComboBox)
    , m_batches(new QLineEdit)
    , m_bandwidth(new QLineEdit)
    , m_tensor(new QLineEdit)
    , m_pipeline(new QLineEdit)
    , m_run(new QPushButton(tr("Sweep")))
    , m_stop(new QPushButton(tr("Stop")))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_chart(new QChart)
    , m_points(new QScatterSeries)
    , m_frontLine(new QLineSeries)
    , m_frontPoints(new QScatterSeries)
    , m_currentPoint(new QScatterSeries)
    , m_overMemory(new QScatterSeries)
    , m_deviceLine(new QLineSeries)
    , m_memoryAxis(new QValueAxis)
    , m_timeAxis(new QValueAxis)
    , m_table(new QTableWidget(0, Columns))
    , m_compare(new QCheckBox(tr("Compare the pipeline schedules: 1F1B, interleaved and "
                                 "zero-bubble (their lessons' solutions) beside your code")))
    , m_bubbles(new BubbleChart(appearance))
{
    setObjectName(QStringLiteral("whatIfView"));
    setAccessibleName(tr("What if"));
    setAccessibleDescription(
        tr("Runs your code at every setting of a grid and plots Timesteps against peak memory."));
    for (const std::string &name : io::costPresetNames())
        m_cost->addItem(QString::fromStdString(name));
    m_cost->setCurrentText(QStringLiteral("notebook"));
    m_cost->setObjectName(QStringLiteral("whatIfCost"));
    // Lists as the command line takes them: "2,4,8".
    auto *integers = new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral("^\\s*\\d{1,5}(\\s*,\\s*\\d{1,5})*\\s*,?\\s*$")), this);
    auto *numbers = new QRegularExpressionValidator(
        QRegularExpression(
            QStringLiteral("^\\s*\\d{1,7}(\\.\\d*)?(\\s*,\\s*\\d{1,7}(\\.\\d*)?)*\\s*,?\\s*$")),
        this);
    const struct {
        QLineEdit *edit;
        const char *name;
        QValidator *validator;
    } fields[] = {{m_ranks, "whatIfRanks", integers},     {m_layers, "whatIfLayers", integers},
                  {m_batches, "whatIfBatches", integers}, {m_bandwidth, "whatIfBandwidth", numbers},
                  {m_tensor, "whatIfTensor", integers},   {m_pipeline, "whatIfPipeline", integers}};
    for (const auto &field : fields) {
        field.edit->setObjectName(QString::fromLatin1(field.name));
        field.edit->setValidator(field.validator);
        connect(field.edit, &QLineEdit::returnPressed, this, &WhatIfView::runSweep);
    }
    m_ranks->setToolTip(tr("Numbers of ranks, separated by commas: 2,4,8"));
    m_batchesKind->addItems({tr("Batches"), tr("Batches per rank")});
    m_batchesKind->setObjectName(QStringLiteral("whatIfBatchesKind"));
    m_batchesKind->setToolTip(
        tr("Batches per rank: each setting runs ranks x K batches, as data parallelism needs."));
    m_bandwidth->setPlaceholderText(tr("the cost model's own"));
    m_bandwidth->setToolTip(
        tr("Gigabytes a second on every link, inside and between nodes: 25,50,450. Only a "
           "real-scale cost model moves data by its bytes."));
    connect(m_cost, &QComboBox::currentTextChanged, this, &WhatIfView::updateBandwidthField);

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
    // Two fields a line where the tab is wide, so that the chart keeps the height (arrangeFields).
    m_form = new QGridLayout;
    const auto label = [](const QString &text, QWidget *buddy) {
        auto *name = new QLabel(text);
        name->setBuddy(buddy);
        return name;
    };
    m_fieldPairs = {{label(tr("&Cost model"), m_cost), m_cost},
                    {label(tr("Band&width, GB/s"), m_bandwidth), m_bandwidth},
                    {label(tr("&Ranks"), m_ranks), m_ranks},
                    {label(tr("&Layers"), m_layers), m_layers},
                    {m_batchesKind, m_batches},
                    {label(tr("Te&nsor"), m_tensor), m_tensor},
                    {label(tr("P&ipeline"), m_pipeline), m_pipeline}};
    arrangeFields(true);
    m_compare->setObjectName(QStringLiteral("whatIfCompare"));
    m_compare->setToolTip(
        tr("Runs the other pipeline lessons' solutions at every setting too, and draws each "
           "schedule's bubble over micro-batches beside its paper's formula (the Bubble tab)."));
    m_form->addWidget(m_compare, 100, 0, 1, 4); // below the pairs, however arranged
    m_fields = new QWidget;
    m_fields->setObjectName(QStringLiteral("whatIfFields"));
    m_form->setContentsMargins(0, 0, 0, 0);
    m_fields->setLayout(m_form);
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

    m_points->setName(tr("settings"));
    m_points->setMarkerSize(11);
    m_frontLine->setName(tr("Pareto front"));
    m_frontPoints->setMarkerSize(15);
    m_currentPoint->setName(tr("on screen"));
    m_currentPoint->setMarkerSize(24);
    // What does not fit a device: a star over its point, and the device's memory as a line.
    m_overMemory->setName(tr("over the device's memory"));
    m_overMemory->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_overMemory->setMarkerSize(17);
    m_overMemory->setColor(kOverMemory);
    m_overMemory->setBorderColor(kOverMemory.darker(130));
    m_chart->addSeries(m_deviceLine);
    m_chart->addSeries(m_frontLine);
    m_chart->addSeries(m_points);
    m_chart->addSeries(m_frontPoints);
    m_chart->addSeries(m_overMemory);
    m_chart->addSeries(m_currentPoint);
    m_chart->addAxis(m_memoryAxis, Qt::AlignBottom);
    m_chart->addAxis(m_timeAxis, Qt::AlignLeft);
    for (QAbstractSeries *series : std::initializer_list<QAbstractSeries *>{
             m_deviceLine, m_frontLine, m_points, m_frontPoints, m_overMemory, m_currentPoint}) {
        series->attachAxis(m_memoryAxis);
        series->attachAxis(m_timeAxis);
    }
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // The front's own points are drawn by the line's markers' twin: no legend entry of its own.
    m_chart->legend()->markers(m_frontPoints).front()->setVisible(false);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chartView = new QChartView(m_chart);
    m_chartView->setObjectName(QStringLiteral("whatIfChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(100);
    m_chartView->installEventFilter(this);
    m_chart->setMinimumSize(0, 0); // the tab's height, not the chart's wish, sizes it
    m_chartView->setAccessibleName(tr("Timesteps against peak memory"));
    // The points' labels follow the plot where a resize or new axes moved it.
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { placePointLabels(); });
    for (QScatterSeries *series : {m_points, m_frontPoints, m_overMemory, m_currentPoint}) {
        connect(series, &QScatterSeries::clicked, this, [this](const QPointF &value) {
            // The row whose point is nearest, on the axes' scales.
            const double xSpan = std::max(1e-12, m_memoryAxis->max() - m_memoryAxis->min());
            const double ySpan = std::max(1e-12, m_timeAxis->max() - m_timeAxis->min());
            int best = -1;
            double bestDistance = 0;
            for (int i = 0; i < m_points->count(); ++i) {
                const QPointF p = m_points->at(i);
                const double d =
                    std::hypot((p.x() - value.x()) / xSpan, (p.y() - value.y()) / ySpan);
                if (best < 0 || d < bestDistance) {
                    best = i;
                    bestDistance = d;
                }
            }
            if (best >= 0 && std::size_t(best) < m_pointRows.size())
                openRow(m_pointRows[std::size_t(best)]);
        });
        connect(series, &QScatterSeries::hovered, this, [this](const QPointF &value, bool on) {
            if (!on) {
                QToolTip::hideText();
                return;
            }
            for (int i = 0; i < m_points->count(); ++i)
                if (m_points->at(i) == value) {
                    const io::SweepRow &row = m_rows[std::size_t(m_pointRows[std::size_t(i)])];
                    QToolTip::showText(
                        QCursor::pos(),
                        tr("%1 ranks, %2 layers, %3 batches%4: Timesteps %5, peak %6, idle %7. "
                           "Click to open this run.")
                            .arg(row.point.ranks)
                            .arg(row.point.layers)
                            .arg(row.point.batches)
                            .arg((row.point.bandwidth > 0 ? tr(", %1 GB/s").arg(row.point.bandwidth)
                                                          : QString()) +
                                 (row.point.tensor > 1 || row.point.pipeline > 1
                                      ? tr(", tensor %1 x pipeline %2")
                                            .arg(row.point.tensor)
                                            .arg(row.point.pipeline)
                                      : QString()) +
                                 (row.overDeviceMemory() ? tr(", over the device's %1")
                                                               .arg(formatMemory(*row.deviceMemory))
                                                         : QString()))
                            .arg(timeText(row, row.timesteps),
                                 formatMemory(row.peakMemory.value_or(0)),
                                 percent(row.idleShare.value_or(0))),
                        m_chartView);
                    return;
                }
        });
    }

    m_table->setObjectName(QStringLiteral("whatIfTable"));
    m_table->setHorizontalHeaderLabels({tr("ranks"), tr("layers"), tr("batches"), tr("GB/s"),
                                        tr("tensor x pipeline"), tr("result"), tr("Timesteps"),
                                        tr("peak memory"), tr("idle"), tr("error"), tr("program")});
    m_table->horizontalHeader()->moveSection(Program, 0);
    m_table->setColumnHidden(Program, true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setMinimumHeight(60);
    m_table->setToolTip(tr("Double-click a row to open its run."));
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int tableRow, int) {
        if (QTableWidgetItem *item = m_table->item(tableRow, Ranks))
            openRow(item->data(Qt::UserRole).toInt());
    });

    // The fields, buttons and status scroll in a short tab; the chart and the table below them
    // take the rest of its height (in the scroll area a wrapped label would size them instead).
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(m_fields);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    m_settingsArea = scrollable(page);
    // The chart and the table take turns: in a narrow window both at once would leave neither
    // readable.
    m_results = new QTabWidget;
    m_results->setObjectName(QStringLiteral("whatIfResults"));
    m_results->setDocumentMode(true);
    m_results->addTab(m_chartView, tr("Chart"));
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
    connect(&m_appearance, &Appearance::lookChanged, this, &WhatIfView::applyLook);
    connect(&m_session, &RunSession::lessonChanged, this, &WhatIfView::onLessonChanged);
    applyLook();
    onLessonChanged();
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
    m_compare->setVisible(pipeline);
    m_compare->setChecked(false);
    m_results->setTabVisible(m_results->indexOf(m_bubbles), pipeline);
    const core::RunConfig config = lesson ? lesson->config : core::RunConfig();
    m_ranks->setText(QString::number(config.ranks));
    m_layers->setText(QString::number(config.layers));
    m_batchesKind->setCurrentIndex(0);
    m_batches->setText(QString::number(config.batches));
    m_bandwidth->clear();
    // A laid-out lesson's layout; empty (1) for the others.
    m_tensor->setText(config.layout.tensor > 1 ? QString::number(config.layout.tensor) : QString());
    m_pipeline->setText(config.layout.pipeline > 1 ? QString::number(config.layout.pipeline)
                                                   : QString());
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    setStatus(
        lesson && !lesson->isTorch()
            ? tr("Your code at every setting you list (2,4,8), each run in the background as F5 "
                 "runs it. The lesson's own setting is filled in.")
            : tr("A PyTorch lesson trains for real: it has no what-if sweep."));
    m_run->setEnabled(lesson && !lesson->isTorch());
    updateBandwidthField();
    replot();
}

void WhatIfView::setCodeSource(std::function<std::optional<SweepSpec>()> source)
{
    m_source = std::move(source);
}

bool WhatIfView::setFields(const QString &fields, QString *why)
{
    for (const QString &pair : fields.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        const QString key = pair.left(equals).trimmed();
        const QString value = equals < 0 ? QString() : pair.mid(equals + 1).trimmed();
        if (key == QStringLiteral("ranks")) {
            m_ranks->setText(value);
        } else if (key == QStringLiteral("layers")) {
            m_layers->setText(value);
        } else if (key == QStringLiteral("batches") || key == QStringLiteral("batches-per-rank")) {
            m_batchesKind->setCurrentIndex(key == QStringLiteral("batches") ? 0 : 1);
            m_batches->setText(value);
        } else if (key == QStringLiteral("bandwidth")) {
            m_bandwidth->setText(value);
        } else if (key == QStringLiteral("tensor")) {
            m_tensor->setText(value);
        } else if (key == QStringLiteral("pipeline")) {
            m_pipeline->setText(value);
        } else if (key == QStringLiteral("cost") && m_cost->findText(value) >= 0) {
            m_cost->setCurrentText(value);
        } else if (key == QStringLiteral("show") &&
                   (value == QStringLiteral("chart") || value == QStringLiteral("table"))) {
            showTable(value == QStringLiteral("table"));
        } else if (key == QStringLiteral("show") && value == QStringLiteral("bubble") &&
                   m_compare->isVisibleTo(this)) {
            m_results->setCurrentWidget(m_bubbles);
        } else if (key == QStringLiteral("compare") && m_compare->isVisibleTo(this) &&
                   (value == QStringLiteral("schedules") || value == QStringLiteral("none"))) {
            m_compare->setChecked(value == QStringLiteral("schedules"));
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

void WhatIfView::arrangeFields(bool twoColumns)
{
    if (m_twoColumns == twoColumns && m_form->count() > 0)
        return;
    m_twoColumns = twoColumns;
    for (const auto &[name, field] : m_fieldPairs) {
        m_form->removeWidget(name);
        m_form->removeWidget(field);
    }
    const int perLine = twoColumns ? 2 : 1;
    int at = 0;
    for (const auto &[name, field] : m_fieldPairs) {
        m_form->addWidget(name, at / perLine, 2 * (at % perLine));
        m_form->addWidget(field, at / perLine, 2 * (at % perLine) + 1);
        ++at;
    }
    for (int column = 0; column < 4; ++column)
        m_form->setColumnStretch(column, column % 2 == 1 && (twoColumns || column == 1) ? 1 : 0);
}

bool WhatIfView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_chartView && event->type() == QEvent::Resize) {
        // Ticks a label's width apart, and the legend only where the plot keeps its height.
        const double zoom = m_appearance.look().zoom;
        const int label = int(8 * fontMetrics().averageCharWidth() * zoom);
        m_memoryAxis->setTickCount(std::clamp(m_chartView->width() / std::max(1, label), 3, 9));
        m_memoryAxis->applyNiceNumbers(); // round ticks at the new count
        m_chart->legend()->setVisible(m_chartView->height() > int(260 * zoom));
    }
    return QWidget::eventFilter(watched, event);
}

void WhatIfView::foldIfShort()
{
    if (!m_foldPending || !isVisible())
        return; // a hidden tab's layout is not done: its heights say nothing yet
    m_foldPending = false;
    if (m_results->height() < 3 * m_chartView->minimumHeight())
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
    arrangeFields(width() >= 2 * 34 * fontMetrics().averageCharWidth());
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
    m_results->setCurrentWidget(table ? static_cast<QWidget *>(m_table) : m_chartView);
}

void WhatIfView::focusFields()
{
    m_fieldsToggle->setChecked(true);
    m_ranks->setFocus();
    m_ranks->selectAll();
}

bool WhatIfView::isRunning() const
{
    return m_sweep->isRunning();
}

int WhatIfView::expectedSettings() const
{
    const bool bandwidth = m_bandwidth->isEnabled() && !m_bandwidth->text().trimmed().isEmpty();
    // Long lists must not overflow: the sweep refuses such a grid with a sentence of its own.
    qint64 settings = 1;
    for (const int count :
         {countOf(m_ranks->text()), countOf(m_layers->text()), countOf(m_batches->text()),
          bandwidth ? countOf(m_bandwidth->text()) : 1, countOf(m_tensor->text()),
          countOf(m_pipeline->text())})
        settings = std::min<qint64>(settings * count, std::numeric_limits<int>::max());
    return int(settings);
}

void WhatIfView::runSweep()
{
    const lessons::Lesson *lesson = m_session.lesson();
    if (!lesson || lesson->isTorch() || m_sweep->isRunning() || !m_source)
        return;
    std::optional<SweepSpec> spec = m_source(); // saves the code
    if (!spec)
        return;
    spec->ranks = m_ranks->text();
    spec->layers = m_layers->text();
    spec->batches = m_batches->text();
    spec->batchesPerRank = m_batchesKind->currentIndex() == 1;
    spec->bandwidth = m_bandwidth->isEnabled() ? m_bandwidth->text() : QString();
    spec->tensor = m_tensor->text();
    spec->pipeline = m_pipeline->text();
    spec->cost =
        m_cost->currentText() == QStringLiteral("notebook") ? QString() : m_cost->currentText();
    const bool compare = m_compare->isVisibleTo(this) && m_compare->isChecked();
    if (!compare)
        spec->compared.clear();
    // The sweep names the learner's program as it is given: the file's name in its folder.
    m_ownProgram =
        spec->compared.empty() ? std::string() : QFileInfo(spec->codePath).fileName().toStdString();
    m_table->setColumnHidden(Program, spec->compared.empty());
    if (compare)
        m_results->setCurrentWidget(m_bubbles);
    m_rows.clear();
    m_table->setRowCount(0);
    m_current = -1;
    m_bubbles->setRows(m_rows);
    m_expected = expectedSettings() * (1 + int(spec->compared.size()));
    m_progress->setRange(0, m_expected);
    m_progress->setValue(0);
    setStatus(tr("Running %n setting(s) in the background…", nullptr, m_expected));
    m_chart->setProperty("cost", m_cost->currentText());
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
    const int index = int(m_rows.size()) - 1;
    // The table keeps the grid's order whatever order the rows finish in.
    int at = 0;
    while (at < m_table->rowCount() &&
           m_rows[std::size_t(m_table->item(at, Ranks)->data(Qt::UserRole).toInt())].index <
               row.index)
        ++at;
    m_table->insertRow(at);
    setRowCells(at, row);
    m_table->item(at, Ranks)->setData(Qt::UserRole, index);
    m_progress->setValue(int(m_rows.size()));
    m_bubbles->setRows(m_rows);
    findCurrent();
    replot();
}

void WhatIfView::setRowCells(int tableRow, const io::SweepRow &row)
{
    QString memory = row.peakMemory ? formatMemory(*row.peakMemory) : QStringLiteral("-");
    if (row.overDeviceMemory())
        memory = tr("%1, over %2").arg(memory, formatMemory(*row.deviceMemory));
    const QString cells[Columns] = {
        QString::number(row.point.ranks),
        QString::number(row.point.layers),
        QString::number(row.point.batches),
        row.point.bandwidth > 0 ? QString::number(row.point.bandwidth) : QStringLiteral("-"),
        QStringLiteral("%1 x %2").arg(row.point.tensor).arg(row.point.pipeline),
        sweepResultText(row, m_session.lesson(),
                        m_chart->property("cost").toString().toStdString()),
        timeText(row, row.timesteps),
        memory,
        row.idleShare ? percent(*row.idleShare) : QStringLiteral("-"),
        QString::fromStdString(row.error),
        isOwnRow(row) ? tr("your code") : programTitle(row.program)};
    for (int c = 0; c < Columns; ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        if (c != Result && c != Error && c != Program)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (c == Error)
            item->setToolTip(cells[c]);
        if (c == Memory && row.overDeviceMemory()) {
            item->setForeground(kOverMemory);
            item->setToolTip(
                tr("A rank's peak is above the device's memory: this layout does "
                   "not fit."));
        }
        m_table->setItem(tableRow, c, item);
    }
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
    const std::string cost = m_chart->property("cost").toString().toStdString();
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

void WhatIfView::updateBandwidthField()
{
    const bool real = isRealScale(m_cost->currentText());
    m_bandwidth->setEnabled(real);
    m_bandwidth->setPlaceholderText(real ? tr("the cost model's own")
                                         : tr("needs a real-scale cost model"));
}

// The row of the run on screen: its setting, under the cost model the sweep ran.
void WhatIfView::findCurrent()
{
    m_current = -1;
    const TracePtr &trace = m_session.trace();
    if (!trace || m_chart->property("cost").toString().toStdString() != trace->config.cost.name)
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
    std::int64_t largestMemory = 1;
    double largestTime = 0;
    bool seconds = false;
    for (const io::SweepRow &row : m_rows)
        if (row.finished() && row.peakMemory) {
            largestMemory = std::max(largestMemory, *row.peakMemory);
            largestTime = std::max(largestTime, io::sweepTimeValue(row, *row.timesteps));
            seconds = row.seconds;
        }
    const bool gigabytes = largestMemory >= 1'000'000'000;
    const double unit = gigabytes ? 1e9 : 1e6;
    const auto x = [unit](const io::SweepRow &row) {
        return double(*row.peakMemory) / unit;
    };
    const auto y = [](const io::SweepRow &row) {
        return io::sweepTimeValue(row, *row.timesteps);
    };
    QList<QPointF> points;
    m_pointRows.clear();
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].finished() && m_rows[i].peakMemory) {
            points.append(QPointF(x(m_rows[i]), y(m_rows[i])));
            m_pointRows.push_back(int(i));
        }
    m_points->replace(points);
    QList<QPointF> over;
    std::int64_t device = 0;
    for (const io::SweepRow &row : m_rows) {
        if (row.finished() && row.overDeviceMemory())
            over.append(QPointF(x(row), y(row)));
        if (row.deviceMemory)
            device = *row.deviceMemory;
    }
    m_overMemory->replace(over);
    // Their legend entries only where a device's memory is known.
    m_chart->legend()->markers(m_overMemory).front()->setVisible(!over.isEmpty());
    m_chart->legend()->markers(m_deviceLine).front()->setVisible(device > 0);
    // The front from the smallest to the fastest: a staircase down and to the right.
    const std::vector<bool> front = io::paretoFront(m_rows);
    std::vector<std::size_t> onFront;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (front[i])
            onFront.push_back(i);
    std::sort(onFront.begin(), onFront.end(), [this](std::size_t a, std::size_t b) {
        return *m_rows[a].peakMemory < *m_rows[b].peakMemory;
    });
    QList<QPointF> line;
    for (std::size_t i : onFront)
        line.append(QPointF(x(m_rows[i]), y(m_rows[i])));
    m_frontLine->replace(line);
    m_frontPoints->replace(line);
    m_currentPoint->clear();
    if (m_current >= 0)
        m_currentPoint->append(x(m_rows[std::size_t(m_current)]),
                               y(m_rows[std::size_t(m_current)]));
    m_memoryAxis->setTitleText(gigabytes ? tr("peak memory of a rank, GB")
                                         : tr("peak memory of a rank, MB"));
    m_timeAxis->setTitleText(seconds ? tr("Timesteps, s") : tr("Timesteps"));
    // No finished setting yet: plain axes, not a megabyte's millionth.
    m_memoryAxis->setRange(0, points.isEmpty() ? 1.0 : double(largestMemory) / unit * 1.1);
    // The device's memory as a line where the points' axis reaches it.
    m_deviceLine->clear();
    m_deviceLine->setName(device > 0 ? tr("device memory, %1").arg(formatMemory(device))
                                     : QString());
    if (device > 0 && !points.isEmpty() && double(device) <= double(largestMemory) * 1.1) {
        m_deviceLine->append(double(device) / unit, 0);
        m_deviceLine->append(double(device) / unit, largestTime > 0 ? largestTime * 1.1 : 1);
    }
    m_timeAxis->setRange(0, largestTime > 0 ? largestTime * 1.1 : 1);
    m_memoryAxis->applyNiceNumbers();
    m_timeAxis->applyNiceNumbers();
    m_memoryAxis->setLabelFormat(QStringLiteral("%.3g"));
    m_timeAxis->setLabelFormat(QStringLiteral("%.3g"));
    m_chart->setTitle(m_rows.empty() ? tr("Run the sweep to see each setting here") : QString());
    m_table->setColumnHidden(
        Bandwidth, std::none_of(m_rows.begin(), m_rows.end(),
                                [](const io::SweepRow &r) { return r.point.bandwidth > 0; }));
    m_table->setColumnHidden(Layout,
                             std::none_of(m_rows.begin(), m_rows.end(), [](const io::SweepRow &r) {
                                 return r.point.tensor > 1 || r.point.pipeline > 1;
                             }));
    m_table->horizontalHeaderItem(Time)->setText(seconds ? tr("Timesteps, s") : tr("Timesteps"));
    placePointLabels();
}

void WhatIfView::placePointLabels()
{
    m_elided.clear();
    std::vector<io::SweepPoint> settings;
    for (const int row : m_pointRows)
        settings.push_back(m_rows[std::size_t(row)].point);
    const QStringList texts = sweepPointLabels(settings);
    // The front's points and the run on screen first: they keep their labels where space is short.
    const std::vector<bool> front = io::paretoFront(m_rows);
    std::vector<std::size_t> order(m_pointRows.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto rank = [&](std::size_t i) {
            const int row = m_pointRows[i];
            return row == m_current ? 0 : front[std::size_t(row)] ? 1 : 2;
        };
        return rank(a) < rank(b);
    });
    QFont font = m_memoryAxis->labelsFont();
    const QFontMetricsF metrics(font);
    std::vector<QPointF> points;
    std::vector<QSizeF> sizes;
    std::vector<double> radii; // the ring of the run on screen, the front's, or the dot
    for (const std::size_t i : order) {
        const int row = m_pointRows[i];
        radii.push_back((row == m_current          ? m_currentPoint->markerSize()
                         : front[std::size_t(row)] ? m_frontPoints->markerSize()
                                                   : m_points->markerSize()) /
                        2.0);
        points.push_back(m_chart->mapToPosition(m_points->at(int(i)), m_points));
        sizes.push_back(
            texts[qsizetype(i)].isEmpty()
                ? QSizeF()
                : QSizeF(metrics.horizontalAdvance(texts[qsizetype(i)]) + 2, metrics.height()));
    }
    const auto placed = gui::placePointLabels(points, sizes, m_chart->plotArea(), radii);
    while (m_pointLabels.size() < placed.size()) {
        m_pointLabels.push_back(new QGraphicsSimpleTextItem(m_chart));
        m_leaders.push_back(new QGraphicsLineItem(m_chart));
    }
    for (std::size_t k = 0; k < m_pointLabels.size(); ++k) {
        QGraphicsSimpleTextItem *label = m_pointLabels[k];
        QGraphicsLineItem *leader = m_leaders[k];
        const QString text = k < order.size() ? texts[qsizetype(order[k])] : QString();
        if (k >= placed.size() || !placed[k] || text.isEmpty()) {
            if (!text.isEmpty())
                m_elided.note(text); // no clear place: its point says it on hover
            label->hide();
            leader->hide();
            continue;
        }
        // A label moved out of a tight cluster: a line to its point says whose it is.
        const QPointF end = leaderEnd(*placed[k], points[k]);
        const bool far = QLineF(points[k], end).length() > radii[k] + 4.0;
        leader->setLine(QLineF(points[k], end));
        QColor ink = palette().color(QPalette::WindowText); // as the label, lighter
        ink.setAlpha(140);
        leader->setPen(QPen(ink, 1));
        leader->setZValue(4);
        leader->setVisible(far);
        label->setFont(font);
        label->setBrush(palette().color(QPalette::WindowText));
        label->setText(text);
        label->setPos(placed[k]->topLeft() + QPointF(1, 0));
        label->setZValue(5);
        label->show();
    }
}

QList<QPair<QString, QRectF>> WhatIfView::pointLabels() const
{
    QList<QPair<QString, QRectF>> labels;
    for (const QGraphicsSimpleTextItem *label : m_pointLabels)
        if (label->isVisible())
            labels.append({label->text(), label->mapRectToParent(label->boundingRect())});
    return labels;
}

void WhatIfView::applyLook()
{
    const Look look = m_appearance.look();
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * look.zoom);
    m_chart->legend()->setFont(font);
    m_chart->setTitleFont(font);
    for (QValueAxis *axis : {m_memoryAxis, m_timeAxis}) {
        axis->setLabelsFont(font);
        axis->setTitleFont(font);
    }
    const Palette &colors = look.colors();
    m_points->setColor(colors.rank(0));
    m_points->setBorderColor(colors.rank(0).darker(130));
    m_frontLine->setPen(QPen(colors.maximum(), look.scaled(2), Qt::DashLine));
    m_frontPoints->setColor(Qt::transparent);
    m_frontPoints->setBorderColor(colors.maximum());
    m_frontPoints->setPen(QPen(colors.maximum(), look.scaled(2.5)));
    m_currentPoint->setColor(Qt::transparent);
    m_currentPoint->setPen(QPen(palette().color(QPalette::WindowText), look.scaled(3)));
    m_points->setMarkerSize(look.scaled(11));
    m_frontPoints->setMarkerSize(look.scaled(17));
    m_currentPoint->setMarkerSize(look.scaled(26));
    m_overMemory->setMarkerSize(look.scaled(19));
    m_deviceLine->setPen(QPen(kOverMemory, look.scaled(2), Qt::DashDotLine));
    placePointLabels(); // in the new font
}

} // namespace rankstep::gui
