// SPDX-License-Identifier: MIT
// Waiting for a window's layouts to settle after a resize, a zoom or a rearrangement: as many
// rounds of events as that takes, not a stretch of wall-clock time.
#pragma once

#include "tests/gui/support/eventwaits.h"

#include <QElapsedTimer>
#include <QRect>
#include <QWidget>

#include <vector>

namespace rankstep::gui::testing {

// Processes events until two rounds in a row (the posted events, then the zero timers they
// started, such as a deferred arrangement) change the geometry of no widget in `top`: its
// layouts settled. False when they still move after timeoutMs.
inline bool settleLayouts(QWidget &top, int timeoutMs = kSettleTimeoutMs)
{
    const auto geometries = [&top] {
        std::vector<QRect> found{top.geometry()};
        for (const QWidget *widget : top.findChildren<QWidget *>())
            found.push_back(widget->isVisible() ? widget->geometry() : QRect());
        return found;
    };
    QElapsedTimer clock;
    clock.start();
    int quietRounds = 0;
    while (quietRounds < 2) {
        const std::vector<QRect> before = geometries();
        if (!deliverPostedEvents(timeoutMs) || !letTimersFire(0, timeoutMs))
            return false;
        quietRounds = geometries() == before ? quietRounds + 1 : 0;
        if (clock.hasExpired(timeoutMs))
            return false;
    }
    return true;
}

} // namespace rankstep::gui::testing
