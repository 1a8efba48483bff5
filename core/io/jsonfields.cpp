// SPDX-License-Identifier: MIT
#include "jsonfields.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace rankstep::io {

void failAt(const JsonValue &value, const std::string &path, const std::string &what)
{
    throw FieldError{"JSON line " + std::to_string(value.line) + ", column " +
                     std::to_string(value.column) + ": " + (path.empty() ? "" : path + ": ") +
                     what};
}

namespace {

std::string quoted(const JsonValue &value)
{
    constexpr std::size_t kShown = 40;
    switch (value.type) {
        case JsonValue::Type::Null:
            return "null";
        case JsonValue::Type::Bool:
            return value.boolean ? "true" : "false";
        case JsonValue::Type::Number:
            return value.text.substr(0, kShown);
        case JsonValue::Type::String:
            return "the string \"" + value.text.substr(0, kShown) + "\"";
        case JsonValue::Type::Array:
            return "an array";
        case JsonValue::Type::Object:
            return "an object";
    }
    return "?";
}

} // namespace

std::int64_t readInteger(const JsonValue &value, const std::string &path, std::int64_t min,
                         std::int64_t max)
{
    const std::string range = " from " + std::to_string(min) + " to " + std::to_string(max);
    std::int64_t result = 0;
    const char *begin = value.text.data();
    const char *end = begin + value.text.size();
    const bool number = value.type == JsonValue::Type::Number;
    const auto [stop, error] = std::from_chars(begin, end, result);
    if (!number || error != std::errc() || stop != end || result < min || result > max)
        failAt(value, path, "expected an integer" + range + ", got " + quoted(value));
    return result;
}

double readNumber(const JsonValue &value, const std::string &path)
{
    if (value.type != JsonValue::Type::Number)
        failAt(value, path, "expected a number");
    const double result = std::strtod(value.text.c_str(), nullptr);
    if (!std::isfinite(result))
        failAt(value, path, "expected a finite number");
    return result;
}

core::SimTime readTime(const JsonValue &value, const std::string &path)
{
    std::string_view text = value.text;
    const bool negative = text.starts_with('-');
    if (negative)
        text.remove_prefix(1);
    const auto time =
        value.type == JsonValue::Type::Number ? core::SimTime::parse(text) : std::nullopt;
    if (!time)
        failAt(value, path,
               "expected a time in steps (a decimal with at most three fractional digits), got " +
                   quoted(value));
    return negative ? core::SimTime() - *time : *time;
}

core::IndexSet readIndices(const JsonValue &value, const std::string &path)
{
    if (!value.isArray())
        failAt(value, path, "expected an array of indices, got " + quoted(value));
    core::IndexSet set;
    for (std::size_t i = 0; i < value.items.size(); ++i)
        set.insert(
            int(readInteger(value.items[i], path + "[" + std::to_string(i) + "]", 0, kMaxIndex)));
    return set;
}

std::vector<int> readInts(const JsonValue &value, const std::string &path, int min, int max)
{
    if (!value.isArray())
        failAt(value, path, "expected an array of integers, got " + quoted(value));
    std::vector<int> ints;
    for (std::size_t i = 0; i < value.items.size(); ++i)
        ints.push_back(
            int(readInteger(value.items[i], path + "[" + std::to_string(i) + "]", min, max)));
    return ints;
}

Fields::Fields(const JsonValue &object, std::string path)
    : m_object(object), m_path(std::move(path))
{
    if (!object.isObject())
        failAt(object, m_path, "expected an object, got " + quoted(object));
}

std::string Fields::pathOf(std::string_view key) const
{
    return m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
}

const JsonValue &Fields::get(std::string_view key) const
{
    const JsonValue *value = m_object.find(key);
    if (!value)
        failAt(m_object, m_path, "the member \"" + std::string(key) + "\" is missing");
    return *value;
}

bool Fields::isNull(std::string_view key) const
{
    return get(key).isNull();
}

std::int64_t Fields::integer(std::string_view key, std::int64_t min, std::int64_t max) const
{
    return readInteger(get(key), pathOf(key), min, max);
}

int Fields::integer32(std::string_view key, int min, int max) const
{
    return int(readInteger(get(key), pathOf(key), min, max));
}

bool Fields::boolean(std::string_view key) const
{
    const JsonValue &value = get(key);
    if (value.type != JsonValue::Type::Bool)
        failAt(value, pathOf(key), "expected true or false, got " + quoted(value));
    return value.boolean;
}

const std::string &Fields::string(std::string_view key) const
{
    const JsonValue &value = get(key);
    if (value.type != JsonValue::Type::String)
        failAt(value, pathOf(key), "expected a string, got " + quoted(value));
    return value.text;
}

core::SimTime Fields::time(std::string_view key) const
{
    return readTime(get(key), pathOf(key));
}

core::IndexSet Fields::indices(std::string_view key) const
{
    return readIndices(get(key), pathOf(key));
}

Fields Fields::object(std::string_view key) const
{
    return Fields(get(key), pathOf(key));
}

const std::vector<JsonValue> &Fields::array(std::string_view key) const
{
    const JsonValue &value = get(key);
    if (!value.isArray())
        failAt(value, pathOf(key), "expected an array, got " + quoted(value));
    return value.items;
}

} // namespace rankstep::io
