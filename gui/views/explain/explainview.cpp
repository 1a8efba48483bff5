// SPDX-License-Identifier: MIT
#include "explainview.h"

#include "appearance.h"
#include "enginetext.h"
#include "liveobjectsmodel.h"
#include "memorykindchart.h"
#include "memorypagesplit.h"
#include "ranknumbersmodel.h"
#include "ranktimesmodel.h"
#include "runsession.h"
#include "runtexts.h"
#include "timelinetext.h"

#include "core/explain/describe.h"
#include "core/explain/expertload.h"
#include "core/explain/explainsentences.h"
#include "core/explain/formulas.h"
#include "core/explain/memoryexplain.h"
#include "core/explain/timesplit.h"
#include "core/explain/waitexplain.h"
#include "core/lessons/lesson.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>

#include <QComboBox>
#include <QCoroFuture>
#include <QCoroTask>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QListWidget>
#include <QLoggingCategory>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QStringList>
#include <QTabWidget>
#include <QTableView>
#include <QThreadPool>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

Q_LOGGING_CATEGORY(lcExplain, "rankstep.why")

namespace rankstep::gui {
namespace {

// The unit after a time of the run shown: "ms" for a run in milliseconds (a real run, a
// real-scale cost model), none for the puzzle's steps.
QString clockUnit(const RunSession &session)
{
    return session.units() == TraceUnits::Seconds ? QStringLiteral("ms") : QString();
}

// Room beside a number in a table's cell, beyond the style's margins, so that it never touches
// the grid.
constexpr int kDigitRoom = 4;

constexpr int kEventRole = Qt::UserRole + 1;

// On a worker: a rank's waits in words (at 16,384 ranks about a second of passes over every
// event's links, which held the window frozen when made on the GUI thread).
std::vector<ExplainView::ChainLine> waitLines(const core::Trace &trace, int rank)
{
    std::vector<ExplainView::ChainLine> lines;
    for (const explain::Wait &wait : explain::waitsOf(trace, rank))
        lines.push_back({QString::fromStdString(explain::describeWait(trace, wait, engineWords())),
                         wait.event});
    return lines;
}

// On a worker: the critical path's operations in words (a pass over every event's links).
std::vector<ExplainView::ChainLine> pathLines(const core::Trace &trace, const QString &unit)
{
    std::vector<ExplainView::ChainLine> lines;
    for (const std::size_t event : explain::criticalPath(trace)) {
        const core::Event &e = trace.events[event];
        lines.push_back(
            {ExplainView::tr("t %1–%2  rank %3  %4")
                 .arg(QString::fromStdString(e.start.toString()), clockText(e.end(), unit))
                 .arg(e.rank)
                 .arg(QString::fromStdString(explain::describeEvent(e, engineWords()))),
             event});
    }
    return lines;
}

} // namespace

// A page that scrolls when its pane is narrower than its contents: the pane may never force the
// window wider than the screen (LayoutTest).
QWidget *scrollable(QWidget *page)
{
    auto *area = new QScrollArea;
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(page);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the page takes the pane's width
    return area;
}

ExplainView::ExplainView(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent), m_session(session), m_appearance(appearance)
{
    auto *tabs = new QTabWidget;
    m_pages = tabs;
    tabs->addTab(buildMemoryPage(), tr("What fills memory")); // scrolls its top part only
    tabs->addTab(scrollable(buildTimePage()), tr("Where time goes"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs);
    connect(tabs, &QTabWidget::currentChanged, this, [this](int page) {
        if (page == 1 && m_chainStale && isVisible()) {
            refresh();
            if (m_chainStale)
                fillChain();
        }
        if (page == 0 && m_chartStale && isVisible()) {
            refresh();
            if (m_chartStale)
                fillChart();
        }
    });
    connect(&m_session, &RunSession::traceChanged, this, &ExplainView::onTraceChanged);
    connect(&m_session, &RunSession::lessonChanged, this, &ExplainView::onTraceChanged);
    connect(&m_session.stepper(), &StepController::cursorChanged, this,
            &ExplainView::onCursorChanged);
    connect(&m_session, &RunSession::selectedRankChanged, this, [this](int rank) {
        if (rank < 0)
            return;
        m_pendingRank = rank;
        if (isVisible())
            refresh();
    });
    onTraceChanged();
}

// The explanations cost passes over the whole trace (a million events: about half a second), so
// they are made when the tab is on screen, not while the window shows a new run (the
// work after a run kept a big run's window frozen).
void ExplainView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
    if (m_chainStale && m_pages->currentIndex() == 1)
        fillChain();
    if (m_chartStale && m_pages->currentIndex() == 0)
        fillChart();
}

void ExplainView::refresh()
{
    if (m_traceStale) {
        m_traceStale = false;
        explainTrace();
    }
    if (m_pendingRank) {
        const int rank = *std::exchange(m_pendingRank, std::nullopt);
        showRank(rank);
    }
    if (m_cursorStale) {
        m_cursorStale = false;
        updateCursor();
    }
}

ExplainView::~ExplainView() = default;

QThreadPool &ExplainView::workers()
{
    static QThreadPool pool;
    return pool;
}

QWidget *ExplainView::buildMemoryPage()
{
    auto *page = new QWidget;
    m_peak = new QLabel;
    m_peak->setWordWrap(true);
    m_peak->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The ranks' numbers made as shown, the box as wide as the largest number without measuring
    // every row, the popup's rows of one height: at 16,384 ranks the items and their measuring
    // held the GUI thread on the tab's first show.
    m_rankNumbers = new RankNumbersModel(this);
    m_rank = new QComboBox;
    m_rank->setModel(m_rankNumbers);
    m_rank->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_rank->setMinimumContentsLength(1);
    if (auto *list = qobject_cast<QListView *>(m_rank->view()))
        list->setUniformItemSizes(true);
    auto *peakButton = new QPushButton(tr("Go to the peak"));
    m_peakButton = peakButton;
    connect(peakButton, &QPushButton::clicked, this, &ExplainView::showPeak);
    connect(m_rank, &QComboBox::activated, this, [this](int index) { showRank(index); });
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Rank")));
    row->addWidget(m_rank);
    row->addWidget(peakButton);
    row->addStretch(1);
    m_chart = new MemoryKindChart;
    m_objects = new LiveObjectsModel(this);
    m_objectTable = new QTableView;
    m_objectTable->setModel(m_objects);
    m_objectTable->verticalHeader()->hide();
    m_objectTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_objectTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_objectTable->setMinimumHeight(40); // a short pane shrinks the table with the chart
    m_objectTable->setToolTip(
        tr("What the rank holds at the cursor; double-click a row to go to "
           "the line that stored it."));
    connect(m_objectTable, &QTableView::activated, this, [this](const QModelIndex &index) {
        if (const int line = index.data(LiveObjectsModel::LineRole).toInt(); line > 0)
            Q_EMIT lineActivated(line);
    });
    auto *chartPane = new QWidget;
    auto *chartLayout = new QVBoxLayout(chartPane);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    // The kinds' names above the chart: a short pane shrinks the chart, never scrolls them away.
    auto *legend = new QLabel;
    legend->setWordWrap(true);
    // The kinds as the state panels draw them, in the look's colors, swatches as tall as the text.
    const auto recolor = [this, legend] {
        const Palette &colors = m_appearance.look().colors();
        m_chart->setColors(colors);
        legend->setText(
            MemoryKindChart::legendText(colors, std::max(8, legend->fontMetrics().ascent())));
    };
    recolor();
    connect(&m_appearance, &Appearance::lookChanged, legend, recolor);
    chartLayout->addWidget(legend);
    chartLayout->addWidget(m_chart, 1);
    auto *split = new MemoryPageSplitter(chartPane, legend, m_chart, m_objectTable);
    m_memorySplit = split;
    // Where the page is too short for the chart and the table, the table stays and the chart
    // folds; this unfolds it.
    m_chartButton = new QToolButton;
    m_chartButton->setText(tr("Over time"));
    m_chartButton->setCheckable(true);
    m_chartButton->setToolTip(
        tr("Show the rank's memory by kind over time above the table (the "
           "memory chart's By kind button shows it below too)."));
    connect(m_chartButton, &QToolButton::clicked, split, &MemoryPageSplitter::setChartShown);
    connect(split, &MemoryPageSplitter::chartShownChanged, m_chartButton, &QToolButton::setChecked);
    // The rank's row stays in view; the sentence scrolls within two lines: at 1500x940 it took a
    // quarter of the page and scrolled the row away, and the table showed one row.
    m_sentence = scrollable(m_peak);
    fitSentence();
    // Beside the sentence, not in the rank's row: that row sets the page's least width (at
    // 1280x800 a wider one took its width from the lessons' list).
    auto *sentenceRow = new QHBoxLayout;
    sentenceRow->addWidget(m_sentence, 1);
    sentenceRow->addWidget(m_chartButton, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(page);
    layout->addLayout(row);
    layout->addLayout(sentenceRow);
    layout->addWidget(split, 1);
    return page;
}

// Two lines of the sentence at the font of the moment (presenting zooms it).
void ExplainView::fitSentence()
{
    m_sentence->setMaximumHeight(2 * m_peak->fontMetrics().lineSpacing() + 2 * m_peak->margin());
}

void ExplainView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        fitSentence();
        fitRankColumns();
    }
}

QWidget *ExplainView::buildTimePage()
{
    auto *page = new QWidget;
    m_rankTimes = new RankTimesModel(this);
    m_ranks = new QTableView;
    m_ranks->setObjectName(QStringLiteral("rankTimes"));
    m_ranks->setModel(m_rankTimes);
    m_ranks->setSortingEnabled(true);
    // In the ranks' order, with no sort arrow, until a heading is clicked: the arrow takes room.
    m_ranks->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_ranks->verticalHeader()->hide();
    // Each column as wide as it needs (fitRankColumns), Communication the rest of the pane.
    m_ranks->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_ranks->horizontalHeader()->setStretchLastSection(true);
    connect(m_ranks->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            &ExplainView::fitRankColumns);
    m_formula = new QLabel;
    m_formula->setWordWrap(true);
    m_split = new QLabel;
    m_split->setObjectName(QStringLiteral("timeSplit"));
    m_split->setTextFormat(Qt::RichText);
    // Its names wrap ("tensor-parallel / communication"): the page scrolls only down, and at
    // 1280x800 the table's one-line width cut its shares and the ranks' table beside the pane.
    m_split->setWordWrap(true);
    m_split->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_split->setToolTip(
        tr("A rank's mean time, split the way large training jobs are read: computing, "
           "communicating within each parallelism's groups, and waiting (the bubble)."));
    m_experts = new QLabel;
    m_experts->setObjectName(QStringLiteral("expertLoad"));
    m_experts->setTextFormat(Qt::RichText);
    m_experts->setWordWrap(true); // as the split above
    m_experts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_experts->setToolTip(
        tr("How many tokens the router sends each expert, and how long the ranks holding it "
           "wait: the ranks of an expert with fewer tokens wait in the all-to-alls for the "
           "busiest expert's."));
    m_pathButton = new QPushButton(tr("Show the critical path"));
    m_pathButton->setCheckable(true);
    m_pathButton->setToolTip(
        tr("The chain of operations, across ranks, that sets the run's end "
           "time: make any of them shorter and the run ends sooner."));
    connect(m_pathButton, &QPushButton::toggled, this, &ExplainView::showCriticalPath);
    m_chain = new QListWidget;
    m_chain->setWordWrap(true);
    m_chain->setAlternatingRowColors(true);
    connect(m_chain, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        const int event = item->data(kEventRole).toInt();
        m_session.setSelectedEvent(std::size_t(event));
        m_session.stepper().toEvent(event);
    });
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(m_split);
    m_experts->hide(); // shown for a run with experts
    layout->addWidget(m_experts);
    layout->addWidget(m_ranks, 2);
    layout->addWidget(m_formula);
    layout->addWidget(m_pathButton);
    layout->addWidget(m_chain, 3);
    return page;
}

int ExplainView::shownRank() const
{
    ensureFresh(); // asked while hidden (tests, scripts)
    return m_rank->currentIndex();
}

QString ExplainView::peakText() const
{
    ensureFresh();
    waitForTexts();
    return m_peak->text();
}

QString ExplainView::formulaText() const
{
    ensureFresh();
    waitForTexts();
    return m_formula->text();
}

void ExplainView::showTimePage(bool time)
{
    m_pages->setCurrentIndex(time ? 1 : 0);
}

QString ExplainView::expertLoadText() const
{
    ensureFresh();
    waitForTexts();
    return m_experts->text();
}

QString ExplainView::timeSplitText() const
{
    ensureFresh();
    waitForTexts();
    return m_split->text();
}

void ExplainView::onTraceChanged()
{
    dropWaits(); // of the run before, even while hidden
    ++m_textsGeneration;
    m_textsPending = false;
    ++m_chartGeneration;
    m_chartPending = false;
    m_chainStale = true;
    m_traceStale = true;
    m_cursorStale = true;
    m_pendingRank.reset();
    if (isVisible())
        refresh();
}

void ExplainView::explainTrace()
{
    ++m_explained;
    const TracePtr &trace = m_session.trace();
    m_peakEvent.reset();
    const int ranks = trace ? trace->config.ranks : 0;
    m_rankNumbers->setRanks(ranks);
    m_rank->setMinimumContentsLength(int(QString::number(std::max(0, ranks - 1)).size()) + 1);
    fillTexts();
    fillRankTable();
    showRank(trace ? trace->figures.maxMemoryRank : 0);
}

// The run's texts on a worker (the peak's event is found in a pass over every event); the
// sentence says so meanwhile, and a result for a run before the current one is dropped.
void ExplainView::fillTexts()
{
    ++m_textsGeneration;
    const TracePtr &trace = m_session.trace();
    std::optional<lessons::Parallelism> parallelism;
    if (const lessons::Lesson *lesson = m_session.lesson())
        parallelism = lesson->parallelism;
    const std::optional<std::int64_t> target = m_session.memoryTarget();
    if (!trace) {
        showTexts(explainRun(trace, parallelism, target));
        return;
    }
    m_peak->setText(tr("Explaining the run…"));
    m_peakButton->setEnabled(false);
    m_formula->hide(); // the run before's, until the worker's arrive
    m_split->hide();
    m_experts->hide();
    m_textsPending = true;
    m_textsWork = QtConcurrent::run(&workers(), [trace, parallelism, target] {
        return explainRun(trace, parallelism, target);
    });
    receiveTexts(m_textsWork, m_textsGeneration); // reports its own errors; never awaited
}

QCoro::Task<void> ExplainView::receiveTexts(QFuture<RunTexts> work, std::uint64_t generation)
{
    QPointer<ExplainView> self(this);
    try {
        const RunTexts texts = co_await work;
        if (self && m_textsPending && generation == m_textsGeneration)
            showTexts(texts);
    } catch (const std::exception &e) {
        qCWarning(lcExplain) << "explaining the run failed:" << e.what();
        if (self && m_textsPending && generation == m_textsGeneration)
            showTexts({});
    }
}

// Asked now (a script, a test, a click on "Go to the peak"): the worker's texts, once made.
void ExplainView::waitForTexts() const
{
    if (!m_textsPending)
        return;
    auto *self = const_cast<ExplainView *>(this);
    RunTexts texts;
    try {
        texts = self->m_textsWork.result();
    } catch (const std::exception &e) {
        qCWarning(lcExplain) << "explaining the run failed:" << e.what();
    }
    self->showTexts(texts);
}

void ExplainView::finishWork()
{
    waitForTexts();
    waitForChart();
    if (m_waitsPending) {
        m_waitsWork.waitForFinished();
        showWaits(m_waitsWork.result(), m_waitsRank);
    }
}

void ExplainView::showTexts(const RunTexts &texts)
{
    m_textsPending = false;
    m_peakEvent = texts.peakEvent;
    m_peakButton->setEnabled(true);
    m_peak->setText(texts.peak);
    m_formula->setText(texts.formula);
    m_formula->setVisible(!texts.formula.isEmpty());
    m_split->setText(texts.split);
    m_split->setVisible(!texts.split.isEmpty());
    m_experts->setText(texts.experts);
    m_experts->setVisible(!texts.experts.isEmpty());
}

void ExplainView::showRank(int rank)
{
    if (m_traceStale) { // the new trace first; it shows the peak's rank, then this one
        m_pendingRank = rank;
        refresh();
        return;
    }
    const TracePtr &trace = m_session.trace();
    if (!trace || rank < 0 || rank >= trace->config.ranks) {
        m_chart->setSamples({}, core::SimTime(), {});
        m_chartStale = false;
        ++m_chartGeneration;
        m_chartPending = false;
        m_objects->setObjects({});
        dropWaits();
        m_chain->clear();
        return;
    }
    m_rank->setCurrentIndex(rank);
    chartChanged();
    onCursorChanged();
    chainChanged();
}

// A rank's memory by kind costs a pass over every storage change (at 16,384 ranks a second on a
// loaded machine): made when the page "What fills memory" shows it, not for every rank the page
// "Where time goes" shows (a hidden view, asked by a script or a test, makes it at once).
void ExplainView::chartChanged()
{
    m_chartStale = true;
    if (!isVisible() || m_pages->currentIndex() == 0)
        fillChart();
}

const MemoryKindChart &ExplainView::chart() const
{
    ensureFresh();
    if (m_chartStale)
        const_cast<ExplainView *>(this)->fillChart();
    waitForChart();
    return *m_chart;
}

// On a worker, as the waits: the chart stands empty meanwhile, and a result for another rank or
// run is dropped by its generation.
void ExplainView::fillChart()
{
    m_chartStale = false;
    ++m_chartGeneration;
    m_chartPending = false;
    const TracePtr &trace = m_session.trace();
    const int rank = m_rank->currentIndex();
    m_chart->setSamples({}, trace ? trace->figures.endTime : core::SimTime(), {});
    if (!trace || rank < 0 || rank >= trace->config.ranks)
        return;
    std::vector<MemoryKindChart::Reference> references;
    const lessons::Lesson *lesson = m_session.lesson();
    if (const std::optional<std::int64_t> target = m_session.memoryTarget())
        references.push_back({tr("target"), *target});
    if (lesson)
        if (const int sharers = explain::modelSharers(lesson->parallelism, trace->config.ranks);
            sharers > 0)
            references.push_back({sharers == 1 ? tr("the whole model's state")
                                               : tr("the model's state / %1").arg(sharers),
                                  explain::modelStateBytes(trace->config, sharers)});
    m_chart->setTimeUnit(timeUnitName(m_session.units()));
    m_chartReferences = std::move(references);
    m_chartPending = true;
    m_chartWork = QtConcurrent::run(&workers(),
                                    [trace, rank] { return explain::memoryByKind(*trace, rank); });
    receiveChart(m_chartWork, m_chartGeneration); // reports its own errors; never awaited
}

QCoro::Task<void> ExplainView::receiveChart(QFuture<std::vector<explain::KindSample>> work,
                                            std::uint64_t generation)
{
    QPointer<ExplainView> self(this);
    try {
        const std::vector<explain::KindSample> samples = co_await work;
        if (self && m_chartPending && generation == m_chartGeneration)
            showChart(samples);
    } catch (const std::exception &e) {
        qCWarning(lcExplain) << "a rank's memory by kind failed:" << e.what();
        if (self && m_chartPending && generation == m_chartGeneration)
            showChart({});
    }
}

void ExplainView::waitForChart() const
{
    if (!m_chartPending)
        return;
    auto *self = const_cast<ExplainView *>(this);
    std::vector<explain::KindSample> samples;
    try {
        samples = self->m_chartWork.result();
    } catch (const std::exception &e) {
        qCWarning(lcExplain) << "a rank's memory by kind failed:" << e.what();
    }
    self->showChart(samples);
}

void ExplainView::showChart(const std::vector<explain::KindSample> &samples)
{
    m_chartPending = false;
    const TracePtr &trace = m_session.trace();
    m_chart->setSamples(samples, trace ? trace->figures.endTime : core::SimTime(),
                        std::exchange(m_chartReferences, {}));
}

// A rank's waits with their chains cost a pass over every event's links (at 16,384 ranks about a
// second and a third of a gigabyte for the while): they are made when the page "Where time goes"
// shows them, not for every rank the memory page shows, and on a worker (fillChain).
void ExplainView::chainChanged()
{
    dropWaits();
    m_chainStale = true;
    if (isVisible() && m_pages->currentIndex() == 1)
        fillChain();
}

QListWidget *ExplainView::chainList() const
{
    auto *self = const_cast<ExplainView *>(this);
    ensureFresh();
    if (m_chainStale)
        self->fillChain();
    if (m_waitsPending) { // asked now (a script, a test): the worker's result, once made
        self->m_waitsWork.waitForFinished();
        self->showWaits(self->m_waitsWork.result(), m_waitsRank);
    }
    return m_chain;
}

void ExplainView::onCursorChanged()
{
    m_cursorStale = true;
    if (isVisible())
        refresh();
}

void ExplainView::updateCursor()
{
    const TracePtr &trace = m_session.trace();
    const int rank = shownRank();
    // The session says "new trace" before its stepper holds it: until then the stepper's state
    // belongs to the old trace (its rank count, its changes), so wait for its cursorChanged.
    if (!trace || rank < 0 || !m_session.stepper().cursor() ||
        m_session.stepper().trace() != trace) {
        m_objects->setObjects({});
        m_chart->setCursorTime(std::nullopt);
        return;
    }
    m_chart->setCursorTime(m_session.stepper().cursorTime());
    // The objects the state view shows for the rank at the cursor, largest first.
    const replay::RunState &state = m_session.stepper().state();
    std::vector<explain::LiveObject> objects;
    for (const auto &map : state.ranks[std::size_t(rank)].maps)
        for (const replay::MapEntry &entry : map) {
            const std::size_t change = trace->changes.indexOf(entry.change);
            objects.push_back({entry.change->map, entry.key(), entry.object(),
                               core::memoryOf(entry.object(), trace->config.cost.sizes),
                               entry.change->line, explain::changeTime(*trace, change), change});
        }
    // What is not usable yet first (an attention mid-ring, a partial sum), then largest first: in
    // a short pane those rows are the ones in view.
    std::stable_sort(objects.begin(), objects.end(), [](const auto &a, const auto &b) {
        const bool first = explain::isUnfinished(a.object);
        return first != explain::isUnfinished(b.object) ? first : a.bytes > b.bytes;
    });
    m_objects->setObjects(std::move(objects), std::max(1, trace->config.layout.context));
}

void ExplainView::showPeak()
{
    refresh();
    waitForTexts();
    if (!m_peakEvent)
        return;
    const TracePtr &trace = m_session.trace();
    m_session.setSelectedRank(trace->events[*m_peakEvent].rank);
    // The peak is the memory when the call was made: the cursor just before that event.
    m_session.stepper().toEvent(int(*m_peakEvent));
    showRank(trace->events[*m_peakEvent].rank);
}

void ExplainView::showCriticalPath(bool show)
{
    refresh();
    m_criticalPath = show;
    m_pathButton->setChecked(show);
    if (!show)
        m_session.clearHighlight();
    fillChain(); // the path, on the timeline too, once made (showWaits)
}

void ExplainView::fillRankTable()
{
    m_rankTimes->setTrace(m_session.trace(), clockUnit(m_session));
    fitRankColumns();
}

// Each column as wide as its widest text, its heading or its largest value, whatever rows are in
// view (fitted to the rows about those shown, the rank's number read "10…" from rank 10000 up
// at 16,384 ranks), the sorted one with room for its arrow; Communication, last, stretches to
// the pane's edge. At 1280x800 Busy and Idle shared what that heading left them, and read "35…".
void ExplainView::fitRankColumns()
{
    QHeaderView *header = m_ranks->horizontalHeader();
    const int cellMargins =
        2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_ranks) + 1) + kDigitRoom;
    const int headingMargins = 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    for (int column = 0; column < RankTimesModel::ColumnCount; ++column) {
        const QString heading = m_rankTimes->headerData(column, Qt::Horizontal).toString();
        int width = std::max(
            m_ranks->fontMetrics().horizontalAdvance(m_rankTimes->widestText(column)) + cellMargins,
            header->fontMetrics().horizontalAdvance(heading) + headingMargins);
        if (header->isSortIndicatorShown() && header->sortIndicatorSection() == column)
            width = std::max(width, header->sectionSizeHint(column));
        header->resizeSection(column, width);
    }
}

void ExplainView::fillChain()
{
    m_chainStale = false;
    dropWaits();
    m_chain->clear();
    const TracePtr &trace = m_session.trace();
    if (!trace)
        return;
    if (m_criticalPath) { // a pass over every event's links too
        auto *working = new QListWidgetItem(tr("Finding the critical path…"), m_chain);
        working->setFlags(Qt::NoItemFlags);
        m_waitsRank = -1;
        m_waitsPending = true;
        m_waitsWork = QtConcurrent::run(
            &workers(), [trace, unit = clockUnit(m_session)] { return pathLines(*trace, unit); });
        listWaits(m_waitsWork, m_chainGeneration); // reports its own errors; never awaited
        return;
    }
    // The rank's waits on a worker; the list says so meanwhile, and another rank or run drops
    // the result (the generation).
    const int rank = shownRank();
    auto *working = new QListWidgetItem(tr("Finding where rank %1 waited…").arg(rank), m_chain);
    working->setFlags(Qt::NoItemFlags);
    m_waitsRank = rank;
    m_waitsPending = true;
    m_waitsWork = QtConcurrent::run(&workers(), [trace, rank, checkpoint = m_waitsCheckpoint] {
        if (checkpoint)
            checkpoint(rank);
        return waitLines(*trace, rank);
    });
    listWaits(m_waitsWork, m_chainGeneration); // reports its own errors; never awaited
}

QCoro::Task<void> ExplainView::listWaits(QFuture<std::vector<ChainLine>> work,
                                         std::uint64_t generation)
{
    QPointer<ExplainView> self(this);
    try {
        const std::vector<ChainLine> lines = co_await work;
        if (self && m_waitsPending && generation == m_chainGeneration)
            showWaits(lines, m_waitsRank);
    } catch (const std::exception &e) {
        qCWarning(lcExplain) << "listing a rank's waits failed:" << e.what();
        if (self && m_waitsPending && generation == m_chainGeneration) {
            m_waitsPending = false;
            m_chain->clear();
        }
    }
}

// What a worker still makes is for a list before the next one: its result is dropped when it
// arrives (the generation), and the worker runs on to its end beside.
void ExplainView::dropWaits()
{
    ++m_chainGeneration;
    m_waitsPending = false;
}

void ExplainView::showWaits(const std::vector<ChainLine> &lines, int rank)
{
    m_waitsPending = false;
    m_chain->clear();
    for (const ChainLine &line : lines) {
        auto *item = new QListWidgetItem(line.text, m_chain);
        item->setData(kEventRole, int(line.event));
    }
    if (rank < 0) { // the critical path, outlined on the timeline too
        showPathOnTimeline(lines);
        return;
    }
    if (m_chain->count() == 0)
        m_chain->addItem(tr("Rank %1 never waited: it was busy from its first operation to its "
                            "last.")
                             .arg(rank));
}

void ExplainView::showPathOnTimeline(const std::vector<ChainLine> &lines)
{
    const TracePtr &trace = m_session.trace();
    if (!m_criticalPath || !trace)
        return;
    std::vector<std::size_t> path;
    path.reserve(lines.size());
    for (const ChainLine &line : lines)
        path.push_back(line.event);
    const QString sentence =
        tr("The critical path: %1 operations, across the ranks, from t 0 to t %2 set the run's "
           "end time; making any of them shorter ends the run sooner.")
            .arg(path.size())
            .arg(clockText(trace->figures.endTime, clockUnit(m_session)));
    m_session.setHighlight(std::move(path), sentence);
}

} // namespace rankstep::gui
