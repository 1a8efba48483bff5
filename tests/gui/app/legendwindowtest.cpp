// SPDX-License-Identifier: MIT
// The legend in the window: under the step bar after a run, with the run's layer scale, and still
// there, zoomed, in presentation mode.
#include "guitestsupport.h"
#include "legendbar.h"
#include "palette.h"
#include "presentation.h"
#include "staterankpicker.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <QApplication>
#include <QImage>
#include <QToolButton>

namespace rankstep::gui::testing {
namespace {

using LegendWindowTest = WindowTest;

void settle()
{
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();
}

// Whether the bar shows every color of the scale of a `layers`-layer model.
bool showsTheScale(LegendBar &legend, int layers)
{
    const QImage image = legend.grab().toImage();
    const Palette &colors = Palette::of(Palette::Scheme::Standard);
    for (int l = 0; l <= layers; ++l) {
        bool found = false;
        for (int y = 0; y < image.height() && !found; ++y)
            for (int x = 0; x < image.width() && !found; ++x)
                found = image.pixelColor(x, y).rgb() == colors.layer(l, layers).rgb();
        if (!found)
            return false;
    }
    return true;
}

TEST_F(LegendWindowTest, ShowsTheRunsLayerScaleInTheWindowAndWhilePresenting)
{
    auto window = makeWindow();
    window->resize(1280, 800);
    ASSERT_TRUE(window->openLesson(QStringLiteral("wsdp")));
    ASSERT_TRUE(runAndWait(*window));
    settle();
    LegendBar *legend = window->parts().legendBar;
    ASSERT_TRUE(legend->isVisible());
    EXPECT_EQ(legend->layers(), 6);
    EXPECT_GE(legend->height(), legend->heightForWidth(legend->width()));
    EXPECT_TRUE(showsTheScale(*legend, 6));
    EXPECT_TRUE(legend->rankPicker()->isHidden()) << "4 ranks all fit";

    // One line of it (a narrow pane wraps it onto two, and presenting widens the pane).
    const int before = legend->heightForWidth(10000);
    window->parts().presentation->setActive(true);
    settle();
    EXPECT_TRUE(legend->isVisible());
    EXPECT_GT(legend->heightForWidth(10000), before) << "zoomed with the rest";
    EXPECT_GE(legend->height(), legend->heightForWidth(legend->width()));
    EXPECT_TRUE(showsTheScale(*legend, 6));
    window->parts().presentation->setActive(false);
}

// The legend's "Ranks 0-15 ▾" read "Ranks 0-1…" at 1280x800 and 1500x940, where the legend has
// the room: the button was measured from a text it had shortened while it was still narrow.
TEST_F(LegendWindowTest, TheRankButtonOfASixteenRankRunShowsItsWholeList)
{
    const QString whole = QStringLiteral("Ranks 0-15 ▾");
    const auto &lessons = builtinLessons();
    const auto lesson = std::find_if(lessons.begin(), lessons.end(),
                                     [](const auto &each) { return each.id == "pipeline_fsdp"; });
    ASSERT_NE(lesson, lessons.end());
    for (const QSize size : {QSize(1280, 800), QSize(1500, 940)}) {
        auto window = makeWindow();
        window->resize(size);
        ASSERT_TRUE(window->openLesson(QStringLiteral("pipeline_fsdp")));
        window->showScriptCode(QString::fromStdString(lesson->solution));
        ASSERT_TRUE(runAndWait(*window));
        settle();
        const QToolButton &button = *window->parts().legendBar->rankPicker()->button();
        ASSERT_TRUE(button.isVisible());
        const QVariant shown = button.property("shownText");
        EXPECT_EQ((shown.isValid() ? shown.toString() : button.text()).toStdString(),
                  whole.toStdString())
            << size.width() << "x" << size.height();
    }
}

} // namespace
} // namespace rankstep::gui::testing
