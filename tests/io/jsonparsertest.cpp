// SPDX-License-Identifier: MIT
#include "core/io/jsonparser.h"
#include "core/io/jsonwriter.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::io {
namespace {

using Type = JsonValue::Type;

JsonValue parsed(std::string_view text)
{
    auto result = parseJson(text);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
    return result.ok() ? *result : JsonValue{};
}

std::string errorOf(std::string_view text)
{
    auto result = parseJson(text);
    EXPECT_FALSE(result.ok()) << "accepted: " << text;
    if (result.ok())
        return {};
    EXPECT_EQ(result.error().kind, core::ErrorKind::Usage);
    return result.error().message;
}

TEST(JsonParser, ReadsEveryKindOfValue)
{
    const JsonValue value =
        parsed(R"( {"a": [1, -2.5, 3e2], "b": {"c": true, "d": false}, "e": null, "f": "x"} )");
    ASSERT_TRUE(value.isObject());
    ASSERT_EQ(value.keys.size(), 4u);
    const JsonValue *a = value.find("a");
    ASSERT_NE(a, nullptr);
    ASSERT_EQ(a->items.size(), 3u);
    EXPECT_EQ(a->items[1].type, Type::Number);
    EXPECT_EQ(a->items[1].text, "-2.5");
    EXPECT_EQ(a->items[2].text, "3e2");
    EXPECT_TRUE(value.find("b")->find("c")->boolean);
    EXPECT_FALSE(value.find("b")->find("d")->boolean);
    EXPECT_TRUE(value.find("e")->isNull());
    EXPECT_EQ(value.find("f")->text, "x");
    EXPECT_EQ(value.find("missing"), nullptr);
}

TEST(JsonParser, KeepsNumbersAsWritten)
{
    EXPECT_EQ(parsed("19.9").text, "19.9");
    EXPECT_EQ(parsed("9223372036854775807").text, "9223372036854775807");
    EXPECT_EQ(parsed("-0").text, "-0");
}

TEST(JsonParser, DecodesEscapesAndSurrogatePairs)
{
    EXPECT_EQ(parsed(R"("a\"b\\c\/d\b\f\n\r\t")").text, "a\"b\\c/d\b\f\n\r\t");
    EXPECT_EQ(parsed(R"("\u00e9\u2192\ud83d\ude00\u0001")").text,
              "\xC3\xA9\xE2\x86\x92\xF0\x9F\x98\x80\x01");
    EXPECT_EQ(parsed("\"\xC3\xA9 raw UTF-8\"").text, "\xC3\xA9 raw UTF-8");
}

TEST(JsonParser, NamesLineAndColumnOfAnError)
{
    EXPECT_EQ(errorOf("{\"a\": 1,\n  \"b\" 2}"),
              "JSON line 2, column 7: expected ':' after a member name");
    EXPECT_EQ(errorOf("[1, 2,\n\n   ]"),
              "JSON line 3, column 4: expected a value (object, array, "
              "string, number, true, false or null)");
}

TEST(JsonParser, RejectsMalformedDocuments)
{
    for (const char *text :
         {"",          "   ",         "{",           "[1, 2",       "[1 2]",
          "{\"a\" 1}", "{\"a\": 1,}", "[1,]",        "{a: 1}",      "'x'",
          "01",        "1.",          ".5",          "-",           "1e",
          "+1",        "tru",         "nul",         "truex",       "\"abc",
          "\"\\x\"",   "\"\\u12g4\"", "\"\\ud800\"", "\"\\udc00\"", "\"tab\there\"",
          "[] []",     "{} x",        "NaN",         "Infinity"})
        errorOf(text);
}

TEST(JsonParser, RejectsInvalidUtf8)
{
    for (const char *text : {"\"\xFF\"", "\"\xC3\"", "\"\xC0\xAF\"", "\"\xED\xA0\x80\"",
                             "\"\xF4\x90\x80\x80\"", "\"\x80\""})
        EXPECT_NE(errorOf(text).find("invalid UTF-8"), std::string::npos) << text;
}

TEST(JsonParser, RejectsDuplicateKeys)
{
    EXPECT_NE(errorOf(R"({"a": 1, "b": 2, "a": 3})").find("\"a\" appears twice"),
              std::string::npos);
}

TEST(JsonParser, AcceptsNestingUpToTheLimitAndRejectsDeeper)
{
    const auto nested = [](int depth) {
        return std::string(std::size_t(depth), '[') + std::string(std::size_t(depth), ']');
    };
    parsed(nested(kMaxJsonDepth));
    EXPECT_NE(errorOf(nested(kMaxJsonDepth + 1)).find("nested deeper than 64"), std::string::npos);
    // Far deeper input is rejected at the limit, without recursing further.
    EXPECT_NE(errorOf(std::string(100000, '[')).find("nested deeper"), std::string::npos);
}

TEST(JsonWriter, EscapesQuotesBackslashesAndControlCharacters)
{
    std::string out;
    appendJsonString(out, std::string_view("say \"hi\"\\ \n\t\x01\x1f end\0", 19));
    EXPECT_EQ(out, R"("say \"hi\"\\ \u000a\u0009\u0001\u001f end\u0000")");
}

TEST(JsonWriter, PassesUtf8ThroughAndReplacesInvalidBytes)
{
    std::string out;
    appendJsonString(out, "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80");
    EXPECT_EQ(out, "\"caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80\"");
    out.clear();
    appendJsonString(out,
                     "a\xFF"
                     "b\xC3");
    EXPECT_EQ(out,
              "\"a\xEF\xBF\xBD"
              "b\xEF\xBF\xBD\"");
    EXPECT_EQ(parsed(out).text,
              "a\xEF\xBF\xBD"
              "b\xEF\xBF\xBD");
}

// JSON printed on a terminal (grade --json) cannot steer it: DEL, the C1 controls (U+009B is
// CSI) and the bidirectional overrides are escaped too, and read back as they were.
TEST(JsonWriter, EscapesWhatSteersATerminalBeyondAscii)
{
    const std::string text =
        "a\x7F"
        "b\xC2\x9B"
        "2Jc\xE2\x80\xAE"
        "d\xC3\xA9";
    std::string out;
    appendJsonString(out, text);
    EXPECT_EQ(out, "\"a\\u007fb\\u009b2Jc\\u202ed\xC3\xA9\"");
    EXPECT_EQ(parsed(out).text, text);
}

TEST(JsonWriter, RoundTripsEveryByteString)
{
    std::string all;
    for (int c = 0; c < 128; ++c)
        all += char(c);
    std::string out;
    appendJsonString(out, all);
    EXPECT_EQ(parsed(out).text, all);
}

} // namespace
} // namespace rankstep::io
