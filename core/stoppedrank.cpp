// SPDX-License-Identifier: MIT
#include "stoppedrank.h"

#include "sentences.h"

#include <algorithm>
#include <vector>

namespace rankstep::core {

bool endedOnARanksOwnError(const Trace &trace)
{
    if (!trace.error || trace.error->rank < 0)
        return false;
    const ErrorKind kind = trace.error->kind;
    return kind != ErrorKind::Deadlock && kind != ErrorKind::Mismatch && kind != ErrorKind::Stopped;
}

std::string waitingOnTheStoppedRank(const Trace &trace)
{
    if (!endedOnARanksOwnError(trace) || !trace.diagnosis)
        return {};
    const int stopped = trace.error->rank;
    std::string call;
    std::vector<int> waiters;
    for (const RankWait &wait : trace.diagnosis->ranks) {
        // A rank of a mismatch that had not come yet says "(has not reached it yet)".
        if (wait.rank == stopped || wait.finished || wait.waitsFor.empty() ||
            wait.waitsFor.front() == '(' ||
            std::find(wait.waitsOn.begin(), wait.waitsOn.end(), stopped) == wait.waitsOn.end())
            continue;
        if (call.empty())
            call = wait.waitsFor;
        if (wait.waitsFor == call)
            waiters.push_back(wait.rank);
    }
    if (waiters.empty())
        return {};
    std::string who; // "0", "0 and 1", "0, 1 and 2", as the engine lists waiters
    for (std::size_t i = 0; i < waiters.size(); ++i)
        who += (i == 0                    ? ""
                : i + 1 == waiters.size() ? " and "
                                          : ", ") +
               std::to_string(waiters[i]);
    return say(waiters.size() > 1 ? sentence::kRanksWaitForIt : sentence::kRankWaitsForIt,
               {who, call});
}

} // namespace rankstep::core
