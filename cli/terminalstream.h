// SPDX-License-Identifier: MIT
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace rankstep::cli {

// Passes what the learner's code printed on to a terminal (or the app) with its control
// characters made visible: a carriage return, an escape sequence (cursor moves, erasing a line,
// OSC 52 writing the clipboard, hidden text) or a C1 control would let the code redraw lines it
// did not print, such as a forged verdict. Tabs and line ends pass. `\r` becomes "\r", ESC
// "\x1b", U+009B "\u009b" (the letters, not the characters). Input arrives in chunks; a UTF-8
// sequence cut between two chunks is kept for the next.
class TerminalStream
{
public:
    explicit TerminalStream(std::ostream &out) : m_out(out) {}
    void write(std::string_view chunk);
    // Writes what is kept back (an unfinished sequence) and flushes.
    void finish();

private:
    std::ostream &m_out;
    std::string m_pending; // a lead byte 0xC2 whose second byte has not come yet
};

// The same for one whole text.
std::string visibleControls(std::string_view text);

} // namespace rankstep::cli
