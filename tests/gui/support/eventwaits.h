// SPDX-License-Identifier: MIT
// Waits that hold on a loaded machine: on a condition, on a queued marker, on a timer that falls
// due after the ones under test; never on a stretch of wall-clock time, which a busy 2-core
// machine can spend without running the test's process at all.
#pragma once

#include <QCoreApplication>
#include <QEvent>
#include <QMetaObject>
#include <QObject>
#include <QTest>
#include <QTimer>

#include "tests/support/loopingcode.h"

#include <unistd.h>

#include <cstddef>
#include <memory>

namespace rankstep::gui::testing {

// The bound of a wait on a condition: far beyond what the condition takes on a loaded machine,
// there only so that a broken condition fails instead of hanging.
inline constexpr int kSettleTimeoutMs = 30000;

// Processes events until a call queued now has run: everything posted before it (layout
// requests, queued signals, deferred updates) has been delivered by then.
inline bool deliverPostedEvents(int timeoutMs = kSettleTimeoutMs)
{
    const auto arrived = std::make_shared<bool>(false);
    QMetaObject::invokeMethod(
        QCoreApplication::instance(), [arrived] { *arrived = true; }, Qt::QueuedConnection);
    return QTest::qWaitFor([&] { return *arrived; }, timeoutMs);
}

// Processes events until every timer that falls due within `ms` from now has fired: Qt delivers
// timers in the order they fall due, and a precise marker timer of twice that (a coarse timer
// may fire up to 5% late), started now, falls due after all of them.
inline bool letTimersFire(int ms, int timeoutMs = kSettleTimeoutMs)
{
    const auto fired = std::make_shared<bool>(false);
    auto *marker = new QTimer(QCoreApplication::instance());
    marker->setSingleShot(true);
    marker->setTimerType(Qt::PreciseTimer);
    QObject::connect(marker, &QTimer::timeout, marker, [fired, marker] {
        *fired = true;
        marker->deleteLater();
    });
    marker->start(2 * ms + 1);
    return QTest::qWaitFor([&] { return *fired; }, timeoutMs);
}

// Counts the events of one type an object receives (paints, resizes), to wait for the next one.
class EventCounter : public QObject
{
public:
    EventCounter(QObject *watched, QEvent::Type type) : m_type(type)
    {
        watched->installEventFilter(this);
    }
    int count() const { return m_count; }
    // Processes events until one more arrives than `seen`.
    bool waitPast(int seen, int timeoutMs = kSettleTimeoutMs) const
    {
        return QTest::qWaitFor([&] { return m_count > seen; }, timeoutMs);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == m_type)
            ++m_count;
        return QObject::eventFilter(watched, event);
    }

private:
    QEvent::Type m_type;
    int m_count = 0;
};

// Processes events until `runs` runs this test started are in the loop of
// testsupport::loopingBody (under way, not still starting).
inline bool waitForRunsInTheirLoops(std::size_t runs = 1, int timeoutMs = kSettleTimeoutMs)
{
    return QTest::qWaitFor([&] { return testsupport::runsInTheirLoops(getpid()) >= runs; },
                           timeoutMs);
}

} // namespace rankstep::gui::testing
