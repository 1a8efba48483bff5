// SPDX-License-Identifier: MIT
// A German lesson text quotes the engine as the app shows it to a German learner: in German. The
// app says every sentence of the engine through its translation (gui/session/enginetext.h), so a
// quote left in English is a sentence the learner never sees and cannot search for.
#include "core/lessons/builtin.h"
#include "core/lessons/lesson.h"
#include "core/sentences.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

namespace rankstep::lessontests {
namespace {

// The fixed words of the engine's English patterns between their placeholders, where they are
// three words or more ("is partial on rank"): a German quote holds none of them.
std::vector<std::string> englishPieces()
{
    std::vector<std::string> pieces;
    static const std::regex placeholder("%[1-9]");
    for (const char *pattern : core::sentencePatterns()) {
        const std::string text = pattern;
        for (std::sregex_token_iterator it(text.begin(), text.end(), placeholder, -1), end;
             it != end; ++it) {
            std::string piece = *it;
            piece.erase(0, piece.find_first_not_of(" :,.()"));
            piece.erase(piece.find_last_not_of(" :,.()") + 1);
            if (std::count(piece.begin(), piece.end(), ' ') >= 2)
                pieces.push_back(piece);
        }
    }
    std::sort(pieces.begin(), pieces.end());
    pieces.erase(std::unique(pieces.begin(), pieces.end()), pieces.end());
    return pieces;
}

// The quotes of a German text, „…“, each on one line.
std::vector<std::string> germanQuotes(const std::string &text)
{
    std::vector<std::string> quotes;
    static const std::regex quote("„([^“]*)“");
    static const std::regex space("\\s+");
    for (std::sregex_iterator it(text.begin(), text.end(), quote), end; it != end; ++it)
        quotes.push_back(std::regex_replace((*it)[1].str(), space, " "));
    return quotes;
}

// Seen as a German learner: the tensor, sequence, context and expert lessons quoted their typical
// mistakes' messages in English, while the app showed them in German.
TEST(GermanQuotes, TheModernLessonsQuoteTheEngineInGerman)
{
    const auto loaded = lessons::loadLessons(lessons::builtinLessonFiles());
    ASSERT_TRUE(loaded) << loaded.error().message;
    const std::vector<std::string> pieces = englishPieces();
    ASSERT_GT(pieces.size(), 50U);
    for (const char *id : {"interleaved_1f1b", "zero_bubble", "tensor_parallel",
                           "sequence_parallel", "context_parallel", "expert_parallel", "four_d"}) {
        const lessons::Lesson *lesson = lessons::findLesson(*loaded, id);
        ASSERT_NE(lesson, nullptr) << id;
        ASSERT_TRUE(lesson->translations.contains("de")) << id;
        const lessons::LessonWords &german = lesson->translations.at("de");
        std::string text = german.text;
        for (const std::string &hint : german.hints)
            text += "\n" + hint;
        for (const std::string &quote : germanQuotes(text))
            for (const std::string &piece : pieces)
                EXPECT_EQ(quote.find(piece), std::string::npos)
                    << id << ": „" << quote << "“ says \"" << piece << "\" in English";
    }
}

} // namespace
} // namespace rankstep::lessontests
