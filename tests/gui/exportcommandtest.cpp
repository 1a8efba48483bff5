// SPDX-License-Identifier: MIT
// File > Export in the window and the figure options of rankstep-cli, run as a learner would.
#include "core/io/tracejson.h"
#include "exportactions.h"
#include "guitestsupport.h"
#include "stepcontroller.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>

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

TEST(ExportCommand, AnUnwritableFigureOrABadCursorIsAUsageError)
{
    const CliResult unwritable =
        runCli(ddpRun() << "--png" << QStringLiteral("/nonexistent-rankstep-folder/x.png"));
    EXPECT_EQ(unwritable.exitCode, 64);
    EXPECT_TRUE(unwritable.output.contains(
        QStringLiteral("Could not write /nonexistent-rankstep-folder/x.png")))
        << unwritable.output.toStdString();
    QTemporaryDir dir;
    const CliResult badCursor = runCli(ddpRun() << "--state-png" << dir.filePath("s.png") << "--at"
                                                << "99");
    EXPECT_EQ(badCursor.exitCode, 64);
    EXPECT_TRUE(badCursor.output.contains(QStringLiteral("--at")))
        << badCursor.output.toStdString();
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

    window->stepController()->toEvent(19);
    const QString svg = dir.filePath(QStringLiteral("ddp.svg"));
    ASSERT_EQ(actions->exportTo(Kind::TimelineSvg, svg), QString());
    EXPECT_EQ(svgRoot(svg), QStringLiteral("svg 1920x1080"));
    const QString state = dir.filePath(QStringLiteral("state.png"));
    ASSERT_EQ(actions->exportTo(Kind::StatePng, state), QString());
    EXPECT_EQ(QImage(state).size(), QSize(1920, 1080));
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

} // namespace
} // namespace rankstep::gui
