// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <csignal>
#include <iterator>

namespace rankstep::cli {

// While one lives, SIGINT (Ctrl+C; the app's Esc sends SIGTERM), SIGTERM and SIGHUP stop the
// command's work instead of killing the process: the flag turns true, the command ends its runs
// (runChild's `stop`), says what it did and exits kStopped. `sweep` and `grade` use it.
class StopSignals
{
public:
    StopSignals()
    {
        flag().store(false);
        struct sigaction action {};
        action.sa_handler = [](int) {
            flag().store(true);
        };
        sigemptyset(&action.sa_mask);
        for (std::size_t i = 0; i < std::size(kSignals); ++i)
            sigaction(kSignals[i], &action, &m_previous[i]);
    }
    StopSignals(const StopSignals &) = delete;
    StopSignals &operator=(const StopSignals &) = delete;
    ~StopSignals()
    {
        for (std::size_t i = 0; i < std::size(kSignals); ++i)
            sigaction(kSignals[i], &m_previous[i], nullptr);
    }

    static std::atomic<bool> &flag()
    {
        static std::atomic<bool> stop{false};
        static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
        return stop;
    }
    static bool requested() { return flag().load(); }

private:
    static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction m_previous[std::size(kSignals)]{};
};

} // namespace rankstep::cli
