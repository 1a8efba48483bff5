// SPDX-License-Identifier: MIT
// The error dialog never hides what it explains: the line the error is on and every rank's state
// (it opened centred, over both).
#include "codeeditor.h"
#include "errordialog.h"
#include "guitestsupport.h"
#include "memorychart.h"
#include "resultspanel.h"
#include "timelineview.h"

#include <QLabel>
#include <QTabWidget>
#include <QTextDocumentFragment>

namespace rankstep::gui::testing {
namespace {

TEST(PlaceClear, TakesTheFirstPlaceThatHidesNothing)
{
    const QRect window(0, 0, 1280, 800);
    const QSize box(400, 150);
    // The bottom right is free: it goes there.
    EXPECT_EQ(placeClear(box, window, {QRect(0, 0, 600, 400)}),
              QPoint(1280 - 8 - 400, 800 - 8 - 150));
    // The bottom right is taken: the bottom left.
    EXPECT_EQ(placeClear(box, window, {QRect(700, 500, 580, 300)}), QPoint(8, 800 - 8 - 150));
    // Everything but a strip at the bottom taken: a bottom place, which hides the least.
    EXPECT_EQ(placeClear(box, window, {QRect(0, 0, 1280, 790)}).y(), 800 - 8 - 150);
}

// The window at 1280x800 as it stood after a failed run: the lesson list, the lesson tab, the
// editor with the error's line near its top, and below them the results, timeline and chart.
// The only place that hides nothing is over the editor's lines below the error's; no corner,
// edge's middle or center of the window is clear.
TEST(PlaceClear, FindsTheGapBesideWhatItMustNotHide)
{
    const QRect window(0, 0, 1280, 800);
    const QRect tabs(205, 48, 285, 350), line(495, 120, 785, 17), views(205, 400, 1075, 375);
    const QSize box(560, 120);
    const QPoint at = placeClear(box, window, {line, tabs, views});
    const QRect placed(at, box);
    EXPECT_TRUE(window.contains(placed));
    for (const QRect &keep : {tabs, line, views})
        EXPECT_FALSE(placed.intersects(keep)) << placed.x() << "," << placed.y();
}

// No place is clear: a chart fills the top, a line of code lies below it. Hiding a sliver of the
// chart's bottom beats hiding the whole line, though the line's pixels are fewer.
TEST(PlaceClear, WithNoGapHidesTheLeastShare)
{
    const QRect window(0, 0, 1000, 600);
    const QRect chart(0, 0, 1000, 450), line(0, 500, 1000, 20);
    const QPoint at = placeClear({400, 150}, window, {chart, line});
    EXPECT_FALSE(QRect(at, QSize(400, 150)).intersects(line)) << at.x() << "," << at.y();
}

// A one-line message with quotes: the dialog shows it as written. Its escaped text (&quot;,
// &amp;) without a tag or a "&lt;" was taken for plain text and shown with the entities.
TEST(RunErrorDialog, ShowsAOneLineMessagesQuotesAsWritten)
{
    core::Trace trace;
    const std::string said = R"(ValueError: "w" & 'x' are not tensors)";
    trace.error = core::Error(core::ErrorKind::Exception, 0, 3, said);
    QMessageBox *box = showRunError(nullptr, trace, {});
    auto *label = box->findChild<QLabel *>(QStringLiteral("qt_msgbox_informativelabel"));
    ASSERT_NE(label, nullptr);
    const bool rich = label->textFormat() == Qt::RichText ||
                      (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text()));
    const QString shown =
        rich ? QTextDocumentFragment::fromHtml(label->text()).toPlainText() : label->text();
    EXPECT_EQ(utf8(shown), said);
    box->close();
}

class ErrorPlacementTest : public WindowTest
{
protected:
    static QRect global(const QWidget &widget)
    {
        return {widget.mapToGlobal(QPoint(0, 0)), widget.size()};
    }
};

// Seen at 1280x800: the update-before-allreduce dialog opened at the bottom right, over the memory
// chart's peak label; a syntax error's over the timeline's sentence saying the run stopped.
TEST_F(ErrorPlacementTest, AFailedRunsDialogHidesNeitherTheViewsNorTheSentencesBelowTheCode)
{
    const QString solution = QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution);
    QString update = solution;
    update.remove(
        QStringLiteral("        grad_weights[layer] = await model.allreduce(grad_weights[layer], "
                       "layer)\n"));
    QString syntax = solution;
    syntax.replace(QStringLiteral("for layer in range(model.LAYERS):"),
                   QStringLiteral("for layer in range(model.LAYERS)"));
    ASSERT_NE(update, solution);
    ASSERT_NE(syntax, solution);
    for (const QString &code : {update, syntax}) {
        auto window = makeWindow();
        window->resize(1280, 800);
        ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
        window->showScriptCode(code);
        ASSERT_TRUE(runAndWait(*window));
        QMessageBox *box = visibleMessageBox(QStringLiteral("runErrorDialog"));
        ASSERT_NE(box, nullptr);
        const QRect dialog = box->frameGeometry();
        const WindowParts &p = window->parts();
        EXPECT_FALSE(dialog.intersects(global(*p.results))) << "over what went wrong";
        EXPECT_FALSE(dialog.intersects(global(*p.timeline))) << "over where the run stopped";
        if (p.memoryChart->isVisible()) {
            EXPECT_FALSE(dialog.intersects(global(*p.memoryChart))) << "over the memory peak";
        }
        const auto trace = p.session->trace();
        ASSERT_TRUE(trace && trace->error);
        EXPECT_FALSE(dialog.intersects(p.editor->lineRectGlobal(trace->error->line)));
        box->close();
    }
}

TEST_F(ErrorPlacementTest, TheWalkThroughsRefusedUpdateLeavesItsLineAndTheStateInView)
{
    auto window = makeWindow();
    window->resize(1280, 800);
    ASSERT_TRUE(window->openLesson(QStringLiteral("walkthrough")));
    ASSERT_TRUE(runAndWait(*window));
    QMessageBox *box = visibleMessageBox(QStringLiteral("runErrorDialog"));
    ASSERT_NE(box, nullptr);
    const auto trace = window->parts().session->trace();
    ASSERT_TRUE(trace && trace->error);
    const QRect line = window->parts().editor->lineRectGlobal(trace->error->line);
    ASSERT_FALSE(line.isEmpty()) << "the error's line is scrolled into view";
    auto *tabs = window->findChild<QTabWidget *>(QStringLiteral("leftTabs"));
    ASSERT_NE(tabs, nullptr);
    const QRect state(tabs->mapToGlobal(QPoint(0, 0)), tabs->size());
    const QRect dialog = box->frameGeometry();
    EXPECT_FALSE(dialog.intersects(line)) << "the dialog hides line " << trace->error->line;
    EXPECT_FALSE(dialog.intersects(state)) << "the dialog hides the state of every rank";
}

} // namespace
} // namespace rankstep::gui::testing
