// SPDX-License-Identifier: MIT
// The Why tab on the reference GPipe run: the peak in words, the stacked memory by kind, the
// objects at the cursor, busy/idle/communication, the bubble formula, waits and the critical path.
#include "elisions.h"
#include "explainview.h"
#include "guitestsupport.h"
#include "liveobjectsmodel.h"
#include "memorykindchart.h"
#include "memorypagesplit.h"
#include "tabs.h"
#include "tests/gui/support/eventwaits.h"
#include "tests/gui/support/layoutwaits.h"
#include "viewcontext.h"
#include "windowparts.h"

#include "palette.h"
#include "statepainter.h"

#include "core/explain/memoryexplain.h"
#include "core/explain/timesplit.h"
#include "core/io/tracejson.h"

#include <QAbstractItemModelTester>
#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QListWidget>
#include <QRegularExpression>
#include <QSemaphore>
#include <QStandardItemModel>
#include <QStyleOptionViewItem>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QValueAxis>

#include <atomic>

namespace rankstep::gui::testing {
namespace {

class ExplainViewTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_trace = referenceTrace("gpipe");
        ASSERT_TRUE(m_trace);
        m_context.session.setLesson(&builtinLesson(QStringLiteral("gpipe")));
        m_context.session.setTrace(m_trace);
    }

    ViewContext m_context;
    ExplainView m_view{m_context.session, m_context.appearance};
    std::shared_ptr<const core::Trace> m_trace;
};

TEST_F(ExplainViewTest, SaysWhatFillsThePeakAndShowsItsRank)
{
    EXPECT_TRUE(
        m_view.peakText().startsWith(QStringLiteral("Peak 4194304 B on rank 1 at t 30.4: ")))
        << utf8(m_view.peakText());
    EXPECT_EQ(m_view.shownRank(), 1);
    // Stored right after the peak's call, at the same clock, more may stack up than the peak.
    EXPECT_GE(m_view.chart().highestTotal(), 4194304);
}

// The page "What fills memory" shares its height: half each where both fit, the table's least
// rows before the chart's other half, and the table alone where the chart could not draw its axes.
TEST(MemoryPageSplit, TheTableKeepsItsLeastRowsAndTheChartFoldsWhereBothCannotShow)
{
    const auto share = [](int room) {
        return shareMemoryPage({room, 120, 130});
    };
    EXPECT_EQ(share(1000), (QList<int>{500, 500}));
    EXPECT_EQ(share(260), (QList<int>{130, 130}));
    EXPECT_EQ(share(250), (QList<int>{120, 130})); // the chart at its least, the table at its
    EXPECT_EQ(share(240), (QList<int>{0, 240}));   // no chart that draws its axes: the table
    EXPECT_EQ(share(-5), (QList<int>{0, 0}));
}

// Seen at 1920x1080: the Why tab's chart by kind, 115 pixels high, read "..." under every time
// tick and for its axis' title. A short chart leaves out what it cannot draw whole (the times
// are the timeline's below); a tall one draws them.
TEST(MemoryKindChartSize, AShortChartCutsNoTimeLabelNorItsTitle)
{
    const auto trace = referenceTrace("gpipe");
    ASSERT_TRUE(trace);
    MemoryKindChart chart;
    chart.setSamples(explain::memoryByKind(*trace, 1), trace->figures.endTime, {});
    for (const int height : {100, 115, 160, 300}) {
        chart.resize(700, height);
        chart.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
        QCoreApplication::processEvents();
        QStringList cut;
        for (const QGraphicsItem *item : chart.chart()->scene()->items())
            if (const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
                text && text->isVisible() &&
                (text->toPlainText().endsWith(QStringLiteral("...")) ||
                 text->toPlainText().contains(QChar(0x2026))))
                cut << text->toPlainText();
        EXPECT_TRUE(cut.isEmpty()) << height << ": " << utf8(cut.join(u'|'));
    }
    const auto *time = qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_NE(time, nullptr);
    EXPECT_TRUE(time->labelsVisible()) << "300 pixels hold them";
    EXPECT_TRUE(time->isTitleVisible()) << "300 pixels hold it";
}

// A run under a cost model that names its device's memory: the peak's words say whether it fits.
TEST_F(ExplainViewTest, SaysWhetherThePeakFitsTheDevicesMemory)
{
    EXPECT_FALSE(m_view.peakText().contains(QStringLiteral("device"))) << utf8(m_view.peakText());
    auto withDevice = std::make_shared<core::Trace>(*m_trace);
    withDevice->config.cost.deviceMemory = 4'000'000;
    m_context.session.setTrace(withDevice);
    EXPECT_TRUE(m_view.peakText().contains(
        QStringLiteral("\nThe peak is 194304 B (194.3 kB) over the device's memory of 4000000 B "
                       "(4 MB): it does not fit.")))
        << utf8(m_view.peakText());
}

// The chart by kind says its times in the run's unit, as the timeline and the Memory tab do: "ms"
// for a run whose ticks are microseconds (a real-scale cost model); it said "steps" of them.
TEST_F(ExplainViewTest, TheChartByKindSaysTheRunsTimeUnit)
{
    EXPECT_EQ(m_view.chart().timeTitle(), QStringLiteral("time (steps)"));
    auto realScale = std::make_shared<core::Trace>(*m_trace);
    realScale->config.cost.network = core::Network{};
    m_context.session.setTrace(realScale, TraceUnits::Seconds);
    EXPECT_EQ(m_view.chart().timeTitle(), QStringLiteral("time (ms)"));
    m_context.session.setTrace(m_trace);
    EXPECT_EQ(m_view.chart().timeTitle(), QStringLiteral("time (steps)"));
}

// The objects listed at the cursor weigh what the memory figure says at the peak.
TEST_F(ExplainViewTest, AtThePeakTheListedObjectsAddUpToThePeak)
{
    QAbstractItemModelTester tester(const_cast<LiveObjectsModel *>(&m_view.objects()));
    m_view.showPeak();
    EXPECT_EQ(m_context.session.selectedRank(), 1);
    std::int64_t sum = 0;
    for (const auto &object : m_view.objects().objects())
        sum += object.bytes;
    EXPECT_EQ(sum, 4194304);
    EXPECT_EQ(m_view.objects().rowCount(), 20);
}

TEST_F(ExplainViewTest, ThePipelineLessonShowsTheBubbleFormulaBesideTheMeasurement)
{
    EXPECT_TRUE(m_view.formulaText().contains(QStringLiteral("(p-1)/(m+p-1)")))
        << utf8(m_view.formulaText());
}

// The zero-bubble lesson's own run (its golden trace): the Why tab measures its bubble against
// the ideal time beside ZB-H1's formula, not GPipe's.
TEST(ExplainViewPipelines, TheZeroBubbleLessonShowsItsMeasuredBubbleBesideZbH1sFormula)
{
    QFile file(QStringLiteral(RANKSTEP_SOURCE_DIR "/tests/lessons/golden/zero_bubble.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const auto trace = io::traceFromJson(file.readAll().toStdString());
    ASSERT_TRUE(trace) << trace.error().message;
    ViewContext context;
    ExplainView view{context.session, context.appearance};
    context.session.setLesson(&builtinLesson(QStringLiteral("zero_bubble")));
    context.session.setTrace(std::make_shared<const core::Trace>(*trace));
    EXPECT_TRUE(view.formulaText().startsWith(QStringLiteral("Measured bubble 43% of the ideal")))
        << utf8(view.formulaText());
    EXPECT_TRUE(view.formulaText().contains(
        QStringLiteral("zero-bubble (ZB-H1) formula (p-1)(F+B-W)/(m(F+B+W))")))
        << utf8(view.formulaText());
}

// The four_d lesson's own run (its golden trace, tensor 2 x pipeline 4 x data 2): the Why tab
// splits a rank's mean time by parallelism as `explain` does, each part's share beside it; a plain
// run has no split.
TEST(ExplainViewLayouts, ALaidOutRunShowsItsTimeSplitByParallelism)
{
    QFile file(QStringLiteral(RANKSTEP_SOURCE_DIR "/tests/lessons/golden/four_d.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const auto trace = io::traceFromJson(file.readAll().toStdString());
    ASSERT_TRUE(trace) << trace.error().message;
    const auto split = explain::timeSplit(*trace);
    ASSERT_TRUE(split);
    ViewContext context;
    ExplainView view{context.session, context.appearance};
    context.session.setTrace(std::make_shared<const core::Trace>(*trace));
    const QString text = view.timeSplitText();
    core::SimTime whole = split->compute + split->other + split->idle;
    for (const core::SimTime axis : split->axes)
        whole += axis;
    const auto share = [&](core::SimTime part) {
        return QString::number(double(part.ticks()) / double(whole.ticks()) * 100, 'f', 1) +
               QLatin1Char('%');
    };
    for (const QString &part :
         {QStringLiteral("compute"), QStringLiteral("tensor-parallel communication"),
          QStringLiteral("pipeline communication"), QStringLiteral("data-parallel communication"),
          QStringLiteral("bubble (idle)"), share(split->compute), share(split->idle)})
        EXPECT_TRUE(text.contains(part)) << utf8(part) << " in " << utf8(text);

    context.session.setTrace(referenceTrace("ddp"));
    EXPECT_TRUE(view.timeSplitText().isEmpty()) << utf8(view.timeSplitText());
}

// The Why tab's pane at 1280x800 is 280 px wide: the time split's table took 357 px, and the page,
// which scrolls only down, cut its shares to "9", "39" and the ranks' table's last column to "Co".
// Its names now wrap: the page keeps within the pane.
TEST(ExplainViewLayouts, TheTimeSplitKeepsWithinANarrowPane)
{
    QFile file(QStringLiteral(RANKSTEP_SOURCE_DIR "/tests/lessons/golden/four_d.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const auto trace = io::traceFromJson(file.readAll().toStdString());
    ASSERT_TRUE(trace) << trace.error().message;
    ViewContext context;
    ExplainView view{context.session, context.appearance};
    context.session.setTrace(std::make_shared<const core::Trace>(*trace));
    view.showTimePage(true);
    view.resize(280, 330);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_FALSE(view.timeSplitText().isEmpty()); // made on a worker: this waits for it
    auto *split = view.findChild<QLabel *>(QStringLiteral("timeSplit"));
    ASSERT_TRUE(split);
    QWidget *page = split->parentWidget();
    QWidget *viewport = page->parentWidget();
    // The split arrives from a worker after the first layout: laid out again, the page and the
    // split take their wrapped height.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return page->height() >= page->minimumSizeHint().height() &&
                   split->height() >= split->heightForWidth(split->width());
        },
        kSettleTimeoutMs));
    EXPECT_LE(page->width(), viewport->width());
    EXPECT_LE(split->geometry().right(), viewport->width());
    EXPECT_GE(split->height(), split->heightForWidth(split->width()));
}

// At 16,384 ranks the Why tab's time per rank cut the numbers from 10000 up to "10…": its rank
// column was fitted to the thousand rows about those shown.
TEST(ExplainViewLayouts, TheRankColumnHoldsTheLargestRanksNumber)
{
    constexpr int kRanks = 12000;
    auto trace = std::make_shared<core::Trace>();
    trace->config.ranks = kRanks;
    trace->figures.ranks.resize(kRanks);
    ViewContext context;
    ExplainView view{context.session, context.appearance};
    context.session.setTrace(trace);
    view.showTimePage(true);
    view.resize(500, 400);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QTableView *table = view.rankTable();
    ASSERT_EQ(table->model()->rowCount(), kRanks);
    QStyleOptionViewItem option; // as the table's delegate measures a cell
    option.initFrom(table->viewport());
    option.font = table->font();
    option.fontMetrics = table->fontMetrics();
    const QModelIndex last = table->model()->index(kRanks - 1, 0);
    EXPECT_GE(table->columnWidth(0),
              table->itemDelegateForIndex(last)->sizeHint(option, last).width());
}

// The time per rank sorts by a column's header, times by their value ("9.5" before "35", which
// text puts after it), and a selected rank stays selected through a sort. A table of items had
// no sorting, and made four items a rank before the tab was shown (65,536 at 16,384 ranks).
// A run in milliseconds says so in the time columns' headings, as its sentences do; the puzzle's
// steps go without a unit. The table's cells had "ms" before it became a model, and lost it.
TEST(ExplainViewRankTimes, ARunInMillisecondsSaysItsUnitInTheTimeHeadings)
{
    auto trace = std::make_shared<core::Trace>();
    trace->config.ranks = 2;
    trace->figures.ranks.resize(2);
    ViewContext context;
    ExplainView view{context.session, context.appearance};
    context.session.setTrace(trace, TraceUnits::Seconds);
    view.showTimePage(true);
    view.resize(500, 600);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    const QAbstractItemModel *model = view.rankTable()->model();
    EXPECT_EQ(model->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Rank"));
    EXPECT_EQ(model->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Busy (ms)"));
    EXPECT_EQ(model->headerData(3, Qt::Horizontal).toString(),
              QStringLiteral("Communication (ms)"));
    context.session.setTrace(trace);
    EXPECT_EQ(model->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Busy"));
}

TEST(ExplainViewRankTimes, TheTimePerRankSortsByValueAndKeepsItsSelection)
{
    const std::int64_t busy[] = {35'000, 9'500, 120'250, 35'000, 800};
    auto trace = std::make_shared<core::Trace>();
    trace->config.ranks = 5;
    trace->figures.ranks.resize(5);
    for (std::size_t r = 0; r < 5; ++r) {
        trace->figures.ranks[r].compute = core::SimTime::fromTicks(busy[r]);
        trace->figures.ranks[r].idle = core::SimTime::fromTicks(1000 * std::int64_t(5 - r));
    }
    ViewContext context;
    ExplainView view{context.session, context.appearance};
    context.session.setTrace(trace);
    view.showTimePage(true);
    view.resize(500, 600);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QTableView *table = view.rankTable();
    QAbstractItemModelTester tester(table->model());
    ASSERT_EQ(table->model()->rowCount(), 5);
    const auto column = [&](int c, int role = Qt::DisplayRole) {
        QStringList cells;
        for (int row = 0; row < table->model()->rowCount(); ++row)
            cells << table->model()->index(row, c).data(role).toString();
        return cells;
    };
    EXPECT_EQ(column(0), (QStringList{"0", "1", "2", "3", "4"}));
    table->selectRow(2); // rank 2
    QHeaderView *header = table->horizontalHeader();
    const auto clickHeader = [&](int section) {
        QTest::mouseClick(
            header->viewport(), Qt::LeftButton, {},
            QPoint(header->sectionViewportPosition(section) + header->sectionSize(section) / 2,
                   header->height() / 2));
    };
    clickHeader(1); // Busy
    std::vector<std::pair<std::int64_t, int>> byBusy;
    for (int r = 0; r < 5; ++r)
        byBusy.emplace_back(busy[r], r);
    const bool down = header->sortIndicatorOrder() == Qt::DescendingOrder;
    std::sort(byBusy.begin(), byBusy.end(), [down](const auto &a, const auto &b) {
        if (a.first != b.first)
            return down ? a.first > b.first : a.first < b.first;
        return a.second < b.second; // equal times in rank order
    });
    QStringList ranks, times;
    for (const auto &[ticks, rank] : byBusy) {
        ranks << QString::number(rank);
        times << QString::fromStdString(core::SimTime::fromTicks(ticks).toString());
    }
    EXPECT_EQ(column(0), ranks);
    EXPECT_EQ(column(1, Qt::ToolTipRole), times); // exactly there, to a tenth in the cell
    const QModelIndexList selected = table->selectionModel()->selectedRows();
    ASSERT_EQ(selected.size(), 1);
    EXPECT_EQ(selected.front().data().toString(), QStringLiteral("2"));
    clickHeader(0); // back by rank
    if (header->sortIndicatorOrder() == Qt::DescendingOrder)
        clickHeader(0);
    EXPECT_EQ(column(0), (QStringList{"0", "1", "2", "3", "4"}));
    ASSERT_EQ(table->selectionModel()->selectedRows().size(), 1);
    EXPECT_EQ(table->selectionModel()->selectedRows().front().row(), 2);
}

using ExplainViewWindowTest = WindowTest;

// Seen as a learner at 1280x800 on a run of 16,384 ranks (`--open big16k.rstb --tab why
// --why-page time --describe`): Busy and Idle shared what Communication's heading left them and
// read "3…" and "1…" (35.744 and 190.96). In a Why tab as wide as the window's at that size,
// every rank's number and time shows whole, and every heading.
TEST_F(ExplainViewWindowTest, At1280x800TheWhyTabsTimePerRankShowsEveryNumberOfAWideRunWhole)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("interleaved_1f1b")));
    window->showTab(Tab::Why);
    window->parts().explainView->showTimePage(true);
    window->resize(1280, 800);
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    const QSize pane = window->parts().explainView->size(); // the pane of a 1280x800 window

    constexpr int kRanks = 16384; // the times of the wide run's first ranks, the longest
    auto trace = std::make_shared<core::Trace>();
    trace->config.ranks = kRanks;
    trace->figures.ranks.resize(kRanks);
    for (core::RankFigures &rank : trace->figures.ranks) {
        rank.compute = core::SimTime::fromTicks(35'744);
        rank.idle = core::SimTime::fromTicks(190'960);
        rank.communication = core::SimTime::fromTicks(162'400);
    }
    RunSession session;
    ExplainView why(session, *window->parts().appearance);
    session.setTrace(trace);
    why.showTimePage(true);
    why.resize(pane);
    why.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&why));
    ASSERT_TRUE(settleLayouts(why));
    const QTableView &table = *why.rankTable();
    ASSERT_EQ(table.model()->rowCount(), kRanks);
    const QStringList cut = elidedTexts(table);
    EXPECT_TRUE(cut.isEmpty()) << pane.width() << " px: " << utf8(cut.mid(0, 8).join(u'|'));
    const QStringList headings = elidedTexts(*table.horizontalHeader());
    EXPECT_TRUE(headings.isEmpty()) << utf8(headings.join(u'|'));
}

// Seen at 1280x800 on a run of 16,384 ranks (`--open big16k.rstb --tab why --describe`): the
// Why tab had half the window's work, and its memory table scrolled Batches, Shards, Bytes, Line
// and "Stored at t" out of sight; the time page's scroll bar cut "Communication". The Why tab takes
// the width its tables need, as the roster does.
TEST_F(ExplainViewWindowTest, At1280x800TheWhyTabsPagesShowEveryHeadingOfALaidOutRun)
{
    QFile file(QStringLiteral(RANKSTEP_SOURCE_DIR "/tests/lessons/golden/four_d.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const auto trace = io::traceFromJson(file.readAll().toStdString());
    ASSERT_TRUE(trace) << trace.error().message;
    auto window = makeWindow();
    window->resize(1280, 800);
    ASSERT_TRUE(window->openLesson(QStringLiteral("four_d")));
    window->parts().session->setTrace(std::make_shared<const core::Trace>(*trace));
    window->showTab(Tab::Why);
    ExplainView &why = *window->parts().explainView;
    for (const bool time : {false, true}) {
        why.showTimePage(time);
        window->arrangeViews();
        ASSERT_TRUE(settleLayouts(*window));
        why.timeSplitText(); // the run's texts, made on a worker, in their place
        ASSERT_TRUE(settleLayouts(*window));
        const QStringList cut = elidedTexts(time ? *why.rankTable()->horizontalHeader()
                                                 : *why.objectTable()->horizontalHeader());
        if (time) // Busy and Idle fit their values; Communication the rest of the pane
            EXPECT_FALSE(cut.contains(QStringLiteral("Communication")))
                << why.width() << " px: " << utf8(cut.join(u'|'));
        else
            EXPECT_TRUE(cut.isEmpty()) << why.width() << " px: " << utf8(cut.join(u'|'));
    }
}

// At 16,384 ranks the rank chooser held an item a rank and measured every one on the tab's first
// show. It reads the ranks' numbers from a model as drawn, is as wide as the largest, and its
// popup's rows are of one height (a list of uneven rows measures them all to scroll).
TEST(ExplainViewRanks, AWideRunsRankChooserHoldsNoItemPerRankAndShowsTheLastWhole)
{
    constexpr int kRanks = 16384;
    auto trace = std::make_shared<core::Trace>();
    trace->config.ranks = kRanks;
    trace->figures.ranks.resize(kRanks);
    ViewContext context;
    ExplainView view{context.session, context.appearance};
    context.session.setTrace(trace);
    view.resize(500, 400);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    const QComboBox &chooser = *view.rankChooser();
    ASSERT_EQ(chooser.count(), kRanks);
    QAbstractItemModelTester tester(chooser.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    EXPECT_EQ(qobject_cast<const QStandardItemModel *>(chooser.model()), nullptr)
        << "an item a rank";
    EXPECT_NE(chooser.sizeAdjustPolicy(), QComboBox::AdjustToContents) << "measures every row";
    EXPECT_NE(chooser.sizeAdjustPolicy(), QComboBox::AdjustToContentsOnFirstShow)
        << "measures every row";
    const auto *popup = qobject_cast<const QListView *>(chooser.view());
    ASSERT_NE(popup, nullptr);
    EXPECT_TRUE(popup->uniformItemSizes());
    view.showRank(kRanks - 1);
    EXPECT_EQ(chooser.currentText(), QStringLiteral("16383"));
    ASSERT_TRUE(settleLayouts(view));
    EXPECT_TRUE(elidedTexts(chooser).isEmpty()) << utf8(elidedTexts(chooser).join(u'|'));

    auto few = std::make_shared<core::Trace>(); // a small run's chooser as before
    few->config.ranks = 4;
    few->figures.ranks.resize(4);
    context.session.setTrace(few);
    EXPECT_EQ(chooser.count(), 4);
    EXPECT_EQ(chooser.itemText(3), QStringLiteral("3"));
}

// The run's texts (the peak, found in a pass over every event) are made on a worker, as a rank's
// waits are: the sentence says so meanwhile; a rank's memory by kind too.
TEST(ExplainViewWorkers, TheRunsTextsAndARanksMemoryByKindAreMadeOffTheGuiThread)
{
    // Every worker of the pool held until the view is shown: what the view made itself is there
    // at once, what it gave the workers waits for them.
    QThreadPool &pool = ExplainView::workers();
    QSemaphore release;
    std::atomic<int> held = 0;
    for (int i = 0; i < pool.maxThreadCount(); ++i)
        pool.start([&] {
            ++held;
            release.acquire();
        });
    ASSERT_TRUE(QTest::qWaitFor([&] { return held == pool.maxThreadCount(); }, kSettleTimeoutMs));
    ViewContext context;
    context.session.setTrace(referenceTrace("gpipe"));
    ExplainView view{context.session, context.appearance};
    view.resize(500, 600);
    view.show(); // the page "What fills memory": its chart too
    const bool explaining = view.isExplainingRun();
    const bool filling = view.isFillingChart();
    release.release(pool.maxThreadCount());
    EXPECT_TRUE(explaining);
    EXPECT_TRUE(filling);
    EXPECT_TRUE(QTest::qWaitFor([&] { return !view.isExplainingRun() && !view.isFillingChart(); },
                                kSettleTimeoutMs));
    EXPECT_TRUE(view.peakText().startsWith(QStringLiteral("Peak 4194304 B on rank 1 at t 30.4")))
        << utf8(view.peakText());
    EXPECT_GE(view.chart().highestTotal(), 4194304);
}

// Qt's raster engine paints with Qt's global pool and waits for it: with two of the tab's workers
// there (the run's texts and a rank's waits at 16,384 ranks, on two cores) the tab's first paint
// waited a second for one to end. The tab's workers run in a pool of their own: with every thread
// of the global one busy, they still deliver (a test showing the view would wait on its paint).
TEST(ExplainViewWorkers, TheTabsWorkersLeaveQtsGlobalPoolToThePainter)
{
    QThreadPool &global = *QThreadPool::globalInstance();
    QSemaphore release;
    std::atomic<int> held = 0;
    for (int i = 0; i < global.maxThreadCount(); ++i)
        global.start([&] {
            ++held;
            release.acquire();
        });
    ASSERT_TRUE(QTest::qWaitFor([&] { return held == global.maxThreadCount(); }, kSettleTimeoutMs));
    ViewContext context;
    context.session.setTrace(referenceTrace("gpipe"));
    ExplainView view{context.session, context.appearance};
    // Hidden (painting would wait for the held pool): asked for its rank, it explains the run.
    EXPECT_EQ(view.shownRank(), 1);
    const bool delivered =
        QTest::qWaitFor([&] { return !view.isExplainingRun(); }, kSettleTimeoutMs);
    release.release(global.maxThreadCount());
    EXPECT_TRUE(delivered);
    ASSERT_TRUE(global.waitForDone(kSettleTimeoutMs));
}

// The four_d lesson's own run (16 ranks as tensor 2 x pipeline 4 x data 2, 8 batches): its
// bubble formula counts a pipeline's stages (p = 4) and a lane's micro-batches (m = 8 / 2), not
// every rank and every batch (p = 16, m = 8 would say 65%).
TEST(ExplainViewLayouts, ALaidOutRunsBubbleFormulaTakesThePipelineDegree)
{
    QFile file(QStringLiteral(RANKSTEP_SOURCE_DIR "/tests/lessons/golden/four_d.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const auto trace = io::traceFromJson(file.readAll().toStdString());
    ASSERT_TRUE(trace) << trace.error().message;
    ASSERT_EQ(trace->config.ranks, 16);
    ASSERT_EQ(trace->config.batches, 8);
    ViewContext context;
    ExplainView view{context.session, context.appearance};
    context.session.setLesson(&builtinLesson(QStringLiteral("four_d")));
    context.session.setTrace(std::make_shared<const core::Trace>(*trace));
    EXPECT_TRUE(view.formulaText().endsWith(
        QStringLiteral("the bubble formula (p-1)/(m+p-1) with p = 4, m = 4 gives 43%.")))
        << utf8(view.formulaText());
}

// A run read from a file is not graded against the lesson open beside it: the memory by kind
// draws no line at that lesson's target, which the run of the code does.
TEST_F(ExplainViewTest, AnOpenedRunsMemoryByKindDrawsNoLessonTarget)
{
    const auto targetLines = [&] {
        int lines = 0;
        for (const QAbstractSeries *series : m_view.chart().chart()->series())
            lines += series->name() == QStringLiteral("target");
        return lines;
    };
    ASSERT_EQ(targetLines(), 1) << "the code's run is graded against gpipe";
    m_context.session.setOpenedTrace(m_trace, TraceUnits::SimulatedSteps);
    EXPECT_EQ(targetLines(), 0);
}

TEST_F(ExplainViewTest, TheCriticalPathListsTheChainEndingAtTheEndTime)
{
    m_view.showCriticalPath(true);
    QListWidget *chain = m_view.chainList();
    ASSERT_GT(chain->count(), 10);
    EXPECT_TRUE(chain->item(chain->count() - 1)->text().startsWith(QStringLiteral("t 33.3–33.8")))
        << utf8(chain->item(chain->count() - 1)->text());
    m_view.showCriticalPath(false);
    m_view.showRank(3);
    chain = m_view.chainList(); // the rank's waits, made on a worker
    ASSERT_GT(chain->count(), 0);
    EXPECT_TRUE(chain->item(0)->text().startsWith(QStringLiteral("Rank 3 waited 7 (t 0 to 7)")))
        << utf8(chain->item(0)->text());
}

// On screen, the page "What fills memory" makes no rank's waits (at 16,384 ranks their links
// took a third of a gigabyte and a second each time a rank was shown): the page "Where time goes"
// lists them when it comes into view, for the rank shown then.
TEST_F(ExplainViewTest, OnScreenARanksWaitsAreListedWhenTheirPageShows)
{
    m_view.resize(900, 700);
    m_view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_view));
    m_view.showTimePage(false);
    m_view.showRank(3);
    auto *chain = m_view.findChild<QListWidget *>();
    ASSERT_TRUE(chain);
    EXPECT_EQ(chain->count(), 0) << "listed while the memory page shows";
    m_view.showRank(2);
    m_view.showTimePage(true);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !m_view.isListingWaits(); }, kSettleTimeoutMs));
    ASSERT_GT(chain->count(), 0);
    EXPECT_TRUE(chain->item(0)->text().startsWith(QStringLiteral("Rank 2 waited")))
        << utf8(chain->item(0)->text());
    m_view.showRank(3); // shown: listed as soon as made
    ASSERT_TRUE(QTest::qWaitFor([&] { return !m_view.isListingWaits(); }, kSettleTimeoutMs));
    ASSERT_GT(chain->count(), 0);
    EXPECT_TRUE(chain->item(0)->text().startsWith(QStringLiteral("Rank 3 waited 7 (t 0 to 7)")))
        << utf8(chain->item(0)->text());
}

// At 16,384 ranks one rank's waits took about a second on the GUI thread: the window froze each
// time the page "Where time goes" showed a rank. They are made on a worker; the list says so
// meanwhile, and a rank's waits that arrive after another rank was chosen are dropped.
TEST_F(ExplainViewTest, ARanksWaitsAreMadeOffTheGuiThreadAndAStaleOneIsDropped)
{
    std::atomic<bool> onGuiThread{false};
    std::atomic<bool> holding{false};
    QSemaphore release;
    m_view.setWaitsCheckpoint([&](int rank) {
        if (QThread::currentThread() == QCoreApplication::instance()->thread()) {
            onGuiThread = true;
            return;
        }
        if (rank == 3) {
            holding = true;
            release.tryAcquire(1, kSettleTimeoutMs); // until the test lets rank 3's waits go on
        }
    });
    m_view.showTimePage(true);
    m_view.resize(900, 700);
    m_view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_view));
    m_view.showRank(3);
    ASSERT_TRUE(QTest::qWaitFor([&] { return holding || onGuiThread; }, kSettleTimeoutMs));
    EXPECT_FALSE(onGuiThread);
    auto *chain = m_view.findChild<QListWidget *>();
    ASSERT_TRUE(chain);
    EXPECT_TRUE(m_view.isListingWaits());
    ASSERT_EQ(chain->count(), 1);
    EXPECT_EQ(chain->item(0)->text(), QStringLiteral("Finding where rank 3 waited…"));

    m_view.showRank(2); // while rank 3's are still being made
    ASSERT_TRUE(QTest::qWaitFor([&] { return !m_view.isListingWaits(); }, kSettleTimeoutMs));
    ASSERT_GT(chain->count(), 0);
    EXPECT_TRUE(chain->item(0)->text().startsWith(QStringLiteral("Rank 2 waited")))
        << utf8(chain->item(0)->text());
    const int rankTwos = chain->count();

    release.release(); // rank 3's waits arrive now, late
    ASSERT_TRUE(ExplainView::workers().waitForDone(kSettleTimeoutMs));
    ASSERT_TRUE(deliverPostedEvents());
    EXPECT_EQ(chain->count(), rankTwos);
    EXPECT_TRUE(chain->item(0)->text().startsWith(QStringLiteral("Rank 2 waited")))
        << utf8(chain->item(0)->text());
    EXPECT_FALSE(onGuiThread);
}

// A new run while a rank's waits of the old one are being made: they never reach its list.
TEST_F(ExplainViewTest, ARanksWaitsOfTheRunBeforeAreDropped)
{
    std::atomic<bool> holding{false};
    QSemaphore release;
    m_view.setWaitsCheckpoint([&](int rank) {
        if (rank == 3 && QThread::currentThread() != QCoreApplication::instance()->thread()) {
            holding = true;
            release.tryAcquire(1, kSettleTimeoutMs);
        }
    });
    m_view.showTimePage(true);
    m_view.resize(900, 700);
    m_view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_view));
    m_view.showRank(3);
    ASSERT_TRUE(QTest::qWaitFor([&] { return holding.load(); }, kSettleTimeoutMs));
    m_context.session.setTrace(referenceTrace("basic")); // one rank: its peak's, rank 0
    ASSERT_TRUE(QTest::qWaitFor([&] { return !m_view.isListingWaits(); }, kSettleTimeoutMs));
    release.release();
    ASSERT_TRUE(ExplainView::workers().waitForDone(kSettleTimeoutMs));
    ASSERT_TRUE(deliverPostedEvents());
    auto *chain = m_view.findChild<QListWidget *>();
    ASSERT_TRUE(chain);
    for (int row = 0; row < chain->count(); ++row)
        EXPECT_FALSE(chain->item(row)->text().startsWith(QStringLiteral("Rank 3")))
            << utf8(chain->item(row)->text());
    EXPECT_EQ(m_view.shownRank(), 0);
}

// The session announces a new trace before its stepper holds it: the view read the old trace's
// state (four ranks) for the new one (one rank) and crashed.
// After a big run the window spent about half a second explaining it (critical-path
// links, memory by kind, change times) before the first paint, with the Why tab not even shown.
TEST(ExplainViewLazy, AHiddenViewExplainsOnlyWhenShownAndThenOnlyTheLastTrace)
{
    ViewContext context;
    QTabWidget tabs;
    auto *other = new QWidget;
    auto *view = new ExplainView(context.session, context.appearance);
    tabs.addTab(other, QStringLiteral("other"));
    tabs.addTab(view, QStringLiteral("Why"));
    tabs.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&tabs));
    context.session.setTrace(referenceTrace("ddp"));
    context.session.setTrace(referenceTrace("gpipe"));
    context.session.setSelectedRank(2);
    EXPECT_EQ(view->explainedTraces(), 0);

    tabs.setCurrentWidget(view);
    EXPECT_EQ(view->explainedTraces(), 1);
    EXPECT_EQ(view->shownRank(), 2); // the rank selected while it was hidden
    EXPECT_TRUE(view->peakText().startsWith(QStringLiteral("Peak 4194304 B on rank 1 at t 30.4")))
        << view->peakText().toStdString();
}

TEST_F(ExplainViewTest, ANewTraceWithFewerRanksShowsItsOwnObjects)
{
    const auto basic = referenceTrace("basic");
    m_context.session.setTrace(basic);
    EXPECT_EQ(m_view.shownRank(), 0);
    std::int64_t sum = 0;
    for (const auto &object : m_view.objects().objects())
        sum += object.bytes;
    EXPECT_EQ(m_view.objects().rowCount() > 0, true);
    EXPECT_LE(sum, basic->figures.maxMemory + 4 * 131072);
}

// The context_parallel lesson's own run (its golden trace) mid-ring: the objects at the cursor put
// the attention that has not seen every chunk first and say how many it has seen, as the state
// view's chip "a1 c1 1/4" counts them, with explain's words in the tooltip; its chunk is in the
// shards column. Each wait of the ring is followed back to the sender's started pass.
TEST(ExplainViewContext, MidRingTheObjectsSayWhichAttentionIsUnfinished)
{
    QFile file(QStringLiteral(RANKSTEP_SOURCE_DIR "/tests/lessons/golden/context_parallel.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const auto trace = io::traceFromJson(file.readAll().toStdString());
    ASSERT_TRUE(trace) << trace.error().message;
    ViewContext context;
    ExplainView view{context.session, context.appearance};
    context.session.setTrace(std::make_shared<const core::Trace>(*trace));
    context.session.stepper().toTime(core::SimTime::fromTicks(300));
    view.showRank(1);
    const LiveObjectsModel &objects = view.objects();
    QAbstractItemModelTester tester(const_cast<LiveObjectsModel *>(&objects));
    ASSERT_GT(objects.rowCount(), 1);
    const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
        return objects.data(objects.index(row, column), role).toString();
    };
    EXPECT_EQ(cell(0, LiveObjectsModel::Kind), QStringLiteral("activation"));
    EXPECT_EQ(cell(0, LiveObjectsModel::Unfinished), QStringLiteral("1 of 4 chunks seen"));
    EXPECT_EQ(cell(0, LiveObjectsModel::Unfinished, Qt::ToolTipRole),
              QStringLiteral("layer 0's attention output for batches 0-1, chunk 1: 1 of 4 "
                             "chunks seen"));
    EXPECT_EQ(cell(0, LiveObjectsModel::Shards), QStringLiteral("1 of 4"));
    for (int row = 1; row < objects.rowCount(); ++row)
        EXPECT_EQ(cell(row, LiveObjectsModel::Unfinished), QString()) << row;

    QListWidget *chain = view.chainList();
    ASSERT_GT(chain->count(), 0);
    EXPECT_EQ(chain->item(0)->text(),
              QStringLiteral("Rank 1 waited 0.275 (t 0.125 to 0.4) in the await of its receive "
                             "from rank 0 (started on the communication stream), which waited for "
                             "rank 0's pass_to_start to rank 1 (t 0 to 0.2 on its communication "
                             "stream), which rank 0 started right away at t 0."));
}

// A million memory changes draw as at most kMaxBuckets steps, keeping each bucket's highest.
TEST(MemoryKindChart, ManySamplesAreBucketedKeepingTheHighest)
{
    std::vector<explain::KindSample> samples;
    for (int i = 0; i < 1'000'000; ++i) {
        explain::KindSample sample{core::SimTime::fromTicks(i), {}};
        sample.byKind.of(core::ObjectKind::Activation) = (i == 777'777) ? 1'000'000 : i % 1000;
        samples.push_back(sample);
    }
    const auto kept = bucketSamples(samples, core::SimTime::fromTicks(1'000'000), 2000);
    EXPECT_LE(kept.size(), 2000U);
    std::int64_t highest = 0;
    for (const auto &sample : kept)
        highest = std::max(highest, sample.byKind.total());
    EXPECT_EQ(highest, 1'000'000);
    MemoryKindChart chart;
    chart.setSamples(samples, core::SimTime::fromTicks(1'000'000), {});
    EXPECT_LE(chart.pointCount(), 2 * 2000);
}

// The axis said "3000000 bytes" where every other view says MB.
TEST_F(ExplainViewTest, TheKindChartWritesMemoryAsTheRestOfTheAppDoes)
{
    m_view.resize(600, 700);
    const QStringList labels = m_view.chart().memoryLabels();
    ASSERT_GE(labels.size(), 2);
    const QRegularExpression memory(QStringLiteral("^\\d+(\\.\\d+)? (B|kB|MB|GB)$"));
    for (const QString &label : labels)
        EXPECT_TRUE(memory.match(label).hasMatch()) << utf8(label);
    EXPECT_TRUE(labels.contains(QStringLiteral("4 MB")) || labels.contains(QStringLiteral("5 MB")))
        << utf8(labels.join(u'|'));
}

// The colors of one kind's area: the texture's pixels (a solid brush: its color alone).
QSet<QRgb> areaColors(const QAbstractSeries *series)
{
    const auto *area = qobject_cast<const QAreaSeries *>(series);
    QSet<QRgb> colors;
    if (!area)
        return colors;
    const QImage tile = area->brush().textureImage();
    if (tile.isNull()) {
        colors.insert(area->brush().color().rgb());
        return colors;
    }
    for (int y = 0; y < tile.height(); ++y)
        for (int x = 0; x < tile.width(); ++x)
            colors.insert(tile.pixel(x, y) | 0xff000000u);
    return colors;
}

// Memory by kind had a color scheme of its own (Okabe-Ito): a weight was blue there and its
// layer's color in the state panels. Each kind is drawn as the panels' key draws it: the same fill
// (objectColor of a middle layer) under the kind's own pattern, in the look's colors.
TEST_F(ExplainViewTest, MemoryByKindPaintsEachKindAsTheStatePanelsDo)
{
    for (const auto scheme : {Palette::Scheme::Standard, Palette::Scheme::ColorBlindSafe}) {
        m_context.appearance.setColorBlindSafe(scheme == Palette::Scheme::ColorBlindSafe);
        const Palette &palette = Palette::of(scheme);
        const QList<QAbstractSeries *> series = m_view.chart().chart()->series();
        ASSERT_GE(series.size(), 5);
        std::vector<QImage> tiles;
        for (int kind = 0; kind < 5; ++kind) {
            core::Object sample;
            sample.kind = core::ObjectKind(kind);
            sample.layer = 1;
            const QSet<QRgb> colors = areaColors(series[kind]);
            EXPECT_TRUE(colors.contains(objectColor(sample, 2, palette).rgb()))
                << "kind " << kind << ": the state key's fill";
            EXPECT_EQ(colors.size() > 1, kindPattern(sample.kind) != Qt::NoBrush)
                << "kind " << kind << ": its pattern";
            tiles.push_back(
                qobject_cast<const QAreaSeries *>(series[kind])->brush().textureImage());
        }
        for (int a = 0; a < 5; ++a) // told apart by pattern where the fill is the same
            for (int b = a + 1; b < 5; ++b)
                EXPECT_NE(tiles[std::size_t(a)], tiles[std::size_t(b)]) << a << " and " << b;
    }
}

TEST(MemoryKindChart, TickStepsAreRound)
{
    EXPECT_DOUBLE_EQ(niceStep(6.76), 10.0);
    EXPECT_DOUBLE_EQ(niceStep(838861), 1000000.0);
    EXPECT_DOUBLE_EQ(niceStep(0.13), 0.2);
    EXPECT_DOUBLE_EQ(niceStep(0.0), 1.0);
}

} // namespace
} // namespace rankstep::gui::testing
