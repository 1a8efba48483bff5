// SPDX-License-Identifier: MIT
#pragma once

#include "jsonparser.h"

#include "core/indexset.h"
#include "core/simtime.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::io {

// Typed access to parsed JSON for readers of io's formats. A missing member or a value of the
// wrong type or range throws FieldError; the public reader catches it and returns an Error, so
// the exception never leaves rankstep_io.
struct FieldError {
    std::string message; // "JSON line 5, column 12: ranks[0].events[3].start: expected ..."
};

[[noreturn]] void failAt(const JsonValue &value, const std::string &path, const std::string &what);

// Batch and shard numbers: a set of them is a bitset, so the bound keeps a hostile file from
// making a few bytes of text cost megabytes.
inline constexpr std::int64_t kMaxIndex = (1 << 16) - 1;

std::int64_t readInteger(const JsonValue &value, const std::string &path, std::int64_t min,
                         std::int64_t max);
core::SimTime readTime(const JsonValue &value, const std::string &path);
// A finite number (JSON has no NaN; a huge exponent still overflows to infinity).
double readNumber(const JsonValue &value, const std::string &path);
core::IndexSet readIndices(const JsonValue &value, const std::string &path);
std::vector<int> readInts(const JsonValue &value, const std::string &path, int min, int max);

// The members of one JSON object, named by their path in the document for messages.
class Fields
{
public:
    Fields(const JsonValue &object, std::string path);

    const std::string &path() const { return m_path; }
    std::string pathOf(std::string_view key) const;
    const JsonValue &get(std::string_view key) const; // required
    bool has(std::string_view key) const { return m_object.find(key) != nullptr; }
    bool isNull(std::string_view key) const; // present and null

    std::int64_t integer(std::string_view key, std::int64_t min = 0,
                         std::int64_t max = std::numeric_limits<std::int64_t>::max()) const;
    int integer32(std::string_view key, int min = 0,
                  int max = std::numeric_limits<int>::max()) const;
    bool boolean(std::string_view key) const;
    const std::string &string(std::string_view key) const;
    core::SimTime time(std::string_view key) const;
    core::IndexSet indices(std::string_view key) const;
    Fields object(std::string_view key) const;
    const std::vector<JsonValue> &array(std::string_view key) const;

private:
    const JsonValue &m_object;
    std::string m_path;
};

} // namespace rankstep::io
