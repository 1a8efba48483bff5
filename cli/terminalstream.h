// SPDX-License-Identifier: MIT
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace rankstep::cli {

// Passes what the learner's code printed on to a terminal (or the app) as core::terminalText
// spells it: a carriage return, an escape sequence (cursor moves, erasing a line, OSC 52 writing
// the clipboard, hidden text) or a C1 control would let the code redraw lines it did not print,
// such as a forged verdict. Input arrives in chunks; a UTF-8 sequence cut between two chunks is
// kept for the next.
class TerminalStream
{
public:
    explicit TerminalStream(std::ostream &out) : m_out(out) {}
    void write(std::string_view chunk);
    // Writes what is kept back (an unfinished sequence, spelled byte by byte) and flushes.
    void finish();

private:
    std::ostream &m_out;
    std::string m_pending; // the start of a UTF-8 sequence whose other bytes have not come yet
};

} // namespace rankstep::cli
