// SPDX-License-Identifier: MIT
// The exported figures and trace files, read back the way other programs read them: the SVG as
// XML, the PNG as an image, the JSON trace by Rankstep's reader, the Perfetto file as JSON.
#include "core/io/tracejson.h"
#include "exportfiles.h"
#include "guitestsupport.h"
#include "palette.h"
#include "statepanels.h"
#include "statetestsupport.h"
#include "stateview.h"
#include "tests/core/referencepuzzles.h"
#include "theme.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QSet>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <map>

namespace rankstep::gui {
namespace {

using testing::ReplayedRun;

// What an SVG holds: its root's attributes, how many of each element, and every text.
struct SvgSummary {
    QString width, height, viewBox;
    std::map<QString, int> elements;
    QStringList texts;
    bool wellFormed = false;
};

SvgSummary readSvg(const QByteArray &svg)
{
    SvgSummary summary;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QString name = xml.name().toString();
        if (summary.elements.empty()) {
            summary.width = xml.attributes().value(QStringLiteral("width")).toString();
            summary.height = xml.attributes().value(QStringLiteral("height")).toString();
            summary.viewBox = xml.attributes().value(QStringLiteral("viewBox")).toString();
        }
        ++summary.elements[name];
        if (name == QStringLiteral("text"))
            summary.texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
    summary.wellFormed = !xml.hasError();
    return summary;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool holdsColor(const QImage &image, const QColor &color)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            if (line[x] == color.rgb())
                return true;
    }
    return false;
}

TEST(ExportFigure, SvgIsSlideSizedVectorWithEveryRankLabelAsText)
{
    ReplayedRun run("ddp");
    FigureOptions options;
    options.title = QStringLiteral("DDP: ddp");
    const SvgSummary svg = readSvg(timelineFigureSvg(run.trace(), options));
    ASSERT_TRUE(svg.wellFormed);
    EXPECT_EQ(svg.width, QStringLiteral("1920"));
    EXPECT_EQ(svg.height, QStringLiteral("1080"));
    EXPECT_EQ(svg.viewBox, QStringLiteral("0 0 1920 1080"));
    EXPECT_EQ(svg.elements.count(QStringLiteral("svg")), 1u);
    EXPECT_EQ(svg.elements.count(QStringLiteral("image")), 0u) << "a raster inside the SVG";
    const auto count = [&](const char *name) {
        const auto it = svg.elements.find(QLatin1String(name));
        return it == svg.elements.end() ? 0 : it->second;
    };
    // 36 blocks at least, the memory lines, the axes.
    EXPECT_GE(count("rect") + count("path") + count("polyline"), 36 + 4);
    for (int rank = 0; rank < 4; ++rank)
        EXPECT_TRUE(svg.texts.contains(QStringLiteral("rank %1").arg(rank))) << rank;
    EXPECT_TRUE(svg.texts.contains(QStringLiteral("DDP: ddp")));
    EXPECT_TRUE(svg.texts.contains(QStringLiteral("time (steps)")));
    EXPECT_TRUE(svg.texts.contains(QStringLiteral(
        "Timesteps 5.1, max memory 1835008 B (1.84 MB) on rank 0 at t 4 · 4 ranks, 2 layers, 4 "
        "batches")))
        << svg.texts.join(QLatin1Char('|')).toStdString();
}

// A trace whose ticks are microseconds (a real-scale cost model, or a real run) is exported in
// the window's unit: the timeline's and the memory plot's axes in ms, the summary in seconds as
// the run's summary says them. They said "steps" of a run that took 20 seconds.
TEST(ExportFigure, ATraceOfMicrosecondTicksSaysItsTimesInMillisecondsAndSeconds)
{
    ReplayedRun run("ddp");
    auto realScale = std::make_shared<core::Trace>(*run.trace());
    realScale->config.cost.network = core::Network{};
    const SvgSummary svg = readSvg(timelineFigureSvg(realScale, FigureOptions{}));
    ASSERT_TRUE(svg.wellFormed);
    EXPECT_TRUE(svg.texts.contains(QStringLiteral("time (ms)")))
        << svg.texts.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(svg.texts.contains(QStringLiteral("ms")));
    EXPECT_FALSE(svg.texts.contains(QStringLiteral("time (steps)")));
    EXPECT_FALSE(svg.texts.contains(QStringLiteral("steps")));
    // The memory plot's maximum in the axis's unit: it said "t 4" beside "time (ms)".
    EXPECT_TRUE(svg.texts.contains(QStringLiteral("max 1.84 MB (rank 0, t 4 ms)")))
        << svg.texts.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(svg.texts.contains(QStringLiteral(
        "Timesteps 0.005 s, max memory 1835008 B (1.84 MB) on rank 0 at 0.004 s · 4 ranks, 2 "
        "layers, 4 batches")))
        << svg.texts.join(QLatin1Char('|')).toStdString();

    FigureOptions real;
    real.realRun = true; // the app's export of a run on real processes
    const SvgSummary realRun = readSvg(timelineFigureSvg(run.trace(), real));
    EXPECT_TRUE(realRun.texts.contains(QStringLiteral("time (ms)")));
    EXPECT_FALSE(realRun.texts.contains(QStringLiteral("time (steps)")));
}

// Ranks 0-2 compute, then wait in an allreduce that rank 3 (which only computes) never calls.
core::RankTask computeThenRankThreeSkips(core::Model &m)
{
    const std::pair<core::Object, core::Object> loaded = m.loadWeights(0);
    const core::Object input = m.getActivation({m.rank});
    (void)m.forward(0, input, loaded.first);
    if (m.rank == 3)
        co_return;
    const core::Object grad = m.fakeGrad(0, {m.rank});
    co_await m.allreduce(grad, 0);
}

TEST(ExportFigure, AHungRunSaysSoInItsTitleAndMarksWhereItHung)
{
    const auto trace = std::make_shared<const core::Trace>(
        rankstep::testing::runProgram(core::RunConfig{4, 2, 4, {}}, computeThenRankThreeSkips));
    ASSERT_EQ(trace->status, core::RunStatus::Deadlock);
    FigureOptions options;
    options.title = QStringLiteral("Hang: every_rank_reduces");

    const SvgSummary svg = readSvg(timelineFigureSvg(trace, options));

    const std::string texts = svg.texts.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(svg.texts.contains(QStringLiteral("Hang: every_rank_reduces (hung)"))) << texts;
    EXPECT_NE(texts.find("Hung: rank 3 finished without calling allreduce(layer 0) · Timesteps "),
              std::string::npos)
        << texts;
    EXPECT_TRUE(svg.texts.contains(QStringLiteral("hung here")))
        << svg.texts.join(QLatin1Char('|')).toStdString();
}

TEST(ExportFigure, SvgRendersToTheSamePictureSize)
{
    ReplayedRun run("gpipe");
    QSvgRenderer renderer(timelineFigureSvg(run.trace(), FigureOptions{}));
    ASSERT_TRUE(renderer.isValid());
    EXPECT_EQ(renderer.defaultSize(), QSize(1920, 1080));
}

TEST(ExportFigure, PngHasTheAskedSizeAndEveryRanksColor)
{
    ReplayedRun run("ddp");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("ddp.png"));
    FigureOptions options;
    options.size = QSize(1600, 900);
    ASSERT_EQ(writeTimelinePng(run.trace(), options, path), QString());
    const QImage image(path);
    ASSERT_EQ(image.size(), QSize(1600, 900));
    EXPECT_GT(testing::distinctColors(image), 50);
    for (int rank = 0; rank < 4; ++rank)
        EXPECT_TRUE(holdsColor(image, Palette::of(Palette::Scheme::Standard).rank(rank)))
            << "rank " << rank;
}

TEST(ExportFigure, StatePngShowsTheStateAtTheCursor)
{
    ReplayedRun run("ddp");
    QTemporaryDir dir;
    const QString home = dir.filePath(QStringLiteral("home.png"));
    const QString later = dir.filePath(QStringLiteral("later.png"));
    ASSERT_EQ(writeStatePng(run.trace(), run.stateAt(run.home()), {}, home), QString());
    ASSERT_EQ(writeStatePng(run.trace(), run.afterSlices(6), {}, later), QString());
    const QImage before(home), after(later);
    ASSERT_EQ(after.size(), QSize(1920, 1080));
    EXPECT_GT(testing::distinctColors(after), 20);
    EXPECT_NE(before, after) << "the state at home and after six slices look the same";
}

TEST(ExportFigure, StatePngOfManyRanksShowsThePickedRanks)
{
    ReplayedRun run({24, 2, 24, {}}, rankstep::testing::fsdp);
    const replay::RunState state = run.afterSlices(40);
    FigureOptions first, last;
    last.ranks = {20, 21, 22, 23};
    const QImage firstImage = renderStateFigure(run.trace(), state, first);
    const QImage lastImage = renderStateFigure(run.trace(), state, last);
    ASSERT_EQ(lastImage.size(), QSize(1920, 1080));
    EXPECT_GT(testing::distinctColors(lastImage), 20);
    EXPECT_NE(firstImage, lastImage) << "ranks 20-23 drawn as the first sixteen";
    FigureOptions firstSixteen;
    for (int rank = 0; rank < 16; ++rank)
        firstSixteen.ranks.push_back(rank);
    EXPECT_EQ(renderStateFigure(run.trace(), state, firstSixteen), firstImage);
}

// The figure draws the state with the function the state view paints with: the same panels.
TEST(ExportFigure, StatePanelsAreTheStateViewsPanels)
{
    ReplayedRun run("gpipe");
    const replay::RunState state = run.afterSlices(12);
    testing::ViewContext context;
    StateView view(context.session, context.appearance);
    view.setAnimated(false);
    view.setPalette(themePalette(Theme::Light));
    context.session.setTrace(run.trace());
    view.setState(state);
    view.setSelectedRank(1);
    view.resize(900, 600);
    const QImage shown = view.grab()
                             .toImage()
                             .convertToFormat(QImage::Format_RGB32)
                             .copy(view.gridArea().toAlignedRect());
    QImage background(QSize(900, 600), QImage::Format_RGB32);
    background.fill(themePalette(Theme::Light).color(QPalette::Window));
    StateScene scene;
    scene.trace = run.trace().get();
    scene.state = &state;
    scene.ranks = shownRanks({}, int(state.ranks.size()));
    scene.area = view.gridArea(); // under the key of the kinds and the focus box
    scene.palette = view.palette();
    scene.font = view.font();
    scene.selected = 1;
    const QRect panels = scene.area.toAlignedRect();
    const auto paint = [&](StatePanelCache *cache) {
        QImage image = background.copy();
        QPainter painter(&image);
        paintStatePanels(painter, scene, cache);
        return image.copy(panels);
    };
    // Through a cache of panel backgrounds as the view does: pixel for pixel.
    StatePanelCache cache;
    EXPECT_EQ(paint(&cache), shown);
    // Without one, as the figure does: the same panels, only the frames' antialiasing differs.
    const QImage direct = paint(nullptr);
    int differing = 0;
    for (int y = 0; y < direct.height(); ++y)
        for (int x = 0; x < direct.width(); ++x)
            differing += direct.pixel(x, y) != shown.pixel(x, y);
    EXPECT_LT(differing, direct.width() * direct.height() / 50);
}

TEST(ExportFigure, JsonTraceReadsBackToTheSameText)
{
    ReplayedRun run("gpipe");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("gpipe.json"));
    ASSERT_EQ(writeTraceJson(*run.trace(), {"gpipe.py", "gpipe"}, path), QString());
    const QByteArray text = readAll(path);
    io::TraceJsonOptions options;
    const auto trace = io::traceFromJson(text.toStdString(), options);
    ASSERT_TRUE(trace) << trace.error().message;
    EXPECT_EQ(trace->events.size(), run.trace()->events.size());
    EXPECT_EQ(trace->figures.maxMemory, run.trace()->figures.maxMemory);
    EXPECT_EQ(options.function, "gpipe");
    EXPECT_EQ(io::traceToJson(*trace, options), text.toStdString());
}

TEST(ExportFigure, PerfettoTraceIsJsonWithOneSlicePerEvent)
{
    ReplayedRun run("ddp");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("ddp-perfetto.json"));
    ASSERT_EQ(writePerfettoTrace(*run.trace(), path), QString());
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(readAll(path), &error);
    ASSERT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString();
    const QJsonArray events = document.object().value(QStringLiteral("traceEvents")).toArray();
    qsizetype slices = 0;
    for (const QJsonValue &event : events)
        slices += event.toObject().value(QStringLiteral("ph")).toString() == QStringLiteral("X");
    EXPECT_EQ(slices, qsizetype(run.trace()->events.size()));
    EXPECT_EQ(slices, 36);
}

TEST(ExportFigure, AnUnwritablePathIsAnErrorNamingTheFile)
{
    ReplayedRun run("ddp");
    const QString path = QStringLiteral("/nonexistent-rankstep-folder/figure.svg");
    const QString error = writeTimelineSvg(run.trace(), {}, path);
    EXPECT_TRUE(error.startsWith(QStringLiteral("Could not write ") + path)) << error.toStdString();
    EXPECT_FALSE(QFile::exists(path));
}

} // namespace
} // namespace rankstep::gui
