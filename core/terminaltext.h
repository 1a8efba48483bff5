// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace rankstep::core {

// Whether code point `code` steers a terminal instead of showing a character: the C0 controls
// (ESC, CR, BEL, ...), DEL, the C1 controls (U+0080-U+009F, CSI among them), the bidirectional
// embeddings, overrides and isolates (which reorder what is shown), and the Unicode line and
// paragraph separators.
bool isTerminalControl(char32_t code);

// `text` made safe to print on one terminal line: every control (isTerminalControl), line breaks
// and tabs included, becomes a visible escape (`\x1b`, `\r`, `\n`, `\t`; beyond ASCII `\u009b`,
// `\u202e`, as the learner's own output is spelled) and every byte that is not part of well-formed
// UTF-8 becomes `\xNN`; everything else stays as it is. For any text a learner's code or files
// decided (an exception's message, a file or folder name).
std::string terminalLine(std::string_view text);

// The same for text printed as several lines (a traceback, the code's own output): "\n" and tabs
// stay, every other control becomes its visible escape.
std::string terminalText(std::string_view text);

// The length in bytes of the well-formed UTF-8 sequence at text[at] and its code point in `code`,
// or 0 when the bytes there are not one (a stray continuation byte, a truncated or overlong form,
// a surrogate, a code point past U+10FFFF).
std::size_t decodeUtf8(std::string_view text, std::size_t at, char32_t &code);

} // namespace rankstep::core
