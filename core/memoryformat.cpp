// SPDX-License-Identifier: MIT
#include "memoryformat.h"

#include <array>
#include <cstdio>
#include <cstdlib>

namespace rankstep::core {

std::string formatMemory(std::int64_t bytes)
{
    struct Unit {
        double size;
        const char *name;
    };
    static constexpr std::array<Unit, 3> units = {{{1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}}};
    const auto value = static_cast<double>(bytes);
    for (const Unit &unit : units) {
        if (std::abs(value) >= unit.size) {
            std::array<char, 64> buffer{};
            std::snprintf(buffer.data(), buffer.size(), "%.2f", value / unit.size);
            std::string number = buffer.data();
            while (number.back() == '0')
                number.pop_back();
            if (number.back() == '.')
                number.pop_back();
            return number + " " + unit.name;
        }
    }
    return std::to_string(bytes) + " B";
}

std::string formatMemoryExact(std::int64_t bytes)
{
    const std::string exact = std::to_string(bytes) + " B";
    if (std::abs(bytes) < 1000)
        return exact;
    return exact + " (" + formatMemory(bytes) + ")";
}

} // namespace rankstep::core
