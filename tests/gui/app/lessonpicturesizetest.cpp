// SPDX-License-Identifier: MIT
// The lessons' pictures as a learner reads them in the lesson pane: at 1500x940 (the pane's width
// by default) every word is at least 11 pixels high, presenting at 1920x1080 and 150% at least 16,
// and no word runs past the picture's edge, in English and in German. And the text around them,
// its drawings in monospace included, fits the pane's width.
#include "appearance.h"
#include "guitestsupport.h"
#include "lessonpanel.h"
#include "lessonpicture.h"
#include "presentation.h"
#include "tests/gui/support/layoutwaits.h"
#include "translations.h"

#include <gtest/gtest.h>

#include <QFont>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QSvgRenderer>
#include <QTextBlock>
#include <QTextDocument>
#include <QTranslator>
#include <QXmlStreamReader>

#include <algorithm>
#include <string>
#include <vector>

namespace rankstep::gui::testing {
namespace {

// A word of a picture: its text, where it starts and ends in the picture's units, and its size.
struct Word {
    QString text;
    double left = 0;
    double right = 0;
    double size = 0;
};

std::vector<Word> wordsOf(const std::string &svg)
{
    std::vector<Word> words;
    QXmlStreamReader reader(QByteArray::fromStdString(svg));
    while (!reader.atEnd()) {
        if (reader.readNext() != QXmlStreamReader::StartElement || reader.name() != u"text")
            continue;
        const QXmlStreamAttributes attributes = reader.attributes();
        Word word;
        word.size = attributes.value(QLatin1String("font-size")).toDouble();
        const double x = attributes.value(QLatin1String("x")).toDouble();
        const QStringView anchor = attributes.value(QLatin1String("text-anchor"));
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPixelSize(std::max(1, int(word.size)));
        font.setBold(attributes.value(QLatin1String("font-weight")) == u"bold");
        word.text = reader.readElementText();
        const double width = QFontMetricsF(font).horizontalAdvance(word.text);
        word.left = anchor == u"middle" ? x - width / 2 : anchor == u"end" ? x - width : x;
        word.right = word.left + width;
        words.push_back(word);
    }
    return words;
}

// The pictures the lesson pane shows, by name.
std::vector<QString> shownPictures(const QTextDocument &document)
{
    std::vector<QString> shown;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isImageFormat())
                shown.push_back(it.fragment().charFormat().toImageFormat().name());
    return shown;
}

const char *const kPicturedLessons[] = {
    "interleaved_1f1b", "zero_bubble",     "tensor_parallel", "sequence_parallel",
    "context_parallel", "expert_parallel", "four_d"};

using LessonPictureSizeTest = WindowTest;

// Each picture of each pictured lesson, in every language, drawn at the pane's width: its
// smallest word at least `minimumPixels` high.
void expectReadable(MainWindow &window, const QString &at, double minimumPixels)
{
    const LessonPanel &panel = *window.parts().lessonPanel;
    for (const char *id : kPicturedLessons) {
        ASSERT_TRUE(window.openLesson(QString::fromLatin1(id))) << id;
        ASSERT_TRUE(settleLayouts(window));
        const int available = panel.picturesWidth();
        const double fontPixels = QFontInfo(panel.textDocument()->defaultFont()).pixelSize();
        ASSERT_FALSE(shownPictures(*panel.textDocument()).empty()) << id;
        for (const auto &[name, svg] : builtinLesson(QString::fromLatin1(id)).pictures) {
            const QSizeF own = QSvgRenderer(QByteArray::fromStdString(svg)).viewBoxF().size();
            const double scale =
                lessonPictureSize(own, available, fontPixels).width() / own.width();
            const std::vector<Word> words = wordsOf(svg);
            ASSERT_FALSE(words.empty()) << name;
            const auto smallest =
                std::min_element(words.begin(), words.end(),
                                 [](const Word &a, const Word &b) { return a.size < b.size; });
            EXPECT_GE(smallest->size * scale, minimumPixels)
                << utf8(at) << id << "/" << name << ": \"" << utf8(smallest->text) << "\" at "
                << smallest->size << " units in a pane " << available << " pixels wide";
        }
    }
}

TEST_F(LessonPictureSizeTest, EveryWordIsAtLeast11PixelsAt1500x940)
{
    auto window = makeWindow();
    window->resize(1500, 940);
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    expectReadable(*window, QStringLiteral("1500x940: "), 11);
}

TEST_F(LessonPictureSizeTest, EveryWordIsAtLeast16PixelsPresentingAt1920x1080And150Percent)
{
    auto window = makeWindow();
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    ASSERT_TRUE(settleLayouts(*window));
    window->resize(1920, 1080);
    ASSERT_TRUE(settleLayouts(*window));
    expectReadable(*window, QStringLiteral("1920x1080 at 150%: "), 16);
}

// Seen at 1500x940: the context lesson drew its ring in box-drawing characters beside the picture
// of it, and its timing and four_d's command line ran past the pane's right edge, behind a
// sideways scroll bar. Every line of the modern lessons' texts fits, in English and German.
TEST_F(LessonPictureSizeTest, TheTextFitsThePaneAt1500x940InEnglishAndGerman)
{
    for (const bool german : {false, true}) {
        if (german) {
            ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
        }
        auto window = makeWindow();
        window->resize(1500, 940);
        ASSERT_TRUE(settleLayouts(*window));
        window->arrangeViews();
        const QTextDocument &text = *window->parts().lessonPanel->textDocument();
        for (const char *id : kPicturedLessons) {
            ASSERT_TRUE(window->openLesson(QString::fromLatin1(id))) << id;
            ASSERT_TRUE(settleLayouts(*window));
            ASSERT_GT(text.textWidth(), 0) << id;
            EXPECT_LE(text.size().width(), text.textWidth() + 1)
                << id << (german ? " (German)" : "") << ": text " << text.size().width()
                << " wide in a pane " << text.textWidth() << " wide";
        }
    }
    for (QTranslator *translator : qApp->findChildren<QTranslator *>()) {
        QCoreApplication::removeTranslator(translator);
        delete translator;
    }
}

// Seen on a 1280x800 laptop, where the pane is narrower: four_d's command line (a code block, which
// does not wrap by itself) ran past the pane's right edge behind a sideways scroll bar. Every line
// of every lesson's text fits there, in English and German.
TEST_F(LessonPictureSizeTest, EveryLessonsTextFitsThePaneAt1280x800InEnglishAndGerman)
{
    for (const bool german : {false, true}) {
        if (german) {
            ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
        }
        auto window = makeWindow();
        window->resize(1280, 800);
        ASSERT_TRUE(settleLayouts(*window));
        window->arrangeViews();
        const QTextDocument &text = *window->parts().lessonPanel->textDocument();
        for (const lessons::Lesson &lesson : builtinLessons()) {
            const QString id = QString::fromStdString(lesson.id);
            ASSERT_TRUE(window->openLesson(id)) << lesson.id;
            ASSERT_TRUE(settleLayouts(*window));
            ASSERT_GT(text.textWidth(), 0) << lesson.id;
            EXPECT_LE(text.size().width(), text.textWidth() + 1)
                << lesson.id << (german ? " (German)" : "") << ": text " << text.size().width()
                << " wide in a pane " << text.textWidth() << " wide";
        }
    }
    for (QTranslator *translator : qApp->findChildren<QTranslator *>()) {
        QCoreApplication::removeTranslator(translator);
        delete translator;
    }
}

// Measured in DejaVu Sans, the font the pictures name and the app ships with: a word that runs
// past the picture's edge is cut off in the pane.
TEST(LessonPictureWords, NoWordRunsPastThePicturesEdge)
{
    for (const char *id : kPicturedLessons)
        for (const auto &[name, svg] : builtinLesson(QString::fromLatin1(id)).pictures) {
            const QSizeF own = QSvgRenderer(QByteArray::fromStdString(svg)).viewBoxF().size();
            for (const Word &word : wordsOf(svg))
                EXPECT_TRUE(word.left >= 0 && word.right <= own.width())
                    << id << "/" << name << ": \"" << utf8(word.text) << "\" from " << word.left
                    << " to " << word.right << " in " << own.width();
        }
}

} // namespace
} // namespace rankstep::gui::testing
