// SPDX-License-Identifier: MIT
#include "jsonparser.h"

#include "utf8.h"

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <unordered_set>

namespace rankstep::io {

const JsonValue *JsonValue::find(std::string_view key) const
{
    if (type != Type::Object)
        return nullptr;
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i] == key)
            return &items[i];
    return nullptr;
}

namespace {

// Thrown inside the parser only; parseJson turns it into an Error value.
struct ParseFailure {
    std::string message;
    std::size_t offset = 0;
};

class Parser
{
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    JsonValue document()
    {
        skipSpace();
        JsonValue value = parseValue(0);
        skipSpace();
        if (m_pos < m_text.size())
            fail("unexpected text after the end of the JSON document");
        return value;
    }

    // 1-based line and column of a byte offset; newlines only ever occur between tokens.
    std::pair<int, int> position(std::size_t offset) const
    {
        const std::size_t end = std::min(offset, m_text.size());
        const auto line = std::count(m_text.begin(), m_text.begin() + std::ptrdiff_t(end), '\n');
        const std::size_t lineStart = m_text.rfind('\n', end == 0 ? 0 : end - 1);
        const std::size_t column =
            lineStart == std::string_view::npos || end == 0 ? end : end - lineStart - 1;
        return {int(line) + 1, int(column) + 1};
    }

private:
    [[noreturn]] void fail(std::string message) const
    {
        throw ParseFailure{std::move(message), m_pos};
    }
    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_text[m_pos]; }

    void skipSpace()
    {
        while (!atEnd()) {
            const char c = peek();
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
                return;
            if (c == '\n') {
                ++m_line;
                m_lineStart = m_pos + 1;
            }
            ++m_pos;
        }
    }

    void expect(char c, const char *what)
    {
        skipSpace();
        if (atEnd())
            fail(std::string("the text ends where ") + what + " was expected");
        if (peek() != c)
            fail(std::string("expected ") + what);
        ++m_pos;
    }

    JsonValue parseValue(int depth);
    void parseArray(JsonValue &value, int depth);
    void parseObject(JsonValue &value, int depth);
    void parseNumber(JsonValue &value);
    std::string parseString();
    std::uint32_t parseEscape();
    std::uint32_t parseHex4();
    void parseLiteral(std::string_view word);
    void checkUnique(const JsonValue &object) const;

    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_line = 1;
    std::size_t m_lineStart = 0;
};

JsonValue Parser::parseValue(int depth)
{
    skipSpace();
    if (atEnd())
        fail("the text ends where a value was expected");
    JsonValue value;
    value.line = m_line;
    value.column = int(m_pos - m_lineStart) + 1;
    const char c = peek();
    if (c == '{' || c == '[') {
        if (depth >= kMaxJsonDepth)
            fail("arrays and objects are nested deeper than " + std::to_string(kMaxJsonDepth) +
                 " levels");
        c == '{' ? parseObject(value, depth + 1) : parseArray(value, depth + 1);
    } else if (c == '"') {
        value.type = JsonValue::Type::String;
        value.text = parseString();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        parseNumber(value);
    } else if (c == 't' || c == 'f') {
        value.type = JsonValue::Type::Bool;
        value.boolean = c == 't';
        parseLiteral(c == 't' ? "true" : "false");
    } else if (c == 'n') {
        parseLiteral("null");
    } else {
        fail("expected a value (object, array, string, number, true, false or null)");
    }
    return value;
}

void Parser::parseArray(JsonValue &value, int depth)
{
    value.type = JsonValue::Type::Array;
    ++m_pos; // '['
    skipSpace();
    if (!atEnd() && peek() == ']') {
        ++m_pos;
        return;
    }
    for (;;) {
        value.items.push_back(parseValue(depth));
        skipSpace();
        if (atEnd())
            fail("the text ends inside an array (expected ',' or ']')");
        if (peek() == ']') {
            ++m_pos;
            return;
        }
        expect(',', "',' or ']' after an array element");
    }
}

void Parser::parseObject(JsonValue &value, int depth)
{
    value.type = JsonValue::Type::Object;
    ++m_pos; // '{'
    skipSpace();
    if (!atEnd() && peek() == '}') {
        ++m_pos;
        return;
    }
    for (;;) {
        skipSpace();
        if (atEnd())
            fail("the text ends inside an object (expected a member name)");
        if (peek() != '"')
            fail("expected a member name in double quotes");
        value.keys.push_back(parseString());
        expect(':', "':' after a member name");
        value.items.push_back(parseValue(depth));
        skipSpace();
        if (atEnd())
            fail("the text ends inside an object (expected ',' or '}')");
        if (peek() == '}') {
            ++m_pos;
            break;
        }
        expect(',', "',' or '}' after an object member");
    }
    checkUnique(value);
}

void Parser::checkUnique(const JsonValue &object) const
{
    // Objects of a trace have a dozen members: compare pairwise unless there are many.
    const std::vector<std::string> &keys = object.keys;
    std::unordered_set<std::string_view> seen;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const bool twice = keys.size() <= 16
                               ? std::find(keys.begin(), keys.begin() + std::ptrdiff_t(i),
                                           keys[i]) != keys.begin() + std::ptrdiff_t(i)
                               : !seen.insert(keys[i]).second;
        if (twice)
            fail("the member \"" + keys[i] + "\" appears twice in one object");
    }
}

void Parser::parseNumber(JsonValue &value)
{
    value.type = JsonValue::Type::Number;
    const std::size_t begin = m_pos;
    auto digits = [this] {
        const std::size_t start = m_pos;
        while (!atEnd() && peek() >= '0' && peek() <= '9')
            ++m_pos;
        if (m_pos == start)
            fail(atEnd() ? "the text ends inside a number" : "expected a digit in a number");
    };
    if (peek() == '-')
        ++m_pos;
    if (!atEnd() && peek() == '0') {
        ++m_pos;
        if (!atEnd() && peek() >= '0' && peek() <= '9')
            fail("numbers must not start with 0");
    } else {
        digits();
    }
    if (!atEnd() && peek() == '.') {
        ++m_pos;
        digits();
    }
    if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
        ++m_pos;
        if (!atEnd() && (peek() == '+' || peek() == '-'))
            ++m_pos;
        digits();
    }
    value.text = std::string(m_text.substr(begin, m_pos - begin));
}

std::string Parser::parseString()
{
    ++m_pos; // opening quote
    std::string out;
    for (;;) {
        if (atEnd())
            fail("the text ends inside a string");
        const auto c = static_cast<unsigned char>(peek());
        if (c == '"') {
            ++m_pos;
            return out;
        }
        if (c < 0x20)
            fail("control character in a string (write it as \\u00XX)");
        if (c == '\\') {
            appendUtf8(out, parseEscape());
            continue;
        }
        const std::size_t length = utf8SequenceLength(m_text, m_pos);
        if (length == 0)
            fail("invalid UTF-8 in a string");
        const std::string_view sequence = m_text.substr(m_pos, length);
        out += sequence;
        m_pos += length;
    }
}

std::uint32_t Parser::parseEscape()
{
    ++m_pos; // backslash
    if (atEnd())
        fail("the text ends inside a string");
    const char c = peek();
    ++m_pos;
    switch (c) {
        case '"':
            return '"';
        case '\\':
            return '\\';
        case '/':
            return '/';
        case 'b':
            return '\b';
        case 'f':
            return '\f';
        case 'n':
            return '\n';
        case 'r':
            return '\r';
        case 't':
            return '\t';
        case 'u':
            break;
        default:
            --m_pos;
            fail(std::string("unknown escape \\") + c + " in a string");
    }
    const std::uint32_t code = parseHex4();
    if (code >= 0xDC00 && code <= 0xDFFF)
        fail("a \\u escape holds a low surrogate without a high one before it");
    if (code < 0xD800 || code > 0xDBFF)
        return code;
    if (m_text.substr(m_pos, 2) != "\\u")
        fail("a \\u escape holds a high surrogate without a low one after it");
    m_pos += 2;
    const std::uint32_t low = parseHex4();
    if (low < 0xDC00 || low > 0xDFFF)
        fail("a \\u escape holds a high surrogate without a low one after it");
    return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
}

std::uint32_t Parser::parseHex4()
{
    std::uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
        if (atEnd())
            fail("the text ends inside a \\u escape");
        const char c = peek();
        const int digit = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (digit < 0)
            fail("a \\u escape needs four hexadecimal digits");
        code = code * 16 + std::uint32_t(digit);
        ++m_pos;
    }
    return code;
}

void Parser::parseLiteral(std::string_view word)
{
    if (m_text.substr(m_pos, word.size()) != word)
        fail(m_text.size() - m_pos < word.size() && word.starts_with(m_text.substr(m_pos))
                 ? "the text ends inside " + std::string(word)
                 : "expected a value (object, array, string, number, true, false or null)");
    m_pos += word.size();
}

} // namespace

core::Result<JsonValue> parseJson(std::string_view text)
{
    Parser parser(text);
    try {
        return parser.document();
    } catch (const ParseFailure &failure) {
        const auto [line, column] = parser.position(failure.offset);
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "JSON line " + std::to_string(line) + ", column " +
                               std::to_string(column) + ": " + failure.message};
    }
}

} // namespace rankstep::io
