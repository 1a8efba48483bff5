// SPDX-License-Identifier: MIT
#include "memorychart.h"
#include "memorychartview.h"
#include "memoryseries.h"
#include "palette.h"
#include "ranklines.h"
#include "stateranks.h"
#include "tests/gui/support/eventwaits.h"
#include "timelinegeometry.h"
#include "viewcontext.h"

#include "core/explain/memoryexplain.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

using rankstep::core::SimTime;
using rankstep::core::Trace;
using rankstep::gui::MemoryChart;
namespace gui = rankstep::gui;

namespace {

std::shared_ptr<const Trace> runPuzzle(const std::string &name)
{
    for (const auto &puzzle : rankstep::testing::referencePuzzles()) {
        if (puzzle.name != name)
            continue;
        rankstep::core::RunConfig config;
        config.ranks = puzzle.ranks;
        config.layers = puzzle.layers;
        config.batches = puzzle.batches;
        return std::make_shared<const Trace>(rankstep::testing::runProgram(config, puzzle.program));
    }
    throw std::runtime_error("no reference puzzle named " + name);
}

// A lesson with a memory target of `bytes` (none: no targets): the chart draws the session's.
rankstep::lessons::Lesson lessonWithTarget(std::optional<std::int64_t> bytes)
{
    rankstep::lessons::Lesson lesson;
    lesson.id = "memory_target";
    if (bytes)
        lesson.targets = rankstep::lessons::Targets{SimTime(), *bytes};
    return lesson;
}

// A data-parallel lesson (every rank holds the whole model's state), and `trace` with its model
// given `hidden` features: the chart's model-state line is 2 x hidden² x layers bytes.
rankstep::lessons::Lesson dataParallelLesson()
{
    rankstep::lessons::Lesson lesson;
    lesson.id = "ddp";
    lesson.parallelism = rankstep::lessons::Parallelism::DataParallel;
    return lesson;
}

std::shared_ptr<const Trace> withHidden(std::shared_ptr<const Trace> trace, std::int64_t hidden)
{
    Trace changed = *trace;
    changed.config.cost.sizes.hidden = hidden;
    return std::make_shared<const Trace>(std::move(changed));
}

QList<QLineSeries *> lineSeries(const MemoryChart &chart, const QString &namePrefix)
{
    QList<QLineSeries *> found;
    for (QAbstractSeries *series : chart.chart()->series()) {
        auto *line = qobject_cast<QLineSeries *>(series);
        if (line && line->name().startsWith(namePrefix))
            found.append(line);
    }
    return found;
}

QValueAxis *timeAxis(const MemoryChart &chart)
{
    return qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Horizontal).value(0));
}

// A chart of the puzzle laid out on an offscreen window, as a person would see it.
void showAt900x300(MemoryChart &chart)
{
    chart.resize(900, 300);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
}

} // namespace

TEST(MemoryChart, DdpHasFourRankLinesAndOneMaximumPoint)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp"));
    EXPECT_FALSE(chart.showsPlaceholder());
    const auto ranks = lineSeries(chart, QStringLiteral("rank "));
    ASSERT_EQ(ranks.size(), 4);
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(ranks[r]->name(), QStringLiteral("rank %1").arg(r));
        EXPECT_EQ(ranks[r]->pen().color(),
                  rankstep::gui::Palette::of(rankstep::gui::Palette::Scheme::Standard).rank(r));
    }
    QList<QScatterSeries *> markers;
    for (QAbstractSeries *series : chart.chart()->series())
        if (auto *scatter = qobject_cast<QScatterSeries *>(series))
            markers.append(scatter);
    ASSERT_EQ(markers.size(), 1);
    EXPECT_EQ(markers[0]->points(), (QList<QPointF>{{4, 1835008}}));
    EXPECT_EQ(chart.maximumLabelText(), QStringLiteral("max 1.84 MB (rank 0, t 4)"));
    EXPECT_TRUE(lineSeries(chart, QStringLiteral("target")).isEmpty());
}

// The maximum's time in the unit the time axis names: a run in milliseconds (a real run, a
// real-scale cost model) said "t 10415.254" under an axis of "time (ms)".
TEST(MemoryChart, TheMaximumsTimeCarriesTheAxissUnit)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    const auto ddp = runPuzzle("ddp"); // its maximum: 1835008 B on rank 0 at t 4
    context.session.setTrace(ddp, gui::TraceUnits::Seconds);
    EXPECT_EQ(timeAxis(chart)->titleText(), QStringLiteral("time (ms)"));
    EXPECT_EQ(chart.maximumLabelText(), QStringLiteral("max 1.84 MB (rank 0, t 4 ms)"));
    context.session.setTrace(ddp); // steps go without a unit, as everywhere
    EXPECT_EQ(chart.maximumLabelText(), QStringLiteral("max 1.84 MB (rank 0, t 4)"));
}

// A learner who ran a starter that makes no operations was told to run a program.
TEST(MemoryChart, ARunWithoutOperationsIsNotARunStillToBeMade)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    EXPECT_TRUE(chart.placeholderText().startsWith(QStringLiteral("Run a program")));
    auto empty = std::make_shared<Trace>();
    empty->status = rankstep::core::RunStatus::Ok;
    context.session.setTrace(empty);
    EXPECT_TRUE(chart.showsPlaceholder());
    EXPECT_EQ(chart.placeholderText(),
              QStringLiteral("The run made no operations: no rank's memory changed."));
    auto failed = std::make_shared<Trace>();
    failed->status = rankstep::core::RunStatus::Error;
    context.session.setTrace(failed);
    EXPECT_EQ(chart.placeholderText(),
              QStringLiteral("The run stopped before any rank's memory changed."));
    context.session.setTrace(nullptr);
    EXPECT_TRUE(chart.placeholderText().startsWith(QStringLiteral("Run a program")));
}

TEST(MemoryChart, TargetIsADashedLineAtItsValue)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    const auto lesson = lessonWithTarget(1800000);
    context.session.setLesson(&lesson);
    context.session.setTrace(runPuzzle("ddp"));
    const auto targets = lineSeries(chart, QStringLiteral("target"));
    ASSERT_EQ(targets.size(), 1);
    ASSERT_FALSE(targets[0]->points().isEmpty());
    for (const QPointF &point : targets[0]->points())
        EXPECT_DOUBLE_EQ(point.y(), 1800000);
    EXPECT_EQ(targets[0]->pen().style(), Qt::DashLine);
    const auto without = lessonWithTarget(std::nullopt);
    context.session.setLesson(&without);
    context.session.setTrace(runPuzzle("ddp"));
    EXPECT_TRUE(lineSeries(chart, QStringLiteral("target")).isEmpty());
}

TEST(MemoryChart, VisibleRangeFollowsTheTimelineWithoutEchoingIt)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp"));
    EXPECT_DOUBLE_EQ(timeAxis(chart)->min(), 0);
    EXPECT_DOUBLE_EQ(timeAxis(chart)->max(), 5.6); // the run's end time: 5.1 + 0.5
    QSignalSpy spy(&context.session, &gui::RunSession::visibleRangeChanged);
    chart.setVisibleRange(SimTime::steps(1), *SimTime::parse("3.5"));
    EXPECT_DOUBLE_EQ(timeAxis(chart)->min(), 1);
    EXPECT_DOUBLE_EQ(timeAxis(chart)->max(), 3.5);
    context.session.setShownRanks({0, 1, 2}); // redrawing keeps the zoom
    EXPECT_DOUBLE_EQ(timeAxis(chart)->max(), 3.5);
    EXPECT_EQ(spy.count(), 0);
}

TEST(MemoryChart, ZoomingTheChartReportsTheNewRange)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp"));
    showAt900x300(chart);
    QSignalSpy spy(&context.session, &gui::RunSession::visibleRangeChanged);
    const QRectF plot = chart.chart()->plotArea();
    chart.chart()->zoomIn(QRectF(plot.left(), plot.top(), plot.width() / 2, plot.height()));
    ASSERT_GE(spy.count(), 1); // the session's range, which the timeline follows
    EXPECT_NEAR(context.session.visibleRange().from, 0.0, 1e-6);
    EXPECT_NEAR(context.session.visibleRange().to, 2800.0, 10.0);
}

TEST(MemoryChart, RightClickShowsTheWholeRunAgain)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp")); // the chart follows the session's run
    showAt900x300(chart);
    context.session.setVisibleRange(1000, 2000);
    EXPECT_DOUBLE_EQ(timeAxis(chart)->max(), 2.0);
    QSignalSpy spy(&context.session, &gui::RunSession::visibleRangeChanged);
    const QPoint centre = chart.chartView()->viewport()->rect().center();
    QTest::mouseClick(chart.chartView()->viewport(), Qt::RightButton, {}, centre);
    ASSERT_EQ(spy.count(), 1);
    // The whole run with the timeline's margin (timelinegeometry.h fitted).
    const gui::TimeAxis whole = gui::fitted({}, *SimTime::parse("5.6"));
    EXPECT_DOUBLE_EQ(context.session.visibleRange().from, whole.from);
    EXPECT_DOUBLE_EQ(context.session.visibleRange().to, whole.to);
    EXPECT_DOUBLE_EQ(timeAxis(chart)->max(), whole.to / 1000.0);
}

TEST(MemoryChart, CursorIsAVerticalLineAtItsTimeAndGhostsWhatFollows)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp"));
    showAt900x300(chart);
    // The session's cursor, at the end of the run, until the test sets one.
    EXPECT_EQ(chart.cursorTime(), context.session.stepper().cursorTime());
    chart.setCursorTime(SimTime::steps(2));
    QCoreApplication::processEvents();
    const QImage image = chart.grab().toImage();
    // Where Qt Charts draws t 2 and its plot, in the grabbed image's pixels.
    const QChartView *view = chart.chartView();
    const auto inImage = [&](QPointF chartPoint) {
        const QPointF inView = view->viewportTransform().map(chart.chart()->mapToScene(chartPoint));
        return inView + QPointF(view->mapTo(&chart, QPoint(0, 0)));
    };
    const double x = inImage(chart.chart()->mapToPosition(QPointF(2.0, 0.0))).x();
    const int column = int(std::round(x));
    const QRectF plot(inImage(chart.chart()->plotArea().topLeft()),
                      chart.chart()->plotArea().size());
    // The line: the cursor's blue over the whole height of the plot, the two pixel columns either
    // side of the chart's own x for t 2, and nowhere else.
    const auto isBlue = [&](int cx, int y) {
        const QColor pixel = image.pixelColor(cx, y);
        return pixel.blue() > 150 && pixel.red() < 90;
    };
    for (const int cx : {column - 1, column}) {
        int blue = 0;
        for (int y = int(plot.top()) + 2; y < int(plot.bottom()) - 2; ++y)
            blue += isBlue(cx, y);
        EXPECT_GT(blue, int(plot.height()) - 8) << "column " << cx;
    }
    EXPECT_FALSE(isBlue(column - 2, int(plot.center().y())));
    EXPECT_FALSE(isBlue(column + 1, int(plot.center().y())));

    // The veil is the chart's own background: the empty plot stays white on both sides.
    EXPECT_EQ(image.pixelColor(column - 20, int(plot.top()) + 3), QColor(Qt::white));
    EXPECT_EQ(image.pixelColor(column + 20, int(plot.top()) + 3), QColor(Qt::white));
    // A rank's line after the cursor is paler than one before it. The maximum's label is drawn
    // over the cursor and its veil, whole wherever the cursor stands: it is not a line.
    const QRectF labelInChart = chart.maximumLabelRect().adjusted(-4, -1, 4, 1);
    const QRectF label(inImage(labelInChart.topLeft()), labelInChart.size());
    const auto darkest = [&](int from, int to) {
        int value = 255;
        for (int cx = from; cx < to; ++cx)
            for (int y = int(plot.top()); y < int(plot.bottom()); ++y)
                if (!label.contains(QPointF(cx, y)))
                    value = std::min(value, image.pixelColor(cx, y).value());
        return value;
    };
    EXPECT_LT(darkest(int(plot.left()) + 5, column - 3) + 60,
              darkest(column + 4, int(plot.right())));
}

TEST(MemoryChart, SteppingRepaintsTheCachedChartWithoutRenderingItAgain)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp"));
    showAt900x300(chart);
    auto *view = static_cast<rankstep::gui::MemoryChartView *>(chart.chartView());
    // Qt Charts lays out after the show, over some rounds of events: until a round of them
    // renders the scene no more.
    const auto settled = [&] {
        view->viewport()->repaint();
        const int before = view->sceneRenders();
        if (!gui::testing::deliverPostedEvents() || !gui::testing::letTimersFire(0))
            return false;
        view->viewport()->repaint();
        return view->sceneRenders() == before;
    };
    ASSERT_TRUE(QTest::qWaitFor(settled, gui::testing::kSettleTimeoutMs));
    const int renders = view->sceneRenders();
    ASSERT_GE(renders, 1);
    for (int step = 1; step <= 4; ++step) {
        chart.setCursorTime(SimTime::steps(step));
        view->viewport()->repaint();
        QCoreApplication::processEvents();
    }
    EXPECT_EQ(view->sceneRenders(), renders);
    const QImage before = chart.grab().toImage();
    chart.setVisibleRange(SimTime::steps(1), SimTime::steps(3)); // a zoom renders it again
    QCoreApplication::processEvents();
    const QImage zoomed = chart.grab().toImage();
    EXPECT_GT(view->sceneRenders(), renders);
    EXPECT_NE(before, zoomed);
    chart.setDarkTheme(true); // and so does a theme
    QCoreApplication::processEvents();
    const int zoomedRenders = view->sceneRenders();
    const QImage dark = chart.grab().toImage();
    EXPECT_GE(view->sceneRenders(), zoomedRenders);
    EXPECT_LT(dark.pixelColor(5, 5).value(), 100);
    chart.resize(700, 300); // and so does a size
    QCoreApplication::processEvents();
    EXPECT_EQ(chart.grab().toImage().width(), 700);
    EXPECT_GT(view->sceneRenders(), zoomedRenders);
}

TEST(MemoryChart, ClickingStepsToTheNearestCall)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp"));
    showAt900x300(chart);
    QSignalSpy spy(&chart, &MemoryChart::timeClicked);
    const QPointF scene = chart.chart()->mapToScene(chart.chart()->mapToPosition({4.02, 1e6}));
    const QPoint where = chart.chartView()->mapFromScene(scene);
    QTest::mouseClick(chart.chartView()->viewport(), Qt::LeftButton, {}, where);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).value<SimTime>(), SimTime::steps(4));
    EXPECT_DOUBLE_EQ(timeAxis(chart)->max(), 5.6); // a click is no zoom
}

TEST(MemoryChart, DraggingZoomsIntoWhatTheBandCovers)
{
    // The press reaches Qt Charts' rubber band only once the mouse drags (a click must not).
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp"));
    showAt900x300(chart);
    QWidget *viewport = chart.chartView()->viewport();
    const auto at = [&](double time) {
        return chart.chartView()->mapFromScene(
            chart.chart()->mapToScene(chart.chart()->mapToPosition({time, 1e6})));
    };
    QTest::mousePress(viewport, Qt::LeftButton, {}, at(1.0));
    for (const double time : {1.5, 2.0, 3.0}) {
        QMouseEvent move(QEvent::MouseMove, QPointF(at(time)), viewport->mapToGlobal(at(time)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &move);
    }
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, at(3.0));
    EXPECT_NEAR(timeAxis(chart)->min(), 1.0, 0.05);
    EXPECT_NEAR(timeAxis(chart)->max(), 3.0, 0.05);
    EXPECT_NEAR(context.session.visibleRange().to, 3000.0, 50.0); // the timeline follows
}

TEST(MemoryChart, ManyRanksDrawThinLinesWithoutALegend)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("pipeline_fsdp"));
    const auto ranks = lineSeries(chart, QStringLiteral("rank "));
    ASSERT_EQ(ranks.size(), 16);
    for (QLineSeries *rank : ranks)
        EXPECT_DOUBLE_EQ(rank->pen().widthF(), 1.0);
    EXPECT_FALSE(chart.chart()->legend()->isVisible());
}

TEST(MemoryChart, WithoutEventsShowsAPlaceholder)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    EXPECT_TRUE(chart.showsPlaceholder());
    context.session.setTrace(std::make_shared<const Trace>());
    EXPECT_TRUE(chart.showsPlaceholder());
    context.session.setTrace(runPuzzle("ddp"));
    EXPECT_FALSE(chart.showsPlaceholder());
    context.session.setTrace(nullptr);
    EXPECT_TRUE(chart.showsPlaceholder());
}

TEST(MemoryChart, DarkThemeKeepsTheRankColors)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("gpipe"));
    chart.setDarkTheme(true);
    const auto ranks = lineSeries(chart, QStringLiteral("rank "));
    ASSERT_EQ(ranks.size(), 4);
    EXPECT_EQ(ranks[1]->pen().color(),
              rankstep::gui::Palette::of(rankstep::gui::Palette::Scheme::Standard).rank(1));
    EXPECT_EQ(chart.chart()->theme(), QChart::ChartThemeDark);
}

TEST(MemoryChart, GrabbedImageIsNotBlank)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp"));
    showAt900x300(chart);
    const QImage image = chart.grab().toImage();
    ASSERT_EQ(image.size(), QSize(900, 300));
    QSet<QRgb> colors;
    int rankZeroPixels = 0;
    const QColor rankZero =
        rankstep::gui::Palette::of(rankstep::gui::Palette::Scheme::Standard).rank(0);
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            colors.insert(pixel.rgb());
            const int distance = std::abs(pixel.red() - rankZero.red()) +
                                 std::abs(pixel.green() - rankZero.green()) +
                                 std::abs(pixel.blue() - rankZero.blue());
            rankZeroPixels += distance < 60 ? 1 : 0;
        }
    }
    EXPECT_GT(colors.size(), 20);
    EXPECT_GT(rankZeroPixels, 150); // rank 0's dashes show between the other ranks'
}

// Refreshes docs/screenshots/memory-*.png when RANKSTEP_SCREENSHOTS is set.
TEST(MemoryChart, WritesTheDocumentationScreenshots)
{
    if (qEnvironmentVariableIsEmpty("RANKSTEP_SCREENSHOTS"))
        GTEST_SKIP() << "set RANKSTEP_SCREENSHOTS=1 to refresh docs/screenshots/memory-*.png";
    const QDir dir(QStringLiteral(RANKSTEP_SOURCE_DIR "/docs/screenshots"));
    ASSERT_TRUE(dir.mkpath(QStringLiteral(".")));
    struct Shot {
        const char *puzzle;
        std::int64_t target; // the notebook's rounded target
        const char *cursor;
    };
    for (const Shot &shot : {Shot{"ddp", 1800000, "2"}, Shot{"gpipe", 4100000, "12"}}) {
        gui::testing::ViewContext context;
        MemoryChart chart(context.session, context.appearance);
        const auto lesson = lessonWithTarget(shot.target);
        context.session.setLesson(&lesson);
        context.session.setTrace(runPuzzle(shot.puzzle));
        chart.setCursorTime(*SimTime::parse(shot.cursor));
        showAt900x300(chart);
        const QString file = QStringLiteral("memory-%1.png").arg(QLatin1String(shot.puzzle));
        EXPECT_TRUE(chart.grab().save(dir.filePath(file))) << file.toStdString();
    }
}

namespace {

QList<QAreaSeries *> kindAreas(const MemoryChart &chart)
{
    QList<QAreaSeries *> found;
    for (QAbstractSeries *series : chart.chart()->series())
        if (auto *area = qobject_cast<QAreaSeries *>(series))
            found.append(area);
    return found;
}

// The heights the chart's upper edge holds, one per step: each second point (a step is drawn
// as its start and its end).
std::vector<double> stepHeights(const QList<QPointF> &edge)
{
    std::vector<double> heights;
    for (qsizetype i = 0; i < edge.size(); i += 2)
        heights.push_back(edge[i].y());
    return heights;
}

// A rank's totals and weights from the explain library, sample by sample.
std::vector<double> totals(const Trace &trace, int rank, int kinds)
{
    std::vector<double> sums;
    for (const auto &sample : rankstep::explain::memoryByKind(trace, rank)) {
        std::int64_t sum = 0;
        for (int kind = 0; kind < kinds; ++kind)
            sum += sample.byKind.bytes[std::size_t(kind)];
        sums.push_back(double(sum));
    }
    return sums;
}

// Sixteen ranks' colors repeat (ranks 2 and 10 share a purple): each line's end says whose it
// is, and the selected rank's line stands out over the others, muted.
// The visible texts of the chart's scene that Qt Charts cut ("..." or "…").
QStringList cutTexts(const MemoryChart &chart)
{
    QStringList cut;
    for (const QGraphicsItem *item : chart.chart()->scene()->items()) {
        const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
        if (text && text->isVisible() &&
            (text->toPlainText().endsWith(QStringLiteral("...")) ||
             text->toPlainText().contains(QChar(0x2026))))
            cut << text->toPlainText();
    }
    return cut;
}

// Presenting with the quiz at 1280x800 and 150 %, the chart kept 80 pixels and every time label
// read "...", which --describe did not list (it looked for "…" only). A chart that short leaves
// its times to the timeline above it; whatever Qt Charts cuts is listed.
TEST(MemoryChart, AShortChartAtPresentingZoomCutsNoTimeLabelAndListsWhatIsCut)
{
    gui::testing::ViewContext context;
    context.appearance.setZoom(1.5);
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(runPuzzle("ddp"));
    for (const int height : {80, 110, 300}) {
        chart.resize(1270, height);
        chart.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
        QCoreApplication::processEvents();
        const QStringList cut = cutTexts(chart);
        EXPECT_TRUE(cut.isEmpty()) << height << ": " << cut.join(u'|').toStdString();
        for (const QString &text : cut)
            EXPECT_TRUE(chart.elidedTexts().contains(text)) << text.toStdString();
        EXPECT_TRUE(chart.elidedTexts().isEmpty())
            << height << ": " << chart.elidedTexts().join(u'|').toStdString();
    }
    EXPECT_TRUE(timeAxis(chart)->labelsVisible()) << "300 pixels hold them";
}

TEST(MemoryChart, SixteenRanksNameTheirLinesAndTheSelectedOneStandsOut)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    chart.resize(900, 300);
    context.session.setTrace(runPuzzle("pipeline_fsdp"));
    QSet<int> named;
    for (const QString &text : chart.endLabelTexts()) {
        // In words ("ranks 0-15", "rank 3"), not "r0-15".
        const QString prefix = text.startsWith(QStringLiteral("ranks ")) ? QStringLiteral("ranks ")
                                                                         : QStringLiteral("rank ");
        ASSERT_TRUE(text.startsWith(prefix)) << text.toStdString();
        for (int rank : gui::parseRankList(text.mid(prefix.size()), 16, 16).ranks)
            named.insert(rank);
    }
    EXPECT_EQ(named.size(), 16) << chart.endLabelTexts().join(QStringLiteral(" | ")).toStdString();
    const gui::Palette &colors = context.appearance.look().colors();
    ASSERT_TRUE(chart.rankLinePen(2) && chart.rankLinePen(10));
    EXPECT_EQ(chart.rankLinePen(10)->widthF(), chart.rankLinePen(2)->widthF());
    context.session.setSelectedRank(10);
    EXPECT_GT(chart.rankLinePen(10)->widthF(), chart.rankLinePen(2)->widthF());
    EXPECT_EQ(chart.rankLinePen(10)->color(), colors.rank(10));
    EXPECT_NE(chart.rankLinePen(2)->color(), colors.rank(2));      // muted
    EXPECT_EQ(chart.rankLinePen(10)->style(), Qt::CustomDashLine); // its group's dashes
    EXPECT_EQ(chart.rankLinePen(10)->dashPattern(), gui::rankDashes(10));
    context.session.setSelectedRank(-1);
    EXPECT_EQ(chart.rankLinePen(2)->widthF(), chart.rankLinePen(10)->widthF());
    // Eight ranks have a legend and colors of their own: no labels at the ends.
    context.session.setTrace(runPuzzle("ddp"));
    EXPECT_TRUE(chart.endLabelTexts().isEmpty());
}

} // namespace

// The memory chart stacks one rank by kind on its own time axis, the rank of the
// maximum unless one is selected, and goes back to the ranks' lines.
TEST(MemoryChart, ByKindStacksTheRankOfTheMaximumThenTheSelectedRank)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    const auto gpipe = runPuzzle("gpipe");
    context.session.setTrace(gpipe);
    chart.setByKind(true);

    EXPECT_EQ(chart.kindRank(), 1); // GPipe's maximum: rank 1, t 30.4
    EXPECT_TRUE(lineSeries(chart, QStringLiteral("rank ")).isEmpty());
    const auto areas = kindAreas(chart);
    ASSERT_EQ(areas.size(), 5);
    EXPECT_EQ(areas[0]->name(), QStringLiteral("weights"));
    EXPECT_EQ(areas[4]->name(), QStringLiteral("weight grads"));
    EXPECT_EQ(stepHeights(chart.kindUpperEdge(0)), totals(*gpipe, 1, 1)); // weights alone
    EXPECT_EQ(stepHeights(chart.kindUpperEdge(4)), totals(*gpipe, 1, 5)); // all five kinds
    const std::vector<double> top = stepHeights(chart.kindUpperEdge(4));
    EXPECT_EQ(*std::max_element(top.begin(), top.end()), 4194304.0); // the peak
    EXPECT_EQ(chart.byKindButton()->text(), QStringLiteral("By kind: rank 1"));

    context.session.setSelectedRank(3);
    EXPECT_EQ(chart.kindRank(), 3);
    EXPECT_EQ(stepHeights(chart.kindUpperEdge(4)), totals(*gpipe, 3, 5));

    chart.byKindButton()->click(); // off: the ranks' lines again
    EXPECT_FALSE(chart.byKind());
    EXPECT_EQ(lineSeries(chart, QStringLiteral("rank ")).size(), 4);
    EXPECT_TRUE(kindAreas(chart).isEmpty());
    EXPECT_TRUE(chart.kindUpperEdge(4).isEmpty());
}

// The model-state memory of a rank (the session's lesson is data-parallel) is a dotted reference
// line with its words, and the memory axis reaches above it.
TEST(MemoryChart, ModelStateIsADottedLineWithItsWords)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    const auto lesson = dataParallelLesson();
    context.session.setLesson(&lesson);
    // 1000 features: 2 x 1000² x 2 layers = 4 MB, above DDP's maximum (1835008 B).
    const auto wide = withHidden(runPuzzle("ddp"), 1000);
    ASSERT_EQ(wide->config.layers, 2);
    ASSERT_GT(4000000, wide->figures.maxMemory);
    context.session.setTrace(wide);
    showAt900x300(chart);

    const auto lines = lineSeries(chart, QStringLiteral("model state"));
    ASSERT_EQ(lines.size(), 1);
    for (const QPointF &point : lines[0]->points())
        EXPECT_DOUBLE_EQ(point.y(), 4000000);
    EXPECT_EQ(lines[0]->pen().style(), Qt::DotLine);
    ASSERT_TRUE(chart.modelStateLabel()->isVisible());
    EXPECT_EQ(chart.modelStateLabel()->text(), QStringLiteral("model state per rank 4 MB"));
    const double y = chart.chart()->mapToPosition(QPointF(0, 4000000)).y(); // inside the plot
    EXPECT_TRUE(chart.plotArea().contains(QPointF(chart.plotArea().center().x(), y)));

    // Near 0 B (FSDP at 1024 ranks: 49 kB of 13 MB) the words go above the line, inside the plot:
    // 16 features, 2 x 16² x 2 = 1024 B.
    context.session.setTrace(withHidden(runPuzzle("ddp"), 16));
    ASSERT_TRUE(chart.modelStateLabel()->isVisible());
    const QRectF low =
        chart.modelStateLabel()->mapRectToParent(chart.modelStateLabel()->boundingRect());
    EXPECT_LE(low.bottom(), chart.plotArea().bottom() + 0.5);

    // A lesson of another kind (a pipeline's ranks split the layers) has no such line.
    const auto other = lessonWithTarget(std::nullopt);
    context.session.setLesson(&other);
    context.session.setTrace(wide);
    EXPECT_TRUE(lineSeries(chart, QStringLiteral("model state")).isEmpty());
    EXPECT_FALSE(chart.modelStateLabel()->isVisible());
}

std::shared_ptr<const Trace> withDevice(std::shared_ptr<const Trace> trace, std::int64_t bytes)
{
    Trace changed = *trace;
    changed.config.cost.deviceMemory = bytes;
    return std::make_shared<const Trace>(std::move(changed));
}

// The device's memory a trace carries (a cost model that names it) is an orange dash-dot line
// with its words, inside the memory axis' range, and the maximum's label says by how much the
// peak fits it or overflows it; a trace without it draws none of that.
TEST(MemoryChart, DrawsTheDevicesMemoryExactlyWhenTheTraceGivesIt)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    const auto ddp = runPuzzle("ddp"); // its maximum: 1835008 B on rank 0 at t 4
    context.session.setTrace(ddp);
    showAt900x300(chart);
    EXPECT_EQ(chart.deviceLine(), nullptr);
    EXPECT_FALSE(chart.deviceLabel()->isVisible());
    EXPECT_EQ(chart.maximumLabelText(), QStringLiteral("max 1.84 MB (rank 0, t 4)"));

    // 3 MB: above the maximum, so the axis must reach it.
    context.session.setTrace(withDevice(ddp, 3'000'000));
    QApplication::processEvents();
    const QLineSeries *line = chart.deviceLine();
    ASSERT_NE(line, nullptr);
    ASSERT_TRUE(chart.chart()->series().contains(const_cast<QLineSeries *>(line)));
    ASSERT_EQ(line->count(), 2);
    for (const QPointF &point : line->points())
        EXPECT_DOUBLE_EQ(point.y(), 3'000'000);
    EXPECT_EQ(line->pen().style(), Qt::DashDotLine);
    EXPECT_EQ(line->pen().color(), gui::kDeviceMemory);
    ASSERT_TRUE(chart.deviceLabel()->isVisible());
    EXPECT_EQ(chart.deviceLabel()->text(), QStringLiteral("3 MB: the device's memory"));
    const QRectF plot = chart.plotArea();
    const double y = chart.chart()->mapToPosition(QPointF(0, 3'000'000)).y();
    EXPECT_GT(y, plot.top());
    EXPECT_LT(y, plot.bottom());
    const QRectF words = chart.deviceLabel()->mapRectToParent(chart.deviceLabel()->boundingRect());
    EXPECT_TRUE(plot.contains(words)) << "the words sit inside the plot, above their line";
    EXPECT_LE(words.bottom(), y);
    EXPECT_FALSE(words.intersects(chart.maximumLabelRect()));
    EXPECT_EQ(chart.maximumLabelText(),
              QStringLiteral("max 1.84 MB (rank 0, t 4): fits, 1.16 MB to spare"));
    EXPECT_TRUE(chart.maximumLabel()->toolTip().startsWith(
        QStringLiteral("The peak fits the device's memory of 3000000 B (3 MB)")))
        << chart.maximumLabel()->toolTip().toStdString();

    // 1 MB: the peak overflows it by 835008 B.
    context.session.setTrace(withDevice(ddp, 1'000'000));
    QApplication::processEvents();
    ASSERT_NE(chart.deviceLine(), nullptr);
    EXPECT_EQ(chart.maximumLabelText(),
              QStringLiteral("max 1.84 MB (rank 0, t 4): 835.01 kB over the device's memory"));
    EXPECT_TRUE(chart.maximumLabel()->toolTip().startsWith(
        QStringLiteral("The peak is 835008 B (835.01 kB) over the device's memory")))
        << chart.maximumLabel()->toolTip().toStdString();

    // By kind draws it too; a trace without it again draws none.
    chart.setByKind(true);
    EXPECT_NE(chart.deviceLine(), nullptr);
    context.session.setTrace(ddp);
    QApplication::processEvents();
    EXPECT_EQ(chart.deviceLine(), nullptr);
    EXPECT_FALSE(chart.deviceLabel()->isVisible());
    EXPECT_EQ(chart.maximumLabel()->toolTip(), QString());
}

// The target and the model state are simulated bytes: a run in real time and bytes (a real-scale
// cost model, a run on real processes) shows neither line nor its words.
TEST(MemoryChart, ARunInRealTimeShowsNeitherTheTargetNorTheModelState)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    auto lesson = dataParallelLesson();
    lesson.targets = rankstep::lessons::Targets{SimTime(), 1800000};
    context.session.setLesson(&lesson);
    const auto wide = withHidden(runPuzzle("ddp"), 1000);
    context.session.setTrace(wide);
    showAt900x300(chart);
    ASSERT_EQ(lineSeries(chart, QStringLiteral("target")).size(), 1);
    ASSERT_EQ(lineSeries(chart, QStringLiteral("model state")).size(), 1);

    context.session.setTrace(wide, gui::TraceUnits::Seconds);
    QApplication::processEvents();
    EXPECT_TRUE(lineSeries(chart, QStringLiteral("target")).isEmpty());
    EXPECT_TRUE(lineSeries(chart, QStringLiteral("model state")).isEmpty());
    EXPECT_FALSE(chart.targetLabel()->isVisible());
    EXPECT_FALSE(chart.modelStateLabel()->isVisible());
}

// A run read from a file is not graded against the lesson open beside it (its function name is
// only a claim): its chart draws no target of that lesson, though a run of the code does.
TEST(MemoryChart, AnOpenedRunDrawsNoTargetOfTheLessonItWasNotGradedAgainst)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    const auto lesson = lessonWithTarget(1800000);
    context.session.setLesson(&lesson); // rankstep --lesson NAME --open FILE: the lesson first
    context.session.setOpenedTrace(runPuzzle("ddp"), gui::TraceUnits::SimulatedSteps);
    showAt900x300(chart);
    EXPECT_TRUE(lineSeries(chart, QStringLiteral("target")).isEmpty());
    EXPECT_FALSE(chart.targetLabel()->isVisible());

    context.session.setTrace(runPuzzle("ddp")); // the code run and graded: its target
    QApplication::processEvents();
    EXPECT_EQ(lineSeries(chart, QStringLiteral("target")).size(), 1);
    EXPECT_TRUE(chart.targetLabel()->isVisible());

    // Opened again over the graded run, then the lesson chosen again: still none.
    context.session.setOpenedTrace(runPuzzle("ddp"), gui::TraceUnits::SimulatedSteps);
    QApplication::processEvents();
    EXPECT_TRUE(lineSeries(chart, QStringLiteral("target")).isEmpty());
    EXPECT_FALSE(chart.targetLabel()->isVisible());
    context.session.setLesson(&lesson);
    QApplication::processEvents();
    EXPECT_TRUE(lineSeries(chart, QStringLiteral("target")).isEmpty());
    EXPECT_FALSE(chart.targetLabel()->isVisible());
}

// FSDP at 1024 ranks drew 1024 equal lines (a second of Qt Charts' shapes, and sharedLines
// compared a million pairs of lines): above 64 shown ranks, ranks with equal lines draw one.
TEST(MemoryChart, VeryManyRanksWithEqualLinesDrawEachLineOnce)
{
    rankstep::core::RunConfig config;
    config.ranks = 80;
    config.layers = 2;
    config.batches = 80;
    const rankstep::testing::PuzzleCase *ddp = nullptr;
    for (const auto &puzzle : rankstep::testing::referencePuzzles())
        if (puzzle.name == "ddp")
            ddp = &puzzle;
    ASSERT_TRUE(ddp);
    const auto trace =
        std::make_shared<const Trace>(rankstep::testing::runProgram(config, ddp->program));
    ASSERT_EQ(trace->status, rankstep::core::RunStatus::Ok);
    const auto series = gui::memorySeries(*trace);
    const auto shares = gui::sharedLines(series);
    ASSERT_EQ(shares.size(), 80U);
    for (std::size_t rank = 0; rank < shares.size(); ++rank)
        EXPECT_EQ(shares[rank], (gui::LineShare{int(rank), 80})) << rank;

    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setTrace(trace);
    const auto lines = lineSeries(chart, QStringLiteral("rank "));
    ASSERT_EQ(lines.size(), 1);
    EXPECT_EQ(lines[0]->name(), QStringLiteral("rank 0 and 79 more with the same memory"));
    EXPECT_EQ(lines[0]->pen().style(), Qt::SolidLine);
    const QList<QPointF> drawn = lines[0]->points(); // rank 0's line, whole (a few points)
    ASSERT_EQ(drawn.size(), qsizetype(series[0].size()));
    for (qsizetype i = 0; i < drawn.size(); ++i)
        EXPECT_EQ(drawn[i].y(), double(series[0][std::size_t(i)].memory)) << i;
    // The rank picker hides rank 0: the first shown rank draws the line for the others shown.
    context.session.setTrace(trace);
    std::vector<int> shown;
    for (int rank = 1; rank < 80; ++rank)
        shown.push_back(rank);
    context.session.setShownRanks(shown);
    const auto picked = lineSeries(chart, QStringLiteral("rank "));
    ASSERT_EQ(picked.size(), 1);
    EXPECT_EQ(picked[0]->name(), QStringLiteral("rank 1 and 78 more with the same memory"));
}

// --describe asks each view for the time it shows: the memory chart's is the session's cursor,
// and a chart with no run shows none.
TEST(MemoryChart, DescribesItselfAtTheSessionsCursorTime)
{
    gui::testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    EXPECT_EQ(chart.describedName(), QStringLiteral("memory"));
    EXPECT_FALSE(chart.shownTime().has_value());
    context.session.setTrace(runPuzzle("ddp"));
    showAt900x300(chart);
    for (const SimTime time : {SimTime::steps(2), SimTime::steps(4)}) {
        context.session.stepper().toTime(time);
        ASSERT_TRUE(chart.shownTime().has_value());
        EXPECT_EQ(*chart.shownTime(), context.session.stepper().cursorTime());
    }
    EXPECT_TRUE(chart.elidedTexts().isEmpty()) << chart.elidedTexts().join(u'|').toStdString();
}
