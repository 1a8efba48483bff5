// SPDX-License-Identifier: MIT
// Presenting at a projector's 1920x1080 and 150%: the memory chart keeps a quarter of the height
// however the window got its size, and the text of the lesson, code included, grows with the zoom.
#include "appearance.h"
#include "elisions.h"
#include "explainview.h"
#include "guitestsupport.h"
#include "legendbar.h"
#include "lessonpanel.h"
#include "liveobjectsmodel.h"
#include "memorychart.h"
#include "memorypagesplit.h"
#include "presentation.h"
#include "quizcontroller.h"
#include "rankoverview.h"
#include "resultspanel.h"
#include "staterankpicker.h"
#include "stateview.h"
#include "stepcontroller.h"
#include "tempdir.h"
#include "tests/gui/support/layoutwaits.h"
#include "timelineview.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFontMetricsF>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>

namespace rankstep::gui::testing {
namespace {

using PresentationSizeTest = WindowTest;

TEST_F(PresentationSizeTest, TheMemoryChartKeepsAQuarterOfTheHeightAt1920x1080And150Percent)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().stepper->home();
    window->parts().stepper->next(); // stepping: the state tab
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    ASSERT_TRUE(settleLayouts(*window));
    window->resize(1920, 1080); // as a projector's full screen arrives: after the arrangement
    ASSERT_TRUE(settleLayouts(*window));
    EXPECT_GE(window->parts().memoryChart->height(), 1080 / 4);
}

// Seen presenting at 1920x1080 and 150%: the results showed the verdict and Timesteps, and
// Maximum memory only after scrolling.
TEST_F(PresentationSizeTest, TheResultsShowBothFiguresAt1920x1080And150Percent)
{
    auto window = makeWindow();
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("gpipe")).solution));
    ASSERT_TRUE(runAndWait(*window));
    window->resize(1920, 1080); // the projector's full screen arrives (the offscreen one is small)
    ASSERT_TRUE(settleLayouts(*window));
    ASSERT_TRUE(runAndWait(*window)); // and the teacher runs again: the run's end arranges
    ASSERT_TRUE(settleLayouts(*window));
    const ResultsPanel &results = *window->parts().results;
    ASSERT_TRUE(results.text().contains(QStringLiteral("Maximum memory")));
    EXPECT_GE(results.height(), results.headHeight())
        << window->height() << " " << window->parts().memoryChart->height() << " "
        << window->parts().presentation->isActive();
    // The head is the verdict and two rows at the zoomed font: more than four lines of it.
    EXPECT_GT(results.headHeight(), 4 * QFontMetricsF(results.font()).lineSpacing());
}

TEST_F(PresentationSizeTest, At1280x800EveryRanksRowOfTheTimelineHasRoomForItsName)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().stepper->home();
    window->parts().stepper->next(); // stepping: the state tab
    window->parts().presentation->setActive(true);
    ASSERT_TRUE(settleLayouts(*window));
    window->resize(1280, 800); // the offscreen screen is smaller
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    const TimelineView &timeline = *window->parts().timeline;
    EXPECT_GE(timeline.rowLayout().rowHeight, QFontMetricsF(timeline.font()).height())
        << "4 rows in " << timeline.height() << " pixels";
    EXPECT_GE(window->parts().memoryChart->height(), 800 / 4);
}

// Seen presenting at 1280x800 and 150%: the window grew to 906 px high, past the screen, because
// the Experiments tab's chart (180 px and a table) set the left tabs' minimum height. Every tab
// shown once, the window's minimum still fits the screen.
TEST_F(PresentationSizeTest, At1280x800And150PercentTheWindowFitsTheScreen)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("bubble"))); // has experiments
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    ASSERT_TRUE(runAndWait(*window));
    window->resize(1280, 800);
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    EXPECT_LE(window->minimumSizeHint().height(), 800);
    EXPECT_LE(window->minimumSizeHint().width(), 1280);
    EXPECT_LE(window->height(), 800);
}

// Presenting at 1280x800 and 150% with the quiz, the window was 928 px high on the 800 px screen
// (the left tabs counted every page's least height and their hidden bar's, above two rows of tab
// titles), rank 0's row was half scrolled away and rank 3's hidden, and a question about rank 2's
// memory showed four summaries too small to answer from. The window fits, every rank's row shows
// whole, and a question about a rank shows its panel large.
TEST_F(PresentationSizeTest, At1280x800And150PercentTheQuizFitsWithEveryRowAndItsRanksPanel)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    window->findChild<QAction *>(QStringLiteral("quizAction"))->setChecked(true);
    ASSERT_TRUE(settleLayouts(*window)); // full screen first, then the 1280x800 screen's size
    StepController &stepper = *window->parts().stepper;
    stepper.setStepMode(StepController::StepMode::Operation);
    stepper.home();
    const QuizController &quiz = *window->parts().quiz;
    bool askedAboutARank = false;
    for (int press = 0; press < 60 && !askedAboutARank; ++press) {
        stepper.next();
        askedAboutARank = quiz.isAsking() && quiz.question()->rank >= 0;
    }
    ASSERT_TRUE(askedAboutARank) << "the DDP run asks about one rank's memory";
    window->resize(1280, 800);
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    EXPECT_LE(window->minimumSizeHint().height(), 800);
    EXPECT_LE(window->height(), 800);
    const TimelineView &timeline = *window->parts().timeline;
    const RowLayout &rows = timeline.rowLayout();
    ASSERT_EQ(rows.rows, 4);
    for (int row = 0; row < rows.rows; ++row) {
        EXPECT_GE(rows.rowTop(row), rows.axisHeight - 0.5) << "row " << row << " scrolled away";
        EXPECT_LE(rows.rowTop(row + 1), timeline.height() + 0.5) << "row " << row << " cut";
    }
    const StateView &state = *window->parts().stateView;
    EXPECT_TRUE(state.isFocusing());
    EXPECT_EQ(state.focusedRank(), quiz.question()->rank);
    EXPECT_FALSE(state.showsSummary(quiz.question()->rank)) << "its objects, labelled";
}

// Presenting at 150%, the Ranks tab's rank chooser (the legend's "Ranks 0-15 ▾") kept the width it
// asked for at 100%: its button was cut at both ends, and at 1280x800 the tab's title, key and hint
// ran past its right edge. At each screen every one of them shows whole.
TEST_F(PresentationSizeTest, TheRanksTabAndItsRankChooserShowWholeWhenPresenting)
{
    for (const QSize screen : {QSize(1280, 800), QSize(1500, 940), QSize(1920, 1080)}) {
        // As `rankstep --open RUN --presentation --zoom 1.5 --size WxH --tab overview`: the run
        // is there at the window's size before presenting and its zoom begin.
        auto window = makeWindow();
        window->resize(screen);
        ASSERT_TRUE(window->openLesson(QStringLiteral("four_d")));
        window->showScriptCode(
            QString::fromStdString(builtinLesson(QStringLiteral("four_d")).solution));
        ASSERT_TRUE(runAndWait(*window));
        window->showTab(Tab::Overview);
        ASSERT_TRUE(settleLayouts(*window));
        window->parts().presentation->setActive(true);
        window->parts().appearance->setZoom(1.5);
        ASSERT_TRUE(settleLayouts(*window));
        window->grab(); // the views note what they cut as they paint
        const LegendBar &legend = *window->parts().legendBar;
        const RankOverview &overview = *window->parts().rankOverview;
        const QToolButton &chooser = *legend.rankPicker()->button();
        const QString at = QStringLiteral("%1x%2: ").arg(screen.width()).arg(screen.height());
        ASSERT_TRUE(chooser.isVisible()) << utf8(at);
        EXPECT_GE(chooser.width(), chooser.sizeHint().width()) << utf8(at + chooser.text());
        const QRect placed(chooser.mapTo(&legend, QPoint(0, 0)), chooser.size());
        EXPECT_TRUE(legend.rect().contains(placed)) << utf8(at);
        EXPECT_TRUE(elidedTexts(legend).isEmpty()) << utf8(at + elidedTexts(legend).join(", "));
        EXPECT_TRUE(elidedTexts(overview).isEmpty()) << utf8(at + elidedTexts(overview).join(", "));
        EXPECT_FALSE(overview.rows().empty());
        EXPECT_FALSE(overview.rowRect(overview.firstShownRow()).isEmpty())
            << utf8(at) << "a row below the header";
    }
}

// The same as a teacher starts it, on a screen of that size: `rankstep --open RUN --tab overview
// --presentation --zoom 1.5` opened the run before presenting began, and the chooser kept the
// width it asked for at 100% ("Ranks 0-15 ▾" cut at both ends in --describe's list).
TEST(PresentationSizeApp, AnOpenedRunsRanksTabShowsWholeWhenPresenting)
{
    testsupport::TempDir dir;
    const std::string trace = (dir.path() / "four_d.rstb").string();
    const auto made = testsupport::runProgram(
        RANKSTEP_CLI, {"lesson", "four_d", "--solution", "--quiet", "--trace-out", trace}, dir);
    ASSERT_EQ(made.exitCode, 0) << made.err;
    for (const QSize screen : {QSize(1280, 800), QSize(1500, 940), QSize(1920, 1080)}) {
        const std::string size =
            std::to_string(screen.width()) + "x" + std::to_string(screen.height());
        const std::string screenFile = dir.write(
            "screen-" + size + ".json",
            "{\"screens\":[{\"name\":\"s\",\"x\":0,\"y\":0,\"width\":" +
                std::to_string(screen.width()) + ",\"height\":" + std::to_string(screen.height()) +
                ",\"logicalDpi\":96,\"logicalBaseDpi\":96,\"dpr\":1}]}");
        const std::string shot = (dir.path() / (size + ".png")).string();
        const std::string described = (dir.path() / (size + ".json")).string();
        const auto app = testsupport::runProgram(
            "/usr/bin/env",
            {"QT_QPA_PLATFORM=offscreen:configfile=" + screenFile,
             "XDG_CONFIG_HOME=" + (dir.path() / "config").string(),
             "XDG_DATA_HOME=" + (dir.path() / "data").string(), RANKSTEP_APP, "--open", trace,
             "--tab", "overview", "--presentation", "--zoom", "1.5", "--size", size, "--screenshot",
             shot, "--describe", described},
            dir);
        ASSERT_EQ(app.exitCode, 0) << size << app.err;
        QFile file(QString::fromStdString(described));
        ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << size;
        QStringList cut;
        for (const QJsonValue &text :
             QJsonDocument::fromJson(file.readAll()).object()[QStringLiteral("elided")].toArray())
            cut << text.toString();
        for (const QString &whole :
             {QStringLiteral("Ranks 0-15 ▾"),
              QStringLiteral("16 ranks: tensor 2 × pipeline 4 × data 2"),
              QStringLiteral("Click a group to open it, a rank to follow it in every view."),
              QStringLiteral("computing"), QStringLiteral("communicating"), QStringLiteral("idle")})
            EXPECT_FALSE(cut.contains(whole)) << size << ": " << utf8(whole);
    }
}

// Seen as a learner at 1280x800: the Why tab's time per rank split its width in four equal
// columns, and the last heading read "mmunicat".
TEST_F(PresentationSizeTest, At1280x800TheWhyTabsTimePerRankShowsEveryHeading)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("interleaved_1f1b")));
    window->showScriptCode(
        QString::fromStdString(builtinLesson(QStringLiteral("interleaved_1f1b")).solution));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().stepper->home();
    window->parts().stepper->next();
    window->showTab(Tab::Why);
    window->parts().explainView->showTimePage(true);
    window->resize(1280, 800);
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    const QStringList cut = elidedTexts(*window->parts().explainView);
    for (const char *heading : {"Rank", "Busy", "Idle", "Communication"})
        EXPECT_FALSE(cut.contains(QString::fromLatin1(heading))) << heading;
}

// Seen as a learner at 1280x800 and 1500x940, and presenting at 1920x1080 and 150%: the Why
// tab's table of the objects a rank holds showed only its heading (1280x800) or one row, and the
// rank's chooser scrolled away under the sentence above it. At each size the chooser shows whole
// and the table shows three whole rows at least.
TEST_F(PresentationSizeTest, TheWhyTabsObjectsShowSeveralRowsAndItsRankChooserAtEverySize)
{
    for (const auto &[screen, presenting] :
         {std::pair{QSize(1280, 800), false}, std::pair{QSize(1500, 940), false},
          std::pair{QSize(1920, 1080), true}}) {
        auto window = makeWindow();
        ASSERT_TRUE(window->openLesson(QStringLiteral("four_d")));
        window->showScriptCode(
            QString::fromStdString(builtinLesson(QStringLiteral("four_d")).solution));
        ASSERT_TRUE(runAndWait(*window));
        window->parts().stepper->home();
        for (int step = 0; step < 40; ++step) // rank 0 holds its weights and activations
            window->parts().stepper->next();
        if (presenting) {
            window->parts().presentation->setActive(true);
            window->parts().appearance->setZoom(1.5);
        }
        window->showTab(Tab::Why);
        window->resize(screen);
        ASSERT_TRUE(settleLayouts(*window));
        window->arrangeViews();
        ASSERT_TRUE(settleLayouts(*window));
        const QString at = QStringLiteral("%1x%2: ").arg(screen.width()).arg(screen.height());
        const ExplainView &why = *window->parts().explainView;
        ASSERT_GE(why.objects().rowCount(), 3) << utf8(at);
        const QComboBox &chooser = *why.rankChooser();
        ASSERT_TRUE(chooser.isVisible()) << utf8(at);
        EXPECT_EQ(chooser.visibleRegion().boundingRect(), chooser.rect()) << utf8(at) << "cut";
        const QTableView &table = *why.objectTable();
        ASSERT_TRUE(table.isVisible()) << utf8(at);
        EXPECT_EQ(table.visibleRegion().boundingRect(), table.rect()) << utf8(at) << "cut";
        for (int row = 0; row < 3; ++row)
            EXPECT_LE(table.rowViewportPosition(row) + table.rowHeight(row),
                      table.viewport()->height())
                << utf8(at) << "row " << row << " of " << table.viewport()->height() << " px";
        // Where the chart folded for the table, "Over time" unfolds it, and the table stays.
        QToolButton &chart = *why.chartButton();
        ASSERT_TRUE(chart.isVisible()) << utf8(at);
        EXPECT_EQ(chart.isChecked(), why.memorySplit()->chartShown()) << utf8(at);
        if (!chart.isChecked()) {
            chart.click();
            EXPECT_TRUE(why.memorySplit()->chartShown()) << utf8(at);
            EXPECT_GE(why.memorySplit()->sizes().value(0), why.memorySplit()->room().room / 2)
                << utf8(at);
            EXPECT_GT(table.height(), 0) << utf8(at);
        }
    }
}

// The largest point size of the fixed-pitch (code) text in a document; 0 when there is none.
double codePointSize(const QTextDocument &document)
{
    double size = 0;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (format.fontFixedPitch() || format.font().fixedPitch())
                size = std::max(size, format.font().pointSizeF());
        }
    return size;
}

TEST_F(PresentationSizeTest, InlineCodeInTheLessonGrowsWithTheZoom)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    const double before = codePointSize(*window->parts().lessonPanel->textDocument());
    ASSERT_GT(before, 0) << "the lesson has inline code";
    window->parts().appearance->setZoom(1.5);
    // The lesson's text is restyled once the zoom arrived, in as many event rounds as it takes.
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return codePointSize(*window->parts().lessonPanel->textDocument()) > before; },
        kSettleTimeoutMs));
    const double after = codePointSize(*window->parts().lessonPanel->textDocument());
    EXPECT_NEAR(after / before, 1.5, 0.1);
    EXPECT_NEAR(after, QApplication::font().pointSizeF(), 0.6) << "as large as the text around";
}

} // namespace
} // namespace rankstep::gui::testing
