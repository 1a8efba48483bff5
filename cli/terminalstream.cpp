// SPDX-License-Identifier: MIT
#include "terminalstream.h"

#include "core/terminaltext.h"

#include <utility>

namespace rankstep::cli {
namespace {

// How many bytes at the end of `text` begin a UTF-8 sequence that is not complete yet.
std::size_t unfinishedTail(std::string_view text)
{
    for (std::size_t back = 1; back <= 3 && back <= text.size(); ++back) {
        const auto byte = static_cast<unsigned char>(text[text.size() - back]);
        if ((byte & 0xC0) == 0x80)
            continue; // a continuation byte: look further back for its lead
        const std::size_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
        return length > back ? back : 0;
    }
    return 0;
}

} // namespace

void TerminalStream::write(std::string_view chunk)
{
    if (chunk.empty())
        return;
    std::string text = std::exchange(m_pending, {});
    text.append(chunk);
    const std::size_t kept = unfinishedTail(text);
    m_pending = text.substr(text.size() - kept);
    text.resize(text.size() - kept);
    m_out << core::terminalText(text);
    m_out.flush();
}

void TerminalStream::finish()
{
    if (!m_pending.empty())
        m_out << core::terminalText(m_pending);
    m_pending.clear();
    m_out.flush();
}

} // namespace rankstep::cli
