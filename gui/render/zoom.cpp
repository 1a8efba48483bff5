// SPDX-License-Identifier: MIT
#include "zoom.h"

#include <algorithm>
#include <array>

namespace rankstep::gui {
namespace {

constexpr std::array kLadder = {0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0};

} // namespace

double nextZoomIn(double factor)
{
    const auto next = std::upper_bound(kLadder.begin(), kLadder.end(), factor + 1e-6);
    return next == kLadder.end() ? kLadder.back() : *next;
}

double nextZoomOut(double factor)
{
    const auto next = std::lower_bound(kLadder.begin(), kLadder.end(), factor - 1e-6);
    return next == kLadder.begin() ? kLadder.front() : *(next - 1);
}

} // namespace rankstep::gui
