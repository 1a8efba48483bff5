// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rankstep::io {

// Length in bytes of the well-formed UTF-8 sequence that starts at text[pos] (1 for ASCII), or 0
// when the bytes there are not one: a stray continuation byte, a truncated sequence, an overlong
// form, a surrogate or a code point past U+10FFFF.
std::size_t utf8SequenceLength(std::string_view text, std::size_t pos);

// Appends code point `code` (at most U+10FFFF, no surrogate) encoded as UTF-8.
void appendUtf8(std::string &out, std::uint32_t code);

} // namespace rankstep::io
