// SPDX-License-Identifier: MIT
// The legend in the window: under the step bar after a run, with the run's layer scale, and still
// there, zoomed, in presentation mode.
#include "guitestsupport.h"
#include "legendbar.h"
#include "palette.h"
#include "presentation.h"
#include "staterankpicker.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>

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

} // namespace
} // namespace rankstep::gui::testing
