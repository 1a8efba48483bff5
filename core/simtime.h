// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rankstep::core {

// Simulated time, kept exact as an integer count of thousandths of a step so that sums of
// 1, 0.5, 0.3 and 0.2 never drift (19.9, never 19.90000000000001).
class SimTime
{
public:
    static constexpr std::int64_t kTicksPerStep = 1000;

    constexpr SimTime() = default;
    static constexpr SimTime fromTicks(std::int64_t ticks) { return SimTime(ticks); }
    static constexpr SimTime steps(std::int64_t whole) { return SimTime(whole * kTicksPerStep); }
    // Parses a non-negative decimal with at most three fractional digits ("0.3", "2", "1.25").
    static std::optional<SimTime> parse(std::string_view text);

    constexpr std::int64_t ticks() const { return m_ticks; }
    constexpr double toDouble() const { return double(m_ticks) / double(kTicksPerStep); }
    // The shortest exact decimal: "19.9", "8", "0.25".
    std::string toString() const;

    constexpr SimTime operator+(SimTime other) const { return SimTime(m_ticks + other.m_ticks); }
    constexpr SimTime operator-(SimTime other) const { return SimTime(m_ticks - other.m_ticks); }
    constexpr SimTime operator*(std::int64_t factor) const { return SimTime(m_ticks * factor); }
    constexpr SimTime &operator+=(SimTime other)
    {
        m_ticks += other.m_ticks;
        return *this;
    }
    // Spelled out rather than `<=>`: Qt's moc cannot parse <compare> in headers it reads.
    constexpr bool operator==(SimTime other) const { return m_ticks == other.m_ticks; }
    constexpr bool operator!=(SimTime other) const { return m_ticks != other.m_ticks; }
    constexpr bool operator<(SimTime other) const { return m_ticks < other.m_ticks; }
    constexpr bool operator<=(SimTime other) const { return m_ticks <= other.m_ticks; }
    constexpr bool operator>(SimTime other) const { return m_ticks > other.m_ticks; }
    constexpr bool operator>=(SimTime other) const { return m_ticks >= other.m_ticks; }

private:
    constexpr explicit SimTime(std::int64_t ticks) : m_ticks(ticks) {}
    std::int64_t m_ticks = 0;
};

} // namespace rankstep::core
