// SPDX-License-Identifier: MIT
#include "terminalstream.h"

#include <cstdio>
#include <utility>

namespace rankstep::cli {
namespace {

// Appends `text` with its control characters spelled out; returns how many bytes at its end
// wait for more (a 0xC2 that may start a C1 control).
std::size_t spell(std::string_view text, std::string &out)
{
    out.reserve(out.size() + text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\n' || byte == '\t' || (byte >= 0x20 && byte != 0x7f && byte != 0xC2)) {
            out.push_back(char(byte));
            continue;
        }
        char spelled[16];
        if (byte == 0xC2) {
            if (i + 1 == text.size())
                return 1;
            const auto next = static_cast<unsigned char>(text[i + 1]);
            if (next < 0x80 || next > 0x9F) {
                out.push_back(char(byte));
                continue;
            }
            std::snprintf(spelled, sizeof spelled, "\\u%04x", unsigned(next));
            ++i;
        } else if (byte == '\r') {
            std::snprintf(spelled, sizeof spelled, "\\r");
        } else {
            std::snprintf(spelled, sizeof spelled, "\\x%02x", unsigned(byte));
        }
        out += spelled;
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
    std::string out;
    const std::size_t kept = spell(text, out);
    m_pending = text.substr(text.size() - kept);
    m_out << out;
    m_out.flush();
}

void TerminalStream::finish()
{
    if (!m_pending.empty())
        m_out << "\\xc2";
    m_pending.clear();
    m_out.flush();
}

std::string visibleControls(std::string_view text)
{
    std::string out;
    if (spell(text, out) > 0)
        out += "\\xc2";
    return out;
}

} // namespace rankstep::cli
