// SPDX-License-Identifier: MIT
// A lesson's picture as the lesson pane draws it: sized by the pane and the text, in the window's
// colors, and nothing at all from a file that is no picture.
#include "lessonpicture.h"

#include <gtest/gtest.h>

#include <QPalette>

namespace rankstep::gui {
namespace {

const QByteArray kPicture = R"(<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"
    viewBox="0 0 600 300"><rect x="0" y="0" width="600" height="300" fill="#222222"/></svg>)";

TEST(LessonPicture, TakesTheWidthOfTheTextsSizeButNeverMoreThanThePane)
{
    // Words of 14 units in a text of 14 pixels: the picture at its own size when there is room.
    EXPECT_EQ(lessonPictureSize(QSizeF(600, 300), 1000, 14), QSize(600, 300));
    // A narrow pane: as wide as the pane, the height in proportion.
    EXPECT_EQ(lessonPictureSize(QSizeF(600, 300), 300, 14), QSize(300, 150));
    // Presenting (text twice as large): twice the size while the pane has room.
    EXPECT_EQ(lessonPictureSize(QSizeF(600, 300), 2000, 28), QSize(1200, 600));
    EXPECT_EQ(lessonPictureSize(QSizeF(600, 300), 900, 28), QSize(900, 450));
}

TEST(LessonPicture, AnAbsurdlyTallPictureStaysWithinItsHeightLimit)
{
    const QSize size = lessonPictureSize(QSizeF(10, 1e7), 800, 14);
    EXPECT_LE(size.height(), kMaxPictureHeight);
    EXPECT_GE(size.width(), 1);
    EXPECT_TRUE(lessonPictureSize(QSizeF(0, 100), 800, 14).isEmpty());
    EXPECT_TRUE(lessonPictureSize(QSizeF(100, 100), 0, 14).isEmpty());
}

TEST(LessonPicture, DrawsWithThePixelsOfTheScreen)
{
    const QImage plain = renderLessonPicture(kPicture, 300, 14, 1);
    const QImage sharp = renderLessonPicture(kPicture, 300, 14, 2);
    ASSERT_FALSE(plain.isNull());
    ASSERT_FALSE(sharp.isNull());
    EXPECT_EQ(plain.size(), QSize(300, 150));
    EXPECT_EQ(sharp.size(), QSize(600, 300));
    EXPECT_EQ(sharp.deviceIndependentSize(), QSizeF(300, 150));
    EXPECT_EQ(QColor(sharp.pixel(300, 150)), QColor(0x22, 0x22, 0x22));
}

TEST(LessonPicture, AFileThatIsNoPictureDrawsNothing)
{
    for (const QByteArray &bad :
         {QByteArray(), QByteArray("not a picture"), QByteArray("<svg xmlns=\"http://www.w3.org"),
          QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 0 0\"/>")})
        EXPECT_TRUE(renderLessonPicture(bad, 300, 14, 1).isNull()) << bad.constData();
}

TEST(LessonPicture, DrawsInTheWindowsColorsOnADarkPage)
{
    QPalette dark;
    dark.setColor(QPalette::Text, Qt::white);
    dark.setColor(QPalette::Base, Qt::black);
    const QByteArray svg =
        "<text fill=\"#222222\"/><rect fill=\"#ffffff\" stroke=\"#888888\"/>"
        "<rect fill=\"#2ca02c\"/>";
    // The white put in for the ink is not then taken for the page's white.
    EXPECT_EQ(pictureInColors(svg, dark),
              "<text fill=\"#ffffff\"/><rect fill=\"#000000\" stroke=\"#8c8c8c\"/>"
              "<rect fill=\"#2ca02c\"/>");
    const QImage image = renderLessonPicture(pictureInColors(kPicture, dark), 300, 14, 1);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(QColor(image.pixel(150, 75)), QColor(Qt::white));
}

} // namespace
} // namespace rankstep::gui
