// SPDX-License-Identifier: MIT
#include "guitestsupport.h"
#include "palette.h"
#include "tests/core/referencepuzzles.h"
#include "timelineview.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QHelpEvent>
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <memory>
#include <set>
#include <utility>

using rankstep::core::Event;
using rankstep::core::OpKind;
using rankstep::core::SimTime;
using rankstep::core::Trace;
namespace gui = rankstep::gui;

namespace {

std::shared_ptr<const Trace> reference(const std::string &name)
{
    return gui::testing::referenceTrace(name);
}

std::unique_ptr<gui::TimelineView> shownView(std::shared_ptr<const Trace> trace)
{
    auto view = gui::testing::makeView<gui::TimelineView>();
    gui::testing::sharedContext().session.setTrace(std::move(trace));
    view->resize(1000, view->sizeHint().height());
    view->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(view.get()));
    return view;
}

std::size_t firstEvent(const Trace &trace, const std::function<bool(const Event &)> &matches)
{
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        if (matches(trace.events[i])) {
            return i;
        }
    }
    ADD_FAILURE() << "no such event";
    return 0;
}

QRectF blockOf(const gui::TimelineView &view, std::size_t index)
{
    return gui::eventRect(view.trace()->events[index], view.rowLayout(), view.timeAxis());
}

std::size_t distinctColors(const QImage &image)
{
    std::set<QRgb> colors;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            colors.insert(image.pixel(x, y));
        }
    }
    return colors.size();
}

void sendWheel(QWidget &widget, QPointF position, QPoint delta, Qt::KeyboardModifiers modifiers)
{
    QWheelEvent wheel(position, widget.mapToGlobal(position), QPoint(), delta, Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&widget, &wheel);
}

} // namespace

TEST(TimelineView, HasARowPerRank)
{
    gui::testing::ViewContext context;
    gui::TimelineView view(context.session, context.appearance);
    EXPECT_EQ(view.rowCount(), 0);
    context.session.setTrace(reference("ddp"));
    EXPECT_EQ(view.rowCount(), 4);
    context.session.setTrace(reference("pipeline_fsdp"));
    EXPECT_EQ(view.rowCount(), 16);
    EXPECT_GE(view.sizeHint().height(), 16 * 28);
}

TEST(TimelineView, HoverTellsTheOperationLayerAndLine)
{
    auto view = shownView(reference("ddp"));
    const Trace &trace = *view->trace();
    const std::size_t index = firstEvent(trace, [](const Event &e) {
        return e.rank == 1 && e.op == OpKind::AllReduce && e.layer == 0;
    });
    const QPoint center = blockOf(*view, index).center().toPoint();
    const QString text = view->toolTipAt(center);
    EXPECT_TRUE(text.contains(QStringLiteral("allreduce"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("layer 0"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("line %1").arg(trace.events[index].line)));
    EXPECT_GT(trace.events[index].line, 0);

    QHelpEvent help(QEvent::ToolTip, center, view->mapToGlobal(center));
    QApplication::sendEvent(view.get(), &help);
    EXPECT_EQ(QToolTip::text(), text);
    EXPECT_TRUE(view->toolTipAt(QPointF(view->rowLayout().labelWidth / 2, 60)).isEmpty());
}

TEST(TimelineView, ClickingABlockEmitsItsEventAndLine)
{
    auto view = shownView(reference("ddp"));
    const Trace &trace = *view->trace();
    QSignalSpy clicked(view.get(), &gui::TimelineView::eventClicked);
    QSignalSpy lines(view.get(), &gui::TimelineView::lineActivated);
    const std::size_t index = firstEvent(trace, [](const Event &e) {
        return e.rank == 2 && e.op == OpKind::Backward && e.layer == 1;
    });
    QTest::mouseClick(view.get(), Qt::LeftButton, {}, blockOf(*view, index).center().toPoint());
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked.at(0).at(0).toInt(), int(index));
    ASSERT_EQ(lines.count(), 1);
    EXPECT_EQ(lines.at(0).at(0).toInt(), trace.events[index].line);

    QTest::mouseClick(view.get(), Qt::LeftButton, {}, QPoint(500, 5)); // the axis band
    EXPECT_EQ(clicked.count(), 1);
}

TEST(TimelineView, WheelZoomsAboutThePointerAndAnnouncesTheRange)
{
    auto view = shownView(reference("ddp"));
    gui::RunSession &session = gui::testing::sharedContext().session;
    QSignalSpy ranges(&session, &gui::RunSession::visibleRangeChanged);
    const gui::TimeAxis before = view->timeAxis();
    const QPointF pointer(400.0, 60.0);
    sendWheel(*view, pointer, QPoint(0, 120), Qt::NoModifier);
    EXPECT_NEAR(view->timeAxis().span(), before.span() / 1.25, 1e-6);
    EXPECT_NEAR(view->timeAxis().ticksAt(400.0), before.ticksAt(400.0), 1e-6);
    ASSERT_EQ(ranges.count(), 1); // the session's range, which the memory chart follows
    EXPECT_EQ(session.visibleRange().from, view->timeAxis().from);
    EXPECT_EQ(session.visibleRange().to, view->timeAxis().to);

    const gui::TimeAxis zoomedIn = view->timeAxis();
    sendWheel(*view, pointer, QPoint(0, -120), Qt::ShiftModifier); // pans later
    EXPECT_NEAR(view->timeAxis().span(), zoomedIn.span(), 1e-6);
    EXPECT_GT(view->timeAxis().from, zoomedIn.from);
    EXPECT_EQ(ranges.count(), 2);
}

TEST(TimelineView, KeysZoomPanAndFit)
{
    auto view = shownView(reference("gpipe"));
    QSignalSpy ranges(&gui::testing::sharedContext().session,
                      &gui::RunSession::visibleRangeChanged);
    const gui::TimeAxis whole = view->timeAxis();
    QTest::keyClick(view.get(), Qt::Key_Plus);
    EXPECT_NEAR(view->timeAxis().span(), whole.span() / 1.5, 1e-6);
    const double from = view->timeAxis().from;
    QTest::keyClick(view.get(), Qt::Key_Right);
    EXPECT_GT(view->timeAxis().from, from);
    QTest::keyClick(view.get(), Qt::Key_Left);
    EXPECT_NEAR(view->timeAxis().from, from, 1e-6);
    QTest::keyClick(view.get(), Qt::Key_Minus);
    EXPECT_NEAR(view->timeAxis().span(), whole.span(), 1e-6);
    QTest::keyClick(view.get(), Qt::Key_Plus);
    QTest::keyClick(view.get(), Qt::Key_F);
    EXPECT_EQ(view->timeAxis(), whole);
    EXPECT_GE(ranges.count(), 5);
}

TEST(TimelineView, DraggingPansWithoutClicking)
{
    auto view = shownView(reference("ddp"));
    view->zoomIn();
    view->zoomIn();
    QSignalSpy clicked(view.get(), &gui::TimelineView::eventClicked);
    const gui::TimeAxis before = view->timeAxis();
    const QPoint start(600, 60), end(500, 60);
    QTest::mousePress(view.get(), Qt::LeftButton, {}, start);
    QMouseEvent move(QEvent::MouseMove, QPointF(end), view->mapToGlobal(QPointF(end)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view.get(), &move);
    QTest::mouseRelease(view.get(), Qt::LeftButton, {}, end);
    EXPECT_NEAR(view->timeAxis().from, before.from + 100.0 * before.ticksPerPixel(), 1e-6);
    EXPECT_EQ(clicked.count(), 0);
}

TEST(TimelineView, SharedRangeIsAppliedOnceAndClamped)
{
    auto view = shownView(reference("ddp"));
    QSignalSpy ranges(&gui::testing::sharedContext().session,
                      &gui::RunSession::visibleRangeChanged);
    view->setVisibleRange(SimTime::steps(2), SimTime::steps(4));
    EXPECT_EQ(view->visibleFrom(), SimTime::steps(2));
    EXPECT_EQ(view->visibleTo(), SimTime::steps(4));
    EXPECT_EQ(ranges.count(), 1);
    view->setVisibleRange(SimTime::steps(2), SimTime::steps(4)); // an echo changes nothing
    EXPECT_EQ(ranges.count(), 1);
    view->setVisibleRange(SimTime::steps(0), SimTime::steps(1000));
    EXPECT_EQ(view->timeAxis(), gui::fitted(view->timeAxis(), view->trace()->figures.endTime));
}

TEST(TimelineView, PaintsEachBlockInThePaletteColor)
{
    auto view = shownView(reference("ddp"));
    const Trace &trace = *view->trace();
    const QImage image = view->grab().toImage();
    EXPECT_GT(distinctColors(image), 20u);
    for (OpKind op : {OpKind::Forward, OpKind::Backward, OpKind::Update}) {
        const std::size_t index =
            firstEvent(trace, [op](const Event &e) { return e.rank == 0 && e.op == op; });
        const QRect block = blockOf(*view, index).toAlignedRect();
        const QColor expected =
            gui::Palette::of(gui::Palette::Scheme::Standard).event(trace.events[index], 2);
        EXPECT_EQ(image.pixelColor(block.left() + 3, block.top() + 3).rgb(), expected.rgb())
            << rankstep::core::opName(op);
    }
    // As the notebook's draw() paints them on white, whatever the palette says: a backward of
    // layer k is layer k's color at 20% opacity, an all-reduce of layer k at 50% (the app once
    // faded backward 50% and hatched all-reduces gray).
    const auto onWhite = [](const QColor &color, double opacity) {
        const auto channel = [opacity](int c) {
            return int(std::lround(255 + (c - 255) * opacity));
        };
        return QColor(channel(color.red()), channel(color.green()), channel(color.blue()));
    };
    for (int layer : {0, 1}) {
        for (const auto &[op, opacity] :
             {std::pair(OpKind::Backward, 0.2), std::pair(OpKind::AllReduce, 0.5)}) {
            const std::size_t index = firstEvent(trace, [op = op, layer](const Event &e) {
                return e.rank == 0 && e.op == op && e.layer == layer;
            });
            const QRect block = blockOf(*view, index).toAlignedRect();
            const QColor painted = image.pixelColor(block.left() + 2, block.bottom() - 2);
            const QColor expected = onWhite(gui::Palette::notebookLayer(layer, 2), opacity);
            for (const auto &[a, b] : {std::pair(painted.red(), expected.red()),
                                       std::pair(painted.green(), expected.green()),
                                       std::pair(painted.blue(), expected.blue())})
                EXPECT_LE(std::abs(a - b), 1)
                    << rankstep::core::opName(op) << " of layer " << layer << ": painted "
                    << painted.name().toStdString() << ", the notebook's "
                    << expected.name().toStdString();
        }
    }
}

TEST(TimelineView, GhostsEventsAfterTheCursorAndDrawsTheCursorLine)
{
    // Stepping by operation the session's cursor at the end is no time cut: the view ghosts what
    // the test sets, not each rank's events after the cut.
    gui::testing::ViewContext context;
    context.session.stepper().setStepMode(gui::StepController::StepMode::Operation);
    auto view = std::make_unique<gui::TimelineView>(context.session, context.appearance);
    context.session.setTrace(reference("ddp"));
    view->resize(1000, view->sizeHint().height());
    view->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(view.get()));
    const Trace &trace = *view->trace();
    const std::size_t last = trace.events.size() - 1;
    const QRect block = blockOf(*view, last).toAlignedRect();
    const QColor fill =
        gui::Palette::of(gui::Palette::Scheme::Standard).event(trace.events[last], 2);
    view->setGhostAfter(last);
    const QColor ghost = view->grab().toImage().pixelColor(block.left() + 3, block.top() + 3);
    EXPECT_NE(ghost.rgb(), fill.rgb());
    EXPECT_GT(ghost.lightnessF(), fill.lightnessF());

    view->setGhostAfter(std::nullopt);
    view->setCursorTime(trace.events[last].start);
    const QImage image = view->grab().toImage();
    const int x = int(std::round(view->timeAxis().toX(trace.events[last].start)));
    const QColor line = image.pixelColor(x, int(view->rowLayout().rowTop(0)) + 2);
    EXPECT_GT(line.blue(), line.red() + 60) << "a blue cursor line at x " << x;
}

TEST(TimelineView, WithoutEventsInvitesARun)
{
    gui::testing::ViewContext context;
    gui::TimelineView view(context.session, context.appearance);
    view.resize(600, 200);
    const QImage image = view.grab().toImage();
    EXPECT_GT(distinctColors(image), 2u); // the text is there
    EXPECT_TRUE(view.toolTipAt(QPointF(300, 100)).isEmpty());
}

// RANKSTEP_SCREENSHOTS=docs/screenshots gui_tests --gtest_filter='TimelineView.Screenshots*'
TEST(TimelineView, ScreenshotsForTheDocs)
{
    const char *directory = std::getenv("RANKSTEP_SCREENSHOTS");
    if (!directory) {
        GTEST_SKIP() << "set RANKSTEP_SCREENSHOTS to a directory to write them";
    }
    for (const auto &[name, width] : {std::pair("ddp", 1000), std::pair("gpipe", 1200)}) {
        auto view = shownView(reference(name));
        view->resize(width, view->sizeHint().height());
        const QString file = QStringLiteral("timeline-%1.png").arg(QString::fromLatin1(name));
        const QString path = QDir(QString::fromLocal8Bit(directory)).filePath(file);
        EXPECT_TRUE(view->grab().save(path)) << path.toStdString();
    }
}
