// SPDX-License-Identifier: MIT
// The timeline's cached pictures: a step composites them and looks as a paint from scratch would;
// what changes the picture (zoom, size, theme) draws it again.
#include "guitestsupport.h"
#include "palette.h"
#include "timelinepainter.h"
#include "timelineview.h"
#include "viewcontext.h"

#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QTest>

#include <memory>
#include <string>

using rankstep::core::Trace;
namespace gui = rankstep::gui;

namespace {

std::shared_ptr<const Trace> reference(const std::string &name)
{
    return gui::testing::referenceTrace(name);
}

// The session the views follow, stepping by operation: its cursor at the end of a run is then no
// time cut, and the view ghosts what a test sets, not each rank's events after the cut.
gui::testing::ViewContext &byOperation()
{
    static auto *context = [] {
        auto *made = new gui::testing::ViewContext;
        made->session.stepper().setStepMode(gui::StepController::StepMode::Operation);
        return made;
    }();
    return *context;
}

std::unique_ptr<gui::TimelineView> shownView(const std::string &name)
{
    gui::testing::ViewContext &context = byOperation();
    auto view = std::make_unique<gui::TimelineView>(context.session, context.appearance);
    context.session.setTrace(reference(name));
    view->resize(1000, view->sizeHint().height());
    view->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(view.get()));
    return view;
}

// The view's scene painted in one go by TimelinePainter::paint, without any cache.
QImage fromScratch(const gui::TimelineView &view)
{
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    gui::TimelineScene scene;
    scene.trace = view.trace().get();
    scene.layout = view.rowLayout();
    scene.axis = view.timeAxis();
    scene.bounds = image.rect();
    scene.palette = view.palette();
    scene.font = view.font();
    scene.cursor = view.cursorTime();
    scene.ghostAfter = view.ghostAfter();
    scene.gaps = &view.gaps(); // the idle gaps the view draws
    QPainter painter(&image);
    gui::TimelinePainter(painter, scene).paint();
    return image;
}

int differingPixels(const QImage &a, const QImage &b)
{
    const QImage left = a.convertToFormat(QImage::Format_RGB32);
    const QImage right = b.convertToFormat(QImage::Format_RGB32);
    int differing = 0;
    for (int y = 0; y < left.height(); ++y)
        for (int x = 0; x < left.width(); ++x) {
            differing += left.pixel(x, y) != right.pixel(x, y);
        }
    return differing;
}

QRgb pixelIn(const QImage &image, const QRectF &block)
{
    return image.pixel(int(block.left()) + 3, int(block.top()) + 3); // beside the label
}

} // namespace

TEST(TimelineFrame, AStepLooksAsAPaintFromScratchAtEveryCursor)
{
    auto view = shownView("gpipe");
    const std::size_t events = view->trace()->events.size();
    for (const std::size_t applied : {std::size_t(0), events / 3, events / 2, events - 1}) {
        view->setGhostAfter(applied);
        view->setCursorTime(view->trace()->events[applied].start);
        const QImage cached = view->grab().toImage();
        // At most one column of one row: where the first ghosted block starts on a loss mark
        // already applied, a paint from scratch blends the faint block over the full mark.
        EXPECT_LE(differingPixels(cached, fromScratch(*view)), int(view->rowLayout().rowHeight))
            << "after " << applied;
    }
}

TEST(TimelineFrame, EachRowIsGhostedFromItsRanksFirstEventNotYetApplied)
{
    auto view = shownView("gpipe");
    const Trace &trace = *view->trace();
    const std::size_t applied = trace.events.size() / 2;
    view->setGhostAfter(applied);
    const QImage image = view->grab().toImage();
    int checked = 0;
    for (int rank = 0; rank < trace.config.ranks; ++rank) {
        std::optional<std::size_t> lastApplied, firstGhost;
        for (std::size_t i = 0; i < trace.events.size(); ++i) {
            const auto op = trace.events[i].op;
            if (trace.events[i].rank != rank ||
                (op != rankstep::core::OpKind::Forward && op != rankstep::core::OpKind::Backward))
                continue;
            if (i < applied)
                lastApplied = i;
            else if (!firstGhost)
                firstGhost = i;
        }
        if (!lastApplied || !firstGhost)
            continue;
        const auto block = [&](std::size_t i) {
            return gui::eventRect(trace.events[i], view->rowLayout(), view->timeAxis());
        };
        const auto fill = [&](std::size_t i) {
            return gui::Palette::of(gui::Palette::Scheme::Standard)
                .event(trace.events[i], trace.config.layers)
                .rgb();
        };
        EXPECT_EQ(pixelIn(image, block(*lastApplied)), fill(*lastApplied)) << "rank " << rank;
        // Nearer white than its fill: a backward's fill (20% of its layer's color, as the
        // notebook draws it) is pale already, so by a share of what is left.
        const QColor ghost = QColor::fromRgb(pixelIn(image, block(*firstGhost)));
        const double filled = QColor::fromRgb(fill(*firstGhost)).lightnessF();
        EXPECT_LT(1.0 - ghost.lightnessF(), 0.7 * (1.0 - filled)) << "rank " << rank;
        ++checked;
    }
    EXPECT_GE(checked, 3);
}

TEST(TimelineFrame, StepsReuseThePictureAndZoomSizeAndThemeDrawItAgain)
{
    auto view = shownView("ddp");
    view->setGhostAfter(3);
    view->repaint();
    const int renders = view->baseRenders();
    EXPECT_EQ(renders, 2); // full color and ghosted
    for (std::size_t applied = 4; applied < 12; ++applied) {
        view->setGhostAfter(applied);
        view->setCursorTime(view->trace()->events[applied].start);
        view->repaint();
    }
    EXPECT_EQ(view->baseRenders(), renders);

    const QImage before = view->grab().toImage();
    view->zoomIn();
    const QImage zoomed = view->grab().toImage();
    EXPECT_GT(view->baseRenders(), renders);
    EXPECT_GT(differingPixels(before, zoomed), 1000);
    EXPECT_EQ(differingPixels(zoomed, fromScratch(*view)), 0);

    int last = view->baseRenders();
    view->resize(700, view->height());
    EXPECT_EQ(view->grab().toImage().width(), 700);
    EXPECT_GT(view->baseRenders(), last);

    last = view->baseRenders();
    QPalette dark = view->palette();
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::AlternateBase, QColor(40, 40, 40));
    view->setPalette(dark);
    const QImage themed = view->grab().toImage();
    EXPECT_GT(view->baseRenders(), last);
    EXPECT_EQ(differingPixels(themed, fromScratch(*view)), 0);
}
