// SPDX-License-Identifier: MIT
#include "hangexplain.h"

#include <algorithm>
#include <map>
#include <set>

namespace rankstep::explain {
namespace {

using core::ErrorKind;
using core::RankWait;
using core::Trace;

bool endedOnAnError(const Trace &trace)
{
    return trace.error && trace.error->kind != ErrorKind::Deadlock &&
           trace.error->kind != ErrorKind::Mismatch && trace.error->rank >= 0;
}

std::set<int> ranksThatRan(const Trace &trace)
{
    std::set<int> ran;
    for (const core::Slice &slice : trace.slices)
        ran.insert(slice.rank);
    return ran;
}

// A mismatch's rank that had not come yet is listed as "(has not reached it yet)".
bool isCall(const RankWait &wait)
{
    return !wait.waitsFor.empty() && wait.waitsFor.front() != '(';
}

RankStanding standingOf(const Trace &trace, const RankWait &wait, const std::set<int> &ran)
{
    RankStanding s{wait.rank, Standing::Waiting, wait.line, {}, {}, false};
    if (endedOnAnError(trace) && wait.rank == trace.error->rank) {
        s.standing = Standing::Stopped;
        s.line = trace.error->line;
    } else if (wait.finished) {
        s.standing = Standing::Finished;
    } else if (isCall(wait)) {
        s.call = wait.waitsFor;
        s.waitsOn = wait.waitsOn;
        s.anySource = wait.waitsFor.find("any rank") != std::string::npos;
    } else {
        s.standing = ran.count(wait.rank) != 0 ? Standing::Underway : Standing::NotStarted;
        if (s.standing == Standing::NotStarted)
            s.line = 0;
    }
    return s;
}

// Only the ranks that keep a wait from ending: stopped, finished or waiting themselves.
void keepRealWaits(std::vector<RankStanding> &ranks)
{
    std::map<int, Standing> standings;
    for (const RankStanding &s : ranks)
        standings[s.rank] = s.standing;
    for (RankStanding &s : ranks) {
        std::erase_if(s.waitsOn, [&](int on) {
            const auto it = standings.find(on);
            return on == s.rank || it == standings.end() || it->second == Standing::NotStarted ||
                   it->second == Standing::Underway;
        });
    }
}

// One cycle among the waiting ranks (each waits on the next, the last on the first); empty when
// the waits form none.
std::vector<int> findCycle(const Hang &hang)
{
    std::map<int, int> state; // 0 unseen, 1 on the path, 2 done
    std::vector<int> path;
    std::vector<int> cycle;
    const auto visit = [&](const auto &self, int rank) -> bool {
        const RankStanding *s = hang.standingOf(rank);
        if (!s || s->standing != Standing::Waiting)
            return false;
        state[rank] = 1;
        path.push_back(rank);
        for (int on : s->waitsOn) {
            if (state[on] == 1) {
                cycle.assign(std::find(path.begin(), path.end(), on), path.end());
                return true;
            }
            if (state[on] == 0 && self(self, on))
                return true;
        }
        path.pop_back();
        state[rank] = 2;
        return false;
    };
    for (const RankStanding &s : hang.ranks)
        if (state[s.rank] == 0 && visit(visit, s.rank))
            break;
    return cycle;
}

// The first waiting rank's call that waits on `rank`.
const RankStanding *waiterOn(const Hang &hang, int rank)
{
    for (const RankStanding &s : hang.ranks)
        if (s.standing == Standing::Waiting &&
            std::find(s.waitsOn.begin(), s.waitsOn.end(), rank) != s.waitsOn.end())
            return &s;
    return nullptr;
}

void classify(const Trace &trace, Hang &hang)
{
    if (trace.diagnosis->kind == ErrorKind::Mismatch) {
        hang.kind = HangKind::Mismatch;
        hang.rank = trace.error ? trace.error->rank : -1;
        hang.line = trace.error ? trace.error->line : 0;
        if (const RankStanding *s = hang.standingOf(hang.rank))
            hang.call = s->call;
        return;
    }
    if (endedOnAnError(trace)) {
        hang.kind = HangKind::Error;
        hang.rank = trace.error->rank;
        hang.line = trace.error->line;
        hang.error = trace.error->message.substr(0, trace.error->message.find('\n'));
        if (const RankStanding *waiter = waiterOn(hang, hang.rank))
            hang.call = waiter->call;
        return;
    }
    hang.cycle = findCycle(hang);
    if (!hang.cycle.empty()) {
        hang.kind = HangKind::Deadlock;
        return;
    }
    for (const RankStanding &s : hang.ranks) {
        const RankStanding *waiter =
            s.standing == Standing::Finished ? waiterOn(hang, s.rank) : nullptr;
        if (waiter) {
            hang.kind = HangKind::MissedCall;
            hang.rank = s.rank;
            hang.call = waiter->call;
            return;
        }
    }
}

} // namespace

const RankStanding *Hang::standingOf(int which) const
{
    const auto it = std::find_if(ranks.begin(), ranks.end(),
                                 [which](const RankStanding &s) { return s.rank == which; });
    return it == ranks.end() ? nullptr : &*it;
}

std::optional<Hang> explainHang(const Trace &trace)
{
    if (!trace.diagnosis)
        return std::nullopt;
    Hang hang;
    const std::set<int> ran = ranksThatRan(trace);
    for (const RankWait &wait : trace.diagnosis->ranks)
        hang.ranks.push_back(standingOf(trace, wait, ran));
    keepRealWaits(hang.ranks);
    classify(trace, hang);
    // A finished rank names the call it never made, which another rank waits in on it.
    for (RankStanding &s : hang.ranks)
        if (s.standing == Standing::Finished)
            if (const RankStanding *waiter = waiterOn(hang, s.rank))
                s.call = waiter->call;
    return hang;
}

} // namespace rankstep::explain
