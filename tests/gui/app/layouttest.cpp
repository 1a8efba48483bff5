// SPDX-License-Identifier: MIT
// The window on small screens and projectors: it fits 1280x720, the editor keeps 72 columns
// beside the lesson or the state of every rank, rank markers stay narrow with 16 ranks, a saved
// layout cannot starve the editor, and a fresh lesson spends little height on placeholders.
#include "codeeditor.h"
#include "guitestsupport.h"
#include "memorychart.h"
#include "presentation.h"
#include "resultspanel.h"
#include "stepbar.h"
#include "timelineview.h"
#include "viewcontrols.h"
#include "windowsettings.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QToolButton>

namespace rankstep::gui::testing {
namespace {

using LayoutTest = WindowTest;

void settle()
{
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();
}

// The splitter holding the editor beside the lesson, and the one holding that over the views.
QSplitter *workSplitter(MainWindow &window)
{
    return window.findChild<QSplitter *>(QStringLiteral("work")); // beside the editor's pane
}

QSplitter *middleSplitter(MainWindow &window)
{
    return qobject_cast<QSplitter *>(workSplitter(window)->parentWidget());
}

TEST_F(LayoutTest, TheWindowFitsA1280x720Screen)
{
    auto window = makeWindow();
    for (const auto pane : {Tab::Lesson, Tab::State}) {
        window->showTab(pane);
        settle();
        const QSize minimum = window->minimumSizeHint();
        EXPECT_LE(minimum.width(), 1280);
        EXPECT_LE(minimum.height(), 720);
    }
}

TEST_F(LayoutTest, At1280x800TheEditorShows72ColumnsBesideTheLessonOrTheState)
{
    auto window = makeWindow();
    window->resize(1280, 800);
    settle();
    ASSERT_EQ(window->width(), 1280);
    for (const auto pane : {Tab::Lesson, Tab::State}) {
        window->showTab(pane);
        settle();
        EXPECT_GE(window->parts().editor->visibleColumns(), CodeEditor::kMinimumColumns);
        EXPECT_GT(workSplitter(*window)->widget(0)->width(), 250) << "the left tab is still there";
    }
}

// A line longer than the editor ran past its right edge with no sign of the cut: it wraps now,
// every piece inside the editor, with a mark where it was cut.
TEST_F(LayoutTest, At1280x800ALongLineWrapsInsideTheEditorWithASign)
{
    auto window = makeWindow();
    window->resize(1280, 800);
    settle();
    CodeEditor &editor = *window->parts().editor;
    const QString line = QStringLiteral("    grad_weights[layer], grad_activations[layer] = ") +
                         QStringLiteral("model.backward(layer, activations[layer], ").repeated(4);
    editor.setCode(line + QStringLiteral("\nx = 1\n"));
    settle();
    ASSERT_GT(line.size(), editor.visibleColumns());
    EXPECT_GT(editor.SendScintilla(QsciScintilla::SCI_WRAPCOUNT, 0L), 1L);
    EXPECT_NE(editor.SendScintilla(QsciScintilla::SCI_GETWRAPVISUALFLAGS), 0L) << "no sign";
    // Every character of the line, the end of each wrapped piece included, inside the editor:
    // also with a rank's chip in the margin, as while stepping.
    const auto widest = [&editor] {
        const long end = editor.SendScintilla(QsciScintilla::SCI_GETLINEENDPOSITION, 0L);
        long right = 0;
        for (long position = 0; position <= end; ++position)
            right = std::max(
                right, editor.SendScintilla(QsciScintilla::SCI_POINTXFROMPOSITION, 0L, position));
        return right + editor.SendScintilla(QsciScintilla::SCI_TEXTWIDTH, 32, "0");
    };
    EXPECT_LE(widest(), long(editor.viewport()->width()));
    editor.setRankLines({{0, 1}, {1, 2}}, 0);
    settle();
    EXPECT_LE(widest(), long(editor.viewport()->width())) << "beside the ranks' chips";
}

TEST_F(LayoutTest, SixteenRanksOnOneLineTakeAboutSixCharacters)
{
    auto window = makeWindow();
    CodeEditor &editor = *window->parts().editor;
    editor.setCode(QStringLiteral("a = 1\nb = 2\nc = 3\nd = 4\n"));
    std::vector<std::pair<int, int>> lines;
    for (int rank = 0; rank < 16; ++rank)
        lines.emplace_back(rank, rank == 9 ? 4 : 2);
    editor.setRankLines(lines, 3);
    const QString two = editor.rankMarginText(2);
    EXPECT_LE(two.trimmed().size(), 6) << two.toStdString();
    EXPECT_EQ(two.trimmed().toStdString(), "0 +14");
    EXPECT_EQ(editor.rankMarginText(4).trimmed().toStdString(), "9");
    const QString tip = editor.rankMarginToolTip(2);
    EXPECT_TRUE(tip.contains(QStringLiteral("0, 1, 2")) && tip.contains(QStringLiteral("15")))
        << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral(" 9,")));
    const int zero = editor.fontMetrics().horizontalAdvance(QLatin1Char('0'));
    EXPECT_LE(editor.rankMarginWidth(), 12 * zero) << "at most about eight characters of the "
                                                      "margin font, padding included";

    lines.clear();
    for (int rank = 0; rank < 16; ++rank)
        lines.emplace_back(rank, 3);
    editor.setRankLines(lines, 0);
    EXPECT_EQ(editor.rankMarginText(3).trimmed().toStdString(), "0-15");
    editor.setRankLines({{0, 1}, {1, 1}}, 0);
    EXPECT_EQ(editor.rankMarginText(1).trimmed().toStdString(), "0  1");
}

TEST_F(LayoutTest, ASavedLayoutThatStarvesTheEditorIsNotRestored)
{
    {
        auto window = makeWindow();
        window->resize(1500, 940);
        settle();
    }
    // What an older version saved: the state tab 1100 px wide, the editor 200.
    QSplitter old(Qt::Horizontal);
    old.addWidget(new QWidget);
    old.addWidget(new QWidget);
    old.setSizes({1100, 200});
    QSettings().setValue(settingskeys::splitters + QStringLiteral("work"), old.saveState());

    auto window = makeWindow();
    window->resize(1500, 940);
    settle();
    CodeEditor &editor = *window->parts().editor;
    EXPECT_GE(editor.visibleColumns(), CodeEditor::kMinimumColumns);
    EXPECT_GT(editor.width(), editor.minimumSizeHint().width() + 40)
        << "the default split, not the starved one pushed to the editor's minimum";
}

TEST_F(LayoutTest, AFreshLessonSpendsLittleHeightOnPlaceholders)
{
    auto window = makeWindow();
    window->resize(1280, 800);
    settle();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    settle();
    const QWidget *views = middleSplitter(*window)->widget(1);
    EXPECT_LT(double(views->height()) / window->height(), 0.3);
    EXPECT_FALSE(window->parts().memoryChart->isVisible()) << "nothing to chart before a run";
}

// At 1280x800 the four ranks of DDP all showed but rank 3, behind the rows' scroll bar: the
// timeline now gets every rank's row (up to eight) from the code above and the chart, and the
// chart keeps its floor.
TEST_F(LayoutTest, At1280x800TheTimelineShowsEveryRankOfAFourRankRun)
{
    auto window = makeWindow();
    window->resize(1280, 800);
    settle();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    ASSERT_TRUE(runAndWait(*window));
    for (const auto pane : {Tab::Lesson, Tab::State}) {
        window->showTab(pane);
        settle();
        window->arrangeViews();
        settle();
        EXPECT_FALSE(window->parts().timeline->rowScrollBar()->isVisible()) << int(pane);
        EXPECT_GE(window->parts().timeline->rowLayout().rowHeight,
                  window->parts().timeline->minRowHeight())
            << int(pane);
        EXPECT_GE(window->parts().memoryChart->height(), 110) << int(pane);
        EXPECT_GE(window->parts().editor->visibleColumns(), 72) << int(pane);
    }
}

// A syntax error at 1280x800: the results showed "What went wrong:" and half a line, under an
// empty chart; the code touched its line numbers; Play was offered for nothing.
TEST_F(LayoutTest, ARunWithoutOperationsGivesTheChartsRoomToWhatWentWrong)
{
    auto window = makeWindow();
    window->resize(1280, 800);
    settle();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    QString broken = QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution);
    broken.replace(QStringLiteral("for layer in range(model.LAYERS):"),
                   QStringLiteral("for layer in range(model.LAYERS)"));
    window->showScriptCode(broken);
    ASSERT_TRUE(runAndWait(*window));
    settle();
    window->arrangeViews();
    settle();
    ASSERT_TRUE(window->parts().session->trace() && window->parts().session->trace()->error);
    EXPECT_FALSE(window->parts().memoryChart->isVisible());
    const QWidget *views = middleSplitter(*window)->widget(1);
    EXPECT_GE(window->parts().results->height(), views->height() * 2 / 5);
    EXPECT_FALSE(window->parts().stepBar->playButton()->isEnabled());
    // Half a character between the line numbers and the code.
    CodeEditor *editor = window->parts().editor;
    const long textLeft = editor->SendScintilla(QsciScintilla::SCI_POINTXFROMPOSITION, 0, 0L);
    EXPECT_GE(textLeft - editor->marginWidth(0) - editor->marginWidth(1),
              editor->SendScintilla(QsciScintilla::SCI_TEXTWIDTH, 32, "0") / 2);
}

TEST_F(LayoutTest, PresentingTheMemoryChartKeepsAQuarterOfTheHeight)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().presentation->setActive(true);
    settle();
    window->resize(1920, 1080); // the offscreen screen is smaller than a projector
    settle();
    window->arrangeViews();
    settle();
    EXPECT_GE(window->parts().memoryChart->height(), window->height() / 4);
    EXPECT_GE(window->parts().editor->visibleColumns(), 60);
}

} // namespace
} // namespace rankstep::gui::testing
