// SPDX-License-Identifier: MIT
// The lesson pane's pictures: drawn from the lesson's SVG files at the pane's width, again when
// the pane or its text changes size; a picture the lesson lacks, or cannot draw, is its alt text.
#include "guitestsupport.h"
#include "lessonpanel.h"
#include "runsession.h"

#include <gtest/gtest.h>

#include <QFontInfo>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

#include <cmath>
#include <memory>
#include <vector>

namespace rankstep::gui {
namespace {

using testing::utf8;

// 600 by 300 units: at a text of 14 pixels, 600 pixels wide when the pane has room.
const std::string kPicture = R"(<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"
    viewBox="0 0 600 300"><rect x="0" y="0" width="600" height="300" fill="#2ca02c"/></svg>)";

std::vector<QTextImageFormat> images(const QTextDocument &document)
{
    std::vector<QTextImageFormat> found;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isImageFormat())
                found.push_back(it.fragment().charFormat().toImageFormat());
    return found;
}

lessons::Lesson picturedLesson()
{
    lessons::Lesson lesson;
    lesson.id = "pictured";
    lesson.function = "pictured";
    lesson.hints = {"one", "two"};
    lesson.text =
        "# Pictured\n\nBefore.\n\n![Four ranks in a ring](ring.svg)\n\n"
        "![The grid of sixteen ranks](grid.svg)\n\n![A picture gone wrong](broken.svg)\n\n"
        "After.\n";
    lesson.pictures["ring.svg"] = kPicture;
    lesson.pictures["broken.svg"] = "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect";
    return lesson;
}

class LessonPanelPictures : public ::testing::Test
{
protected:
    void show(const lessons::Lesson &lesson, int width)
    {
        m_session.setLesson(&lesson);
        m_panel = std::make_unique<LessonPanel>(m_session);
        m_panel->resize(width, 700);
        m_panel->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(m_panel.get()));
    }
    double pictureWidth() const
    {
        const auto found = images(*m_panel->textDocument());
        return found.size() == 1 ? found.front().width() : -1;
    }
    // The picture's width once the pane has settled at `panelWidth`.
    double settledWidth(int panelWidth)
    {
        m_panel->resize(panelWidth, 700);
        const auto settled = [&] {
            const double wanted =
                std::min(600.0 * fontPixels() / 14, double(m_panel->picturesWidth()));
            return m_panel->width() == panelWidth && std::abs(pictureWidth() - wanted) < 1;
        };
        EXPECT_TRUE(QTest::qWaitFor(settled)) << "a pane " << panelWidth << " wide";
        return pictureWidth();
    }
    double fontPixels() const
    {
        return QFontInfo(m_panel->findChild<QTextBrowser *>()->font()).pixelSize();
    }

    RunSession m_session;
    std::unique_ptr<LessonPanel> m_panel;
};

TEST_F(LessonPanelPictures, ShowsWhatItCannotDrawAsItsAltText)
{
    const lessons::Lesson lesson = picturedLesson();
    show(lesson, 500);
    const QString text = m_panel->textDocument()->toPlainText();
    EXPECT_EQ(images(*m_panel->textDocument()).size(), 1U) << utf8(text);
    EXPECT_TRUE(text.contains(QStringLiteral("The grid of sixteen ranks"))) << utf8(text);
    EXPECT_TRUE(text.contains(QStringLiteral("A picture gone wrong"))) << utf8(text);
    EXPECT_TRUE(text.contains(QStringLiteral("After."))) << utf8(text);
    EXPECT_FALSE(text.contains(QStringLiteral("grid.svg"))) << utf8(text);
}

TEST_F(LessonPanelPictures, FollowsThePanesWidthAndNeverExceedsIt)
{
    const lessons::Lesson lesson = picturedLesson();
    show(lesson, 420);
    const double narrow = settledWidth(420);
    EXPECT_GT(narrow, 0);
    EXPECT_LE(narrow, m_panel->picturesWidth());
    EXPECT_NEAR(narrow, m_panel->picturesWidth(), 1) << "a narrow pane: the picture fills it";
    const double narrower = settledWidth(300);
    EXPECT_LT(narrower, narrow);
    EXPECT_LE(narrower, m_panel->picturesWidth());
    // A wide pane: the picture's own size at the text's, not the pane's width.
    const double wide = settledWidth(1400);
    EXPECT_NEAR(wide, 600.0 * fontPixels() / 14, 1);
    EXPECT_LT(wide, m_panel->picturesWidth());
    // The image drawn has the size shown, at the screen's pixel ratio.
    const auto found = images(*m_panel->textDocument());
    ASSERT_EQ(found.size(), 1U);
    const QImage image = m_panel->textDocument()
                             ->resource(QTextDocument::ImageResource, QUrl(found.front().name()))
                             .value<QImage>();
    EXPECT_NEAR(image.deviceIndependentSize().width(), wide, 1);
}

TEST_F(LessonPanelPictures, GrowsWithTheTextWhenPresenting)
{
    const lessons::Lesson lesson = picturedLesson();
    show(lesson, 1400);
    const double before = settledWidth(1400);
    QFont larger = m_panel->font();
    larger.setPixelSize(28);
    m_panel->setFont(larger); // what a zoom does to the application's font
    ASSERT_EQ(fontPixels(), 28);
    const double after = settledWidth(1400);
    EXPECT_GT(after, before * 1.5);
}

// A dark theme reaches the picture: what the file draws in ink comes out in the theme's text color.
TEST_F(LessonPanelPictures, DrawsInTheColorsOfTheTheme)
{
    lessons::Lesson lesson = picturedLesson();
    lesson.pictures["ring.svg"] =
        R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 300"><rect x="0" y="0" )"
        R"(width="600" height="300" fill="#222222"/></svg>)";
    show(lesson, 500);
    const auto centre = [&] {
        const auto found = images(*m_panel->textDocument());
        const QImage image =
            found.empty() ? QImage()
                          : m_panel->textDocument()
                                ->resource(QTextDocument::ImageResource, QUrl(found.front().name()))
                                .value<QImage>();
        return image.isNull() ? QColor()
                              : QColor(image.pixel(image.width() / 2, image.height() / 2));
    };
    ASSERT_TRUE(QTest::qWaitFor([&] { return centre().isValid(); }));
    QPalette dark = m_panel->palette();
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    m_panel->setPalette(dark);
    EXPECT_TRUE(QTest::qWaitFor([&] { return centre() == QColor(0xee, 0xee, 0xee); }))
        << utf8(centre().name());
}

// Each lesson on the modern parallelisms draws every picture its text shows.
TEST_F(LessonPanelPictures, EveryBuiltInPictureIsDrawn)
{
    for (const char *id : {"interleaved_1f1b", "zero_bubble", "tensor_parallel",
                           "sequence_parallel", "context_parallel", "expert_parallel", "four_d"}) {
        const lessons::Lesson &lesson = testing::builtinLesson(QString::fromLatin1(id));
        show(lesson, 520);
        const auto found = images(*m_panel->textDocument());
        EXPECT_GE(found.size(), 1U) << id;
        for (const QTextImageFormat &format : found) {
            const QImage image = m_panel->textDocument()
                                     ->resource(QTextDocument::ImageResource, QUrl(format.name()))
                                     .value<QImage>();
            EXPECT_FALSE(image.isNull()) << id << ": " << utf8(format.name());
            EXPECT_LE(format.width(), m_panel->picturesWidth()) << id;
            EXPECT_GT(format.width(), 0) << id;
        }
    }
}

} // namespace
} // namespace rankstep::gui
