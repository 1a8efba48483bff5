// SPDX-License-Identifier: MIT
#include "jsonwriter.h"

#include "utf8.h"

#include "core/terminaltext.h"

#include <charconv>
#include <cmath>

namespace rankstep::io {

void appendJsonString(std::string &out, std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    for (std::size_t pos = 0; pos < text.size();) {
        const auto c = static_cast<unsigned char>(text[pos]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x7F && c >= 0x20) {
            out += char(c);
        } else if (char32_t code = 0;
                   const std::size_t length = core::decodeUtf8(text, pos, code)) {
            // Controls (DEL and C1 too, and the bidirectional overrides) as \u escapes: the JSON
            // means the same, and printed on a terminal it cannot steer it (core/terminaltext.h).
            if (core::isTerminalControl(code)) {
                out += "\\u";
                for (int shift = 12; shift >= 0; shift -= 4)
                    out += kHex[(code >> shift) & 0xF];
            } else {
                out += text.substr(pos, length);
            }
            pos += length;
            continue;
        } else {
            out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
        }
        ++pos;
    }
    out += '"';
}

void appendIndices(std::string &out, const core::IndexSet &set)
{
    out += '[';
    bool first = true;
    set.forEach([&](int index) {
        out += first ? "" : ", ";
        out += std::to_string(index);
        first = false;
    });
    out += ']';
}

JsonObject::JsonObject(std::string &out) : m_out(out), m_separator(", ")
{
    m_out += '{';
}

void JsonObject::key(std::string_view name)
{
    if (!m_first)
        m_out += m_separator;
    else if (m_separator != ", ")
        m_out += m_separator.substr(1); // a line break before the first member: no comma
    m_first = false;
    m_separator = ", ";
    appendJsonString(m_out, name);
    m_out += ": ";
}

JsonObject &JsonObject::integer(std::string_view name, std::int64_t value)
{
    key(name);
    m_out += std::to_string(value);
    return *this;
}

JsonObject &JsonObject::boolean(std::string_view name, bool value)
{
    key(name);
    m_out += value ? "true" : "false";
    return *this;
}

JsonObject &JsonObject::string(std::string_view name, std::string_view value)
{
    key(name);
    appendJsonString(m_out, value);
    return *this;
}

JsonObject &JsonObject::time(std::string_view name, core::SimTime value)
{
    key(name);
    m_out += value.toString();
    return *this;
}

JsonObject &JsonObject::number(std::string_view name, double value)
{
    key(name);
    if (!std::isfinite(value)) {
        m_out += "null";
        return *this;
    }
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, value);
    m_out.append(text, written.ptr);
    return *this;
}

JsonObject &JsonObject::indices(std::string_view name, const core::IndexSet &set)
{
    key(name);
    appendIndices(m_out, set);
    return *this;
}

JsonObject &JsonObject::null(std::string_view name)
{
    key(name);
    m_out += "null";
    return *this;
}

std::string &JsonObject::open(std::string_view name)
{
    key(name);
    return m_out;
}

JsonObject &JsonObject::breakLine(std::string_view indent)
{
    m_separator = ",\n" + std::string(indent);
    return *this;
}

void JsonObject::close()
{
    m_out += '}';
}

} // namespace rankstep::io
