// SPDX-License-Identifier: MIT
// File > Export in the window and the figure options of rankstep-cli, run as a learner would.
#include "core/io/tracejson.h"
#include "exportactions.h"
#include "guitestsupport.h"
#include "palette.h"
#include "stepcontroller.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <cstdlib>
#include <utility>

namespace rankstep::gui {
namespace {

using testing::builtinLesson;
using testing::WindowTest;
using Kind = ExportActions::Kind;

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The root element's name and size attributes, empty when the file is no XML.
QString svgRoot(const QString &path)
{
    QXmlStreamReader xml(readAll(path));
    if (!xml.readNextStartElement())
        return {};
    const auto attributes = xml.attributes();
    return xml.name().toString() + QLatin1Char(' ') +
           attributes.value(QStringLiteral("width")).toString() + QLatin1Char('x') +
           attributes.value(QStringLiteral("height")).toString();
}

struct CliResult {
    int exitCode = -1;
    QString output;
};

// rankstep-cli without a display or a Qt platform: the figures must not need one.
CliResult runCli(const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        environment.remove(QString::fromLatin1(name));
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(QStringLiteral(RANKSTEP_SOURCE_DIR));
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral(RANKSTEP_CLI), arguments);
    if (!process.waitForFinished(60000))
        return {};
    return {process.exitCode(), QString::fromUtf8(process.readAll())};
}

// The leftmost x in rows [top, bottom) of a pixel close to one of colors (lines are
// antialiased); -1 if none.
int leftmostOf(const QImage &image, int top, int bottom, const QList<QColor> &colors)
{
    const auto close = [&colors](QColor pixel) {
        for (const QColor &color : colors)
            if (std::abs(pixel.red() - color.red()) + std::abs(pixel.green() - color.green()) +
                    std::abs(pixel.blue() - color.blue()) <
                30)
                return true;
        return false;
    };
    int left = -1;
    for (int y = top; y < bottom; ++y)
        for (int x = 0; x < image.width() && (left < 0 || x < left); ++x)
            if (close(image.pixelColor(x, y)))
                left = x;
    return left;
}

// Where rank 0's first block starts in the timeline and where the memory lines start in the
// chart below it: both at time 0 when the chart's time axis lines up with the timeline's.
std::pair<int, int> timeZeroColumns(const QImage &image, const core::Trace &trace)
{
    const QColor block =
        Palette::of(Palette::Scheme::Standard).event(trace.events.front(), trace.config.layers);
    // Below the timeline's rows (whose rank strips have these colors too); the first ranks'
    // colors, which no axis, grid or text of the chart has.
    QList<QColor> lines;
    for (int rank = 0; rank < 3; ++rank)
        lines << Palette::of(Palette::Scheme::Standard).rank(rank);
    return {leftmostOf(image, 150, 500, {block}), leftmostOf(image, 600, 1040, lines)};
}

// Whether row 920 of the figure (in the chart's plot, clear of the memory labels and lines)
// has a line within 4 pixels of x: the chart's grid line at time 0 when its axis lines up.
bool chartGridNear(const QImage &image, int x)
{
    for (int column = x - 4; column <= x + 4; ++column) {
        const QColor pixel = image.pixelColor(column, 920);
        if (pixel.red() + pixel.green() + pixel.blue() < 720)
            return true;
    }
    return false;
}

QStringList ddpRun()
{
    return {QStringLiteral("run"),        QStringLiteral("lessons/30-ddp/solution.py"),
            QStringLiteral("--function"), QStringLiteral("ddp"),
            QStringLiteral("--ranks"),    QStringLiteral("4"),
            QStringLiteral("--layers"),   QStringLiteral("2"),
            QStringLiteral("--batches"),  QStringLiteral("4")};
}

TEST(ExportCommand, RunWritesTheFiguresAndTheTraceWithoutADisplay)
{
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("x.svg")), png = dir.filePath("x.png"),
                  json = dir.filePath("x.json"), state = dir.filePath("state.png");
    const CliResult result = runCli(ddpRun() << "--svg" << svg << "--png" << png << "--trace-json"
                                             << json << "--state-png" << state << "--at"
                                             << "20");
    ASSERT_EQ(result.exitCode, 0) << result.output.toStdString();
    EXPECT_TRUE(result.output.contains(QStringLiteral("Correct!")));
    EXPECT_EQ(svgRoot(svg), QStringLiteral("svg 1920x1080"));
    EXPECT_EQ(QImage(png).size(), QSize(1920, 1080));
    EXPECT_GT(testing::distinctColors(QImage(png)), 50);
    EXPECT_EQ(QImage(state).size(), QSize(1920, 1080));
    const auto trace = io::traceFromJson(readAll(json).toStdString());
    ASSERT_TRUE(trace) << trace.error().message;
    EXPECT_EQ(trace->events.size(), 36u);
    EXPECT_EQ(trace->figures.maxMemory, 1835008);
}

TEST(ExportCommand, LessonTakesTheFigureOptionsToo)
{
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("gpipe.svg"));
    const CliResult result = runCli({QStringLiteral("lesson"), QStringLiteral("gpipe"),
                                     QStringLiteral("--solution"), QStringLiteral("--svg"), svg});
    ASSERT_EQ(result.exitCode, 0) << result.output.toStdString();
    const QByteArray text = readAll(svg);
    EXPECT_TRUE(text.contains("<title>GPipe: gpipe")) << text.left(600).toStdString();
    EXPECT_TRUE(text.contains(">target ")) << "the lesson's memory target is not drawn";
}

// A figure that cannot be written has an exit code of its own (73); a bad cursor is bad usage.
TEST(ExportCommand, AnUnwritableFigureFailsWithItsOwnCodeAndABadCursorIsAUsageError)
{
    const CliResult unwritable =
        runCli(ddpRun() << "--png" << QStringLiteral("/nonexistent-rankstep-folder/x.png"));
    EXPECT_EQ(unwritable.exitCode, 73);
    EXPECT_TRUE(unwritable.output.contains(
        QStringLiteral("Could not write /nonexistent-rankstep-folder/x.png: its folder does not "
                       "exist")))
        << unwritable.output.toStdString();
    QTemporaryDir dir;
    const CliResult badCursor = runCli(ddpRun() << "--state-png" << dir.filePath("s.png") << "--at"
                                                << "99");
    EXPECT_EQ(badCursor.exitCode, 64);
    EXPECT_TRUE(badCursor.output.contains(QStringLiteral("--at")))
        << badCursor.output.toStdString();
}

TEST(ExportCommand, TheChartsTimeAxisLinesUpWithTheTimelines)
{
    // 16 ranks, 4 layers: the chart has no legend, and Qt Charts once kept the axes of its own
    // layout there while the plot area was pinned.
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("d16.png")), json = dir.filePath("d16.json");
    QStringList arguments = ddpRun();
    arguments.replace(5, QStringLiteral("16"));
    arguments.replace(7, QStringLiteral("4"));
    arguments.replace(9, QStringLiteral("16"));
    const CliResult result = runCli(arguments << "--png" << png << "--trace-json" << json);
    ASSERT_EQ(result.exitCode, 0) << result.output.toStdString();
    const auto trace = io::traceFromJson(readAll(json).toStdString());
    ASSERT_TRUE(trace) << trace.error().message;
    ASSERT_EQ(trace->config.ranks, 16);
    const auto [timeline, chart] = timeZeroColumns(QImage(png), *trace);
    ASSERT_GT(timeline, 100);
    EXPECT_NEAR(chart, timeline, 4);
    EXPECT_TRUE(chartGridNear(QImage(png), timeline)) << "the chart's axis is not the timeline's";
}

// A run of more ranks than the timeline's half of the figure holds at its least row height (96
// ranks of 4 pixels and more in about 300): the rows that do not fit are left out, as a view
// scrolls them away. They were drawn on down through the memory plot below.
TEST(ExportCommand, TheTimelineOfManyRanksStaysAboveTheMemoryPlot)
{
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("d96.png")), json = dir.filePath("d96.json");
    QStringList arguments = ddpRun();
    arguments.replace(5, QStringLiteral("96"));
    arguments.replace(9, QStringLiteral("96"));
    const CliResult result = runCli(arguments << "--png" << png << "--trace-json" << json);
    ASSERT_EQ(result.exitCode, 0) << result.output.toStdString();
    const auto trace = io::traceFromJson(readAll(json).toStdString());
    ASSERT_TRUE(trace) << trace.error().message;
    // The blocks' colors (solid fills) that neither a rank's memory line nor the maximum's point
    // (the loss's red) has.
    const Palette &colors = Palette::of(Palette::Scheme::Standard);
    QSet<QRgb> blocks;
    for (const core::Event &event : trace->events)
        blocks.insert(colors.event(event, trace->config.layers).rgb());
    for (int rank = 0; rank < trace->config.ranks; ++rank)
        blocks.remove(colors.rank(rank).rgb());
    blocks.remove(colors.maximum().rgb());
    const QImage image(png);
    ASSERT_EQ(image.size(), QSize(1920, 1080));
    const auto blockPixels = [&](int top, int bottom) {
        int count = 0;
        for (int y = top; y < bottom; ++y)
            for (int x = 0; x < image.width(); ++x)
                count += blocks.contains(image.pixel(x, y));
        return count;
    };
    EXPECT_GT(blockPixels(250, 550), 1000) << "the timeline's blocks are not where they were";
    EXPECT_EQ(blockPixels(700, 1000), 0) << "the timeline's rows run through the memory plot";
}

using ExportActionsTest = WindowTest;

TEST_F(ExportActionsTest, ExportsOnlyARunAndWritesWhatTheWindowShows)
{
    auto window = makeWindow();
    auto *actions = window->findChild<ExportActions *>();
    ASSERT_NE(actions, nullptr);
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    for (int kind = 0; kind < ExportActions::kKinds; ++kind)
        EXPECT_FALSE(actions->action(Kind(kind))->isEnabled()) << kind;
    QTemporaryDir dir;
    EXPECT_FALSE(actions->exportTo(Kind::TimelineSvg, dir.filePath("none.svg")).isEmpty());

    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
    ASSERT_TRUE(runAndWait(*window));
    for (int kind = 0; kind < ExportActions::kKinds; ++kind)
        EXPECT_TRUE(actions->action(Kind(kind))->isEnabled()) << kind;
    EXPECT_EQ(actions->suggestedName(Kind::TimelineSvg), QStringLiteral("ddp-timeline.svg"));

    const QString png = dir.filePath(QStringLiteral("ddp.png")); // 4 ranks: with the legend
    ASSERT_EQ(actions->exportTo(Kind::TimelinePng, png), QString());
    const auto [timeline, chart] = timeZeroColumns(QImage(png), *window->parts().session->trace());
    ASSERT_GT(timeline, 100);
    EXPECT_NEAR(chart, timeline, 4);
    EXPECT_TRUE(chartGridNear(QImage(png), timeline)) << "the chart's axis is not the timeline's";

    window->parts().stepper->toEvent(19);
    const QString svg = dir.filePath(QStringLiteral("ddp.svg"));
    ASSERT_EQ(actions->exportTo(Kind::TimelineSvg, svg), QString());
    EXPECT_EQ(svgRoot(svg), QStringLiteral("svg 1920x1080"));
    const QString state = dir.filePath(QStringLiteral("state.png"));
    ASSERT_EQ(actions->exportTo(Kind::StatePng, state), QString());
    EXPECT_EQ(QImage(state).size(), QSize(1920, 1080));
    const QString why = dir.filePath(QStringLiteral("ddp-why.svg")); // the Why tab as a figure
    ASSERT_EQ(actions->exportTo(Kind::ExplainSvg, why), QString());
    EXPECT_EQ(svgRoot(why), QStringLiteral("svg 1920x1080"));
    EXPECT_TRUE(readAll(why).contains("Peak 1835008 B on rank 0 at t 4"));
    const QString whyPng = dir.filePath(QStringLiteral("ddp-why.png"));
    ASSERT_EQ(actions->exportTo(Kind::ExplainPng, whyPng), QString());
    EXPECT_EQ(QImage(whyPng).size(), QSize(1920, 1080));
    const QString perfetto = dir.filePath(QStringLiteral("ddp-perfetto.json"));
    ASSERT_EQ(actions->exportTo(Kind::PerfettoTrace, perfetto), QString());
    EXPECT_TRUE(readAll(perfetto).startsWith("{\"traceEvents\""));
    const QString json = dir.filePath(QStringLiteral("ddp-trace.json"));
    ASSERT_EQ(actions->exportTo(Kind::TraceJson, json), QString());
    io::TraceJsonOptions written;
    ASSERT_TRUE(io::traceFromJson(readAll(json).toStdString(), written));
    EXPECT_EQ(written.function, "ddp");

    const QString error = actions->exportTo(Kind::TimelinePng, QStringLiteral("/proc/x.png"));
    EXPECT_TRUE(error.startsWith(QStringLiteral("Could not write /proc/x.png")))
        << error.toStdString();

    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    EXPECT_FALSE(actions->action(Kind::TimelinePng)->isEnabled());
}

// How many pixels of the image have exactly `color`.
int pixelsOf(const QImage &image, const QColor &color)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += image.pixel(x, y) == color.rgb();
    return count;
}

// Under llama3-405b the trace names its device's 80 GB: the run's figures say whether the peak
// fits it, and the figures rankstep-figures draws from that trace (the timeline's memory plot and
// explain's slide) draw its line and say it as the app does. At 8 ranks and 4 of Llama 3's layers
// a tensor group of 2 keeps more than 80 GB of weights, gradients and Adam's states, one of 8 fits.
TEST(ExportCommand, TheFiguresDrawAndTheSummarySaysTheDevicesMemoryTheTraceNames)
{
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("x.svg")), png = dir.filePath("x.png"),
                  why = dir.filePath(QStringLiteral("why.svg"));
    QStringList run = {QStringLiteral("lessons/99-four_d/solution.py"),
                       QStringLiteral("--cost"),
                       QStringLiteral("llama3-405b"),
                       QStringLiteral("--ranks"),
                       QStringLiteral("8"),
                       QStringLiteral("--layers"),
                       QStringLiteral("4"),
                       QStringLiteral("--batches"),
                       QStringLiteral("4"),
                       QStringLiteral("--tensor"),
                       QStringLiteral("2")};
    const CliResult over =
        runCli(QStringList{QStringLiteral("run")} << run << "--svg" << svg << "--png" << png);
    ASSERT_EQ(over.exitCode, 0) << over.output.toStdString();
    EXPECT_TRUE(over.output.contains(QRegularExpression(QStringLiteral(
        "Maximum Memory: .* time: [0-9.]+ s, [0-9.]+ [kMG]?B over the 80 GB device\n"))))
        << over.output.toStdString();
    const QByteArray text = readAll(svg);
    EXPECT_TRUE(text.contains(": the device&apos;s memory") ||
                text.contains(": the device's memory"))
        << "no device's words in the SVG";
    EXPECT_TRUE(text.contains("over the device"))
        << "the maximum's label says nothing of the device";
    EXPECT_GT(pixelsOf(QImage(png), kDeviceMemory), 300) << "no device's line in the PNG";

    const CliResult explain =
        runCli(QStringList{QStringLiteral("explain")} << run << "--svg" << why);
    ASSERT_EQ(explain.exitCode, 0) << explain.output.toStdString();
    EXPECT_TRUE(readAll(why).contains("over the device")) << "explain's slide says nothing of it";

    run.replace(10, QStringLiteral("8"));
    const CliResult fits = runCli(QStringList{QStringLiteral("run")} << run);
    ASSERT_EQ(fits.exitCode, 0) << fits.output.toStdString();
    EXPECT_TRUE(fits.output.contains(QRegularExpression(
        QStringLiteral("time: [0-9.]+ s, fits 80 GB, [0-9.]+ [kMG]?B to spare\n"))))
        << fits.output.toStdString();
}

} // namespace
} // namespace rankstep::gui
