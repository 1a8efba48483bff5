// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::io {

// One parsed JSON value. Numbers keep the text they were written as, so that times ("19.9") and
// large integers are read exactly, never through a double.
struct JsonValue {
    enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };

    Type type = Type::Null;
    bool boolean = false;
    std::string text;              // String: the decoded UTF-8; Number: as written ("-0.25e3")
    std::vector<JsonValue> items;  // Array: the elements; Object: the member values
    std::vector<std::string> keys; // Object: the member names, parallel to items
    int line = 1;                  // where the value starts, 1-based
    int column = 1;                // 1-based, counted in bytes

    bool isNull() const { return type == Type::Null; }
    bool isObject() const { return type == Type::Object; }
    bool isArray() const { return type == Type::Array; }
    // The member called key of an object, nullptr when there is none (or this is no object).
    const JsonValue *find(std::string_view key) const;
};

// Arrays and objects nested deeper than this are rejected, so hostile input cannot exhaust the
// stack.
inline constexpr int kMaxJsonDepth = 64;

// Parses one JSON document (RFC 8259, UTF-8; duplicate keys rejected). Errors are of kind Usage
// with a message "JSON line L, column C: what is wrong".
core::Result<JsonValue> parseJson(std::string_view text);

} // namespace rankstep::io
