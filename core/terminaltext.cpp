// SPDX-License-Identifier: MIT
// What a learner decided reaches the teacher's terminal only as text: an escape sequence in an
// exception message or a folder name could otherwise erase a line, hide the rest of a table, set
// the clipboard (OSC 52) or print a row that forges a verdict.
#include "terminaltext.h"

namespace rankstep::core {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void appendHex(std::string &out, char32_t value, int digits)
{
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
        out += kHex[(value >> shift) & 0xF];
}

void appendEscape(std::string &out, char32_t code)
{
    switch (code) {
        case '\n':
            out += "\\n";
            return;
        case '\r':
            out += "\\r";
            return;
        case '\t':
            out += "\\t";
            return;
        default:
            break;
    }
    if (code < 0x80) {
        out += "\\x";
        appendHex(out, code, 2);
    } else {
        out += "\\u";
        appendHex(out, code, 4);
    }
}

std::string safe(std::string_view text, bool keepLines)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        char32_t code = 0;
        const std::size_t length = decodeUtf8(text, at, code);
        if (length == 0) {
            out += "\\x";
            appendHex(out, static_cast<unsigned char>(text[at]), 2);
            ++at;
            continue;
        }
        const bool kept = keepLines && (code == '\n' || code == '\t');
        if (isTerminalControl(code) && !kept)
            appendEscape(out, code);
        else
            out += text.substr(at, length);
        at += length;
    }
    return out;
}

} // namespace

bool isTerminalControl(char32_t code)
{
    return code < 0x20 || (code >= 0x7F && code <= 0x9F) || (code >= 0x202A && code <= 0x202E) ||
           (code >= 0x2066 && code <= 0x2069) || code == 0x200E || code == 0x200F ||
           code == 0x061C || code == 0x2028 || code == 0x2029;
}

std::string terminalLine(std::string_view text)
{
    return safe(text, false);
}

std::string terminalText(std::string_view text)
{
    return safe(text, true);
}

std::size_t decodeUtf8(std::string_view text, std::size_t at, char32_t &code)
{
    const auto byte = [&](std::size_t i) {
        return static_cast<unsigned char>(text[at + i]);
    };
    const unsigned char lead = byte(0);
    if (lead < 0x80) {
        code = lead;
        return 1;
    }
    std::size_t length = 0;
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF)
        length = 3;
    else if (lead >= 0xF0 && lead <= 0xF4)
        length = 4;
    if (length == 0 || at + length > text.size())
        return 0;
    char32_t value = lead & (0x7F >> length);
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80)
            return 0;
        value = (value << 6) | (byte(i) & 0x3F);
    }
    const char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (value < least[length] || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF)
        return 0;
    code = value;
    return length;
}

} // namespace rankstep::core
