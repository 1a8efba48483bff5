// SPDX-License-Identifier: MIT
#pragma once

#include "core/indexset.h"
#include "core/simtime.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace rankstep::io {

// Appends text as a JSON string literal: quotes and backslashes escaped, control characters as
// \u00XX, valid UTF-8 passed through and each invalid byte replaced by U+FFFD, so the output is
// always valid JSON.
void appendJsonString(std::string &out, std::string_view text);

// Writes the members of one JSON object in place, with the separators, so that callers only list
// fields: JsonObject(out).integer("rank", 0).string("op", "forward").close().
class JsonObject
{
public:
    explicit JsonObject(std::string &out);

    JsonObject &integer(std::string_view key, std::int64_t value);
    JsonObject &boolean(std::string_view key, bool value);
    JsonObject &string(std::string_view key, std::string_view value);
    JsonObject &time(std::string_view key, core::SimTime value); // exact decimal, in steps
    JsonObject &number(std::string_view key, double value); // shortest exact; null if not finite
    JsonObject &indices(std::string_view key, const core::IndexSet &set); // [0, 2, 3]
    JsonObject &null(std::string_view key);
    // Writes the key and hands the output over for a nested value the caller appends itself.
    std::string &open(std::string_view key);
    // Starts the next member on a new line with this indentation instead of after ", ".
    JsonObject &breakLine(std::string_view indent);
    void close();

private:
    void key(std::string_view name);

    std::string &m_out;
    std::string m_separator;
    bool m_first = true;
};

void appendIndices(std::string &out, const core::IndexSet &set);

} // namespace rankstep::io
