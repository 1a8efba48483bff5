// SPDX-License-Identifier: MIT
#include "core/terminaltext.h"

#include <gtest/gtest.h>

namespace rankstep::core {
namespace {

TEST(TerminalText, EscapeSequencesOfAnExceptionBecomeVisibleText)
{
    // Carriage return, erase line, OSC 52 (set the clipboard) and hidden text (SGR 8).
    const std::string attack =
        "boom\r\x1b[2Kalice  ddp  solved\x1b]52;c;ZWNobyBoaQ==\x07\x1b[8m hidden";
    const std::string shown = terminalLine(attack);
    EXPECT_EQ(shown,
              "boom\\r\\x1b[2Kalice  ddp  solved\\x1b]52;c;ZWNobyBoaQ==\\x07\\x1b[8m hidden");
    EXPECT_EQ(shown.find_first_of("\r\n\x1b\x07"), std::string::npos);
}

TEST(TerminalText, ALineStaysOneLineAndTextKeepsItsLines)
{
    EXPECT_EQ(terminalLine("ana\nsolved\tx"), "ana\\nsolved\\tx");
    EXPECT_EQ(terminalText("line 1\n\tline 2\r\x1b[1A"), "line 1\n\tline 2\\r\\x1b[1A");
}

TEST(TerminalText, ControlsBeyondAsciiAndBrokenUtf8AreEscapedLettersAreNot)
{
    // U+009B is CSI in the C1 set, U+202E reverses the text after it, 0x9B alone is no UTF-8.
    EXPECT_EQ(terminalLine("a\xC2\x9B"
                           "2Jb\xE2\x80\xAE"
                           "c\x9B"
                           "d\x7F"),
              "a\\u009b2Jb\\u202ec\\x9bd\\x7f");
    const std::string letters = "Jürgen ｄｄｐ 日本 ✓ 𝒙";
    EXPECT_EQ(terminalLine(letters), letters);
    EXPECT_EQ(terminalLine(""), "");
}

TEST(TerminalText, DecodesOnlyWellFormedUtf8)
{
    char32_t code = 0;
    EXPECT_EQ(decodeUtf8("\xEF\xBD\x84", 0, code), 3U);
    EXPECT_EQ(code, U'ｄ');
    EXPECT_EQ(decodeUtf8("\xC0\x80", 0, code), 0U);         // overlong NUL
    EXPECT_EQ(decodeUtf8("\xED\xA0\x80", 0, code), 0U);     // a surrogate
    EXPECT_EQ(decodeUtf8("\xF4\x90\x80\x80", 0, code), 0U); // past U+10FFFF
    EXPECT_EQ(decodeUtf8("\xE2\x80", 0, code), 0U);         // cut short
}

} // namespace
} // namespace rankstep::core
