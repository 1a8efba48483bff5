// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace rankstep::cli {

// One CSV field (RFC 4180): quoted, its quotes doubled, when it holds a comma, a quote or a line
// break; as it is otherwise.
inline std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\n\r") == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace rankstep::cli
