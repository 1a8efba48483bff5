// SPDX-License-Identifier: MIT
// The whole window at its default size, as the docs show it: a fresh start, a solved lesson, a
// refused update and a hang. RANKSTEP_SCREENSHOTS=DIR also saves them as DIR/app-*.png.
#include "guitestsupport.h"
#include "tests/gui/support/layoutwaits.h"

#include "codeeditor.h"
#include "memorychart.h"
#include "palette.h"
#include "scripting.h"
#include "stateview.h"
#include "timelineview.h"
#include "waitforview.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCommandLineParser>
#include <QDialog>
#include <QDir>
#include <QImage>
#include <QScatterSeries>
#include <QTest>

#include <memory>

namespace rankstep::gui::testing {
namespace {

constexpr QSize kWindowSize(1500, 940);

class AppScreenshot : public WindowTest
{
protected:
    std::unique_ptr<MainWindow> openAt(const QString &lessonId)
    {
        auto window = makeWindow();
        window->resize(kWindowSize);
        EXPECT_TRUE(window->openLesson(lessonId));
        return window;
    }

    // The offscreen screen is 800 pixels square and Qt keeps a dialog inside its screen, at the
    // window's left; a desktop centers it on the window: place it where a person sees it.
    static void centerDialogsOn(MainWindow &window)
    {
        for (QWidget *top : QApplication::topLevelWidgets()) {
            auto *dialog = qobject_cast<QDialog *>(top);
            if (dialog && dialog->isVisible() && dialog->parentWidget() == &window) {
                dialog->move(window.geometry().center() - dialog->rect().center());
            }
        }
    }

    // Lets the layouts, the chart and any dialog settle and the state's fade end, then grabs
    // what a person would see.
    static QImage shoot(MainWindow &window, const QString &fileName)
    {
        EXPECT_TRUE(settleLayouts(window)) << fileName.toStdString();
        EXPECT_TRUE(QTest::qWaitFor([&] { return !window.parts().stateView->isAnimating(); },
                                    kSettleTimeoutMs))
            << fileName.toStdString();
        centerDialogsOn(window);
        QImage image = grabWithDialogs(&window);
        EXPECT_EQ(image.size(), kWindowSize);
        EXPECT_GT(distinctColors(image), 50) << fileName.toStdString() << " looks blank";
        const QString folder = qEnvironmentVariable("RANKSTEP_SCREENSHOTS");
        if (!folder.isEmpty()) {
            const QString path = QDir(folder).filePath(fileName);
            EXPECT_TRUE(image.save(path)) << path.toStdString();
        }
        return image;
    }

    // Pixels where the grab with dialogs differs from the bare window.
    static int dialogPixels(MainWindow &window, const QImage &withDialogs)
    {
        const QImage bare = window.grab().toImage().convertToFormat(QImage::Format_RGB32);
        const QImage shot = withDialogs.convertToFormat(QImage::Format_RGB32);
        int differing = 0;
        for (int y = 0; y < shot.height(); ++y) {
            for (int x = 0; x < shot.width(); ++x) {
                differing += bare.pixel(x, y) != shot.pixel(x, y) ? 1 : 0;
            }
        }
        return differing;
    }
};

QScatterSeries *maximumMarker(const MemoryChart &chart)
{
    for (QAbstractSeries *series : chart.chart()->series()) {
        if (auto *scatter = qobject_cast<QScatterSeries *>(series)) {
            return scatter;
        }
    }
    return nullptr;
}

int pixelsOfColor(const QImage &image, const QRect &area, const QColor &color)
{
    int count = 0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
            count += image.valid(x, y) && image.pixel(x, y) == color.rgb() ? 1 : 0;
        }
    }
    return count;
}

// Where the chart draws a point of the series, in the window's coordinates.
QPoint windowPosition(MainWindow &window, QScatterSeries *series, QPointF value)
{
    const MemoryChart *memory = window.parts().memoryChart;
    const QPointF inChart = memory->chart()->mapToPosition(value, series);
    const QPoint inView = memory->chartView()->mapFromScene(memory->chart()->mapToScene(inChart));
    return memory->chartView()->viewport()->mapTo(&window, inView);
}

TEST_F(AppScreenshot, FreshStartShowsTheFirstLessonWithEmptyViews)
{
    auto window = makeWindow();
    window->resize(kWindowSize);
    ASSERT_NE(window->currentLesson(), nullptr);
    EXPECT_EQ(window->currentLesson()->id, builtinLessons().front().id);
    const QImage image = shoot(*window, QStringLiteral("app-fresh.png"));
    EXPECT_EQ(window->parts().timeline->rowCount(), 0) << "rows before any run";
    EXPECT_TRUE(window->parts().memoryChart->showsPlaceholder());
    EXPECT_EQ(visibleMessageBox(), nullptr);
    EXPECT_EQ(dialogPixels(*window, image), 0);
}

TEST_F(AppScreenshot, SolvedDdpShowsFourRanksAndTheMemoryMaximum)
{
    auto window = openAt(QStringLiteral("ddp"));
    window->parts().editor->replaceAllUndoable(
        QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
    ASSERT_TRUE(runAndWait(*window));
    const QImage image = shoot(*window, QStringLiteral("app-ddp-solved.png"));

    ASSERT_NE(window->parts().session->trace(), nullptr);
    EXPECT_EQ(window->parts().timeline->rowCount(), window->currentLesson()->config.ranks);
    EXPECT_EQ(window->parts().timeline->rowCount(), 4);
    EXPECT_FALSE(window->parts().memoryChart->showsPlaceholder());
    QScatterSeries *maximum = maximumMarker(*window->parts().memoryChart);
    ASSERT_NE(maximum, nullptr) << "no maximum marker";
    ASSERT_EQ(maximum->count(), 1);
    const core::Figures &figures = window->parts().session->trace()->figures;
    EXPECT_EQ(maximum->at(0), QPointF(figures.maxMemoryTime.toDouble(), double(figures.maxMemory)));
    EXPECT_EQ(figures.maxMemory, 1835008);
    // Its label is an item of its own, placed clear of the target line (labelplacement.h).
    EXPECT_FALSE(window->parts().memoryChart->maximumLabelText().isEmpty());
    EXPECT_FALSE(window->parts().memoryChart->maximumLabelRect().isEmpty());
    // And it is in the picture: the maximum's red around the point (lines cross its center).
    const QPoint center = windowPosition(*window, maximum, maximum->at(0));
    EXPECT_GE(pixelsOfColor(image, QRect(center - QPoint(5, 5), QSize(11, 11)),
                            Palette::of(Palette::Scheme::Standard).maximum()),
              20)
        << "no marker at " << center.x() << "," << center.y();
    EXPECT_EQ(visibleMessageBox(), nullptr);
    EXPECT_EQ(dialogPixels(*window, image), 0);
}

TEST_F(AppScreenshot, WalkthroughErrorShowsTheDialogOverTheWindow)
{
    auto window = openAt(QStringLiteral("walkthrough"));
    ASSERT_TRUE(runAndWait(*window));
    ASSERT_NE(visibleMessageBox(QStringLiteral("runErrorDialog")), nullptr);
    const QImage image = shoot(*window, QStringLiteral("app-walkthrough-error.png"));
    EXPECT_EQ(window->parts().timeline->rowCount(), 1);
    EXPECT_FALSE(window->parts().memoryChart->showsPlaceholder());
    EXPECT_GT(dialogPixels(*window, image), 20000) << "the dialog is not in the picture";
}

TEST_F(AppScreenshot, DeadlockShowsEveryRankAndNoDialogOverTheHangPicture)
{
    auto window = openAt(QStringLiteral("hang"));
    ASSERT_TRUE(runAndWait(*window));
    ASSERT_NE(window->parts().session->trace(), nullptr);
    ASSERT_TRUE(window->parts().session->trace()->error.has_value());
    EXPECT_EQ(window->parts().session->trace()->error->kind, core::ErrorKind::Deadlock);
    // The diagnosis is the "Why it hung" picture and the results banner, not a dialog over them.
    EXPECT_EQ(visibleMessageBox(QStringLiteral("runErrorDialog")), nullptr);
    const QImage image = shoot(*window, QStringLiteral("app-deadlock.png"));
    EXPECT_EQ(window->parts().timeline->rowCount(), window->currentLesson()->config.ranks);
    EXPECT_EQ(window->parts().timeline->rowCount(), 4);
    EXPECT_TRUE(window->parts().waitForView->isVisible());
    EXPECT_EQ(dialogPixels(*window, image), 0);
}

// rankstep --help: every line fits an 80-column terminal and no option's value is cut across
// lines (--tab once carried every tab's name in its value, "<lesson|...|w" then "hatif|...>",
// and widened the names' column for every option), and --sweep names every field.
TEST(ScriptingHelp, FitsATerminalAndNamesEverySweepField)
{
    QCommandLineParser parser;
    addScriptOptions(parser);
    const QString help = parser.helpText();
    for (const QString &line : help.split(QLatin1Char('\n'))) {
        EXPECT_LE(line.size(), 80) << utf8(line);
        if (line.startsWith(QStringLiteral("  -")) && line.contains(QLatin1Char('<'))) {
            EXPECT_TRUE(line.contains(QLatin1Char('>'))) << utf8(line);
        }
    }
    const QString words = help.simplified();
    for (const char *field : {"ranks=", "batches=", "bandwidth=", "cost=",
                              "show=chart|table|bubble", "compare=schedules"})
        EXPECT_TRUE(words.contains(QLatin1String(field))) << field;
}

} // namespace
} // namespace rankstep::gui::testing
