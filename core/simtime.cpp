// SPDX-License-Identifier: MIT
#include "simtime.h"

#include <cctype>

namespace rankstep::core {

std::optional<SimTime> SimTime::parse(std::string_view text)
{
    std::int64_t whole = 0;
    std::int64_t fraction = 0;
    std::int64_t scale = kTicksPerStep;
    bool seenDigit = false;
    bool inFraction = false;
    for (char c : text) {
        if (c == '.' && !inFraction) {
            inFraction = true;
            continue;
        }
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
        seenDigit = true;
        const int digit = c - '0';
        if (inFraction) {
            scale /= 10;
            if (scale == 0)
                return std::nullopt; // finer than a thousandth
            fraction += digit * scale;
        } else {
            whole = whole * 10 + digit;
            if (whole > (std::int64_t(1) << 40))
                return std::nullopt;
        }
    }
    if (!seenDigit)
        return std::nullopt;
    return SimTime(whole * kTicksPerStep + fraction);
}

std::string SimTime::toString() const
{
    const bool negative = m_ticks < 0;
    const std::int64_t magnitude = negative ? -m_ticks : m_ticks;
    std::string text;
    if (negative)
        text.push_back('-');
    text += std::to_string(magnitude / kTicksPerStep);
    std::int64_t fraction = magnitude % kTicksPerStep;
    if (fraction == 0)
        return text;
    std::string digits = std::to_string(fraction + kTicksPerStep).substr(1);
    while (!digits.empty() && digits.back() == '0')
        digits.pop_back();
    return text + "." + digits;
}

} // namespace rankstep::core
