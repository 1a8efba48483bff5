// SPDX-License-Identifier: MIT
#pragma once

#include "core/terminaltext.h"

#include <string>
#include <string_view>

namespace rankstep::cli {

// One CSV field (RFC 4180) of text a learner may have decided (a folder name, an exception's
// message): its controls as visible escapes (core::terminalLine, so the file is also safe on a
// terminal and one record a line); a ' in front when it starts with = + - @ (or a tab or carriage
// return), so that a spreadsheet shows it as text instead of running it as a formula (as OWASP's
// "CSV injection" advises); quoted, its quotes doubled, when it holds a comma or a quote.
inline std::string csvField(std::string_view text)
{
    std::string field = core::terminalLine(text);
    if (!field.empty() &&
        std::string_view("=+-@\t\r").find(field.front()) != std::string_view::npos)
        field.insert(0, 1, '\'');
    if (field.find_first_of(",\"") == std::string::npos)
        return field;
    std::string out = "\"";
    for (char c : field)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace rankstep::cli
