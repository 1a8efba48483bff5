// SPDX-License-Identifier: MIT
#include "sourcetext.h"

#include <sys/resource.h>

#include <cstddef>
#include <cstdio>

namespace rankstep::python {
namespace {

// The length of the UTF-8 sequence at text[at], or 0 when it is not valid UTF-8 (overlong forms
// and surrogates included, as Python's decoder refuses them too).
std::size_t utf8Length(const std::string &text, std::size_t at)
{
    const auto byte = [&](std::size_t i) {
        return static_cast<unsigned char>(text[i]);
    };
    const unsigned char lead = byte(at);
    if (lead < 0x80)
        return 1;
    std::size_t length = 0;
    unsigned min = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        min = 0x80;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        min = 0x800;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (at + length > text.size())
        return 0;
    unsigned code = lead & (0x7F >> length);
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(at + i) & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (byte(at + i) & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        return 0;
    return length;
}

core::Error notText(int line, const std::string &what)
{
    return core::Error(core::ErrorKind::Syntax, -1, line,
                       "This file is not Python source: line " + std::to_string(line) + " holds " +
                           what + ". Open the right file, or paste the code in again as text.");
}

} // namespace

std::optional<core::Error> checkSourceText(const std::string &source)
{
    int line = 1;
    for (std::size_t at = 0; at < source.size();) {
        const char c = source[at];
        if (c == '\0')
            return notText(line, "a NUL byte, as binary files do");
        const std::size_t length = utf8Length(source, at);
        if (length == 0) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(c));
            return notText(line, std::string("the byte ") + hex + ", which is not UTF-8 text");
        }
        if (c == '\n')
            ++line;
        at += length;
    }
    return std::nullopt;
}

namespace {

std::string memoryCap()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        return "the " + std::to_string(limit.rlim_cur >> 20) + " MiB a run may use";
    return "what this machine could give";
}

} // namespace

std::string outOfMemoryMessage()
{
    return "The code ran out of memory: it asked for more than " + memoryCap() + ".";
}

std::string runTooLargeMessage(const core::RunConfig &config)
{
    return "The run ran out of memory: the simulation of " + std::to_string(config.ranks) +
           " ranks, " + std::to_string(config.layers) + " layers and " +
           std::to_string(config.batches) + " batches needs more than " + memoryCap() +
           ". Run it with fewer ranks, layers or batches (or a larger --memory-limit).";
}

} // namespace rankstep::python
