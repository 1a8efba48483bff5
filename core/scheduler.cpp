// SPDX-License-Identifier: MIT
// Engine: the deterministic scheduler of rank programs, deadlock diagnosis and figures.
#include "engine.h"
#include "sentences.h"

#include <algorithm>

namespace rankstep::core {

void Engine::fail(Error error)
{
    if (!m_fatal)
        m_fatal = std::move(error);
}

// Ranks run one at a time in a fixed order: first 0..R-1, then in the order their waits complete.
// A slice lasts until the rank suspends, finishes or fails; nothing else interleaves.
void Engine::run(ProgramList &programs)
{
    if (int(programs.size()) != ranks()) {
        fail(Error{ErrorKind::Usage, -1, 0,
                   "The run has " + std::to_string(ranks()) + " ranks but " +
                       std::to_string(programs.size()) + " programs."});
        finish();
        return;
    }
    m_runnable.reserve(std::size_t(ranks()));
    for (int r = 0; r < ranks(); ++r)
        m_runnable.push(r);
    while (!m_runnable.empty() && !m_fatal) {
        if (m_stopRequested.load(std::memory_order_acquire)) {
            fail(Error{ErrorKind::Stopped, -1, 0,
                       m_stopSeconds > 0
                           ? say(sentence::kTimeLimit, {formatStopSeconds(m_stopSeconds)})
                           : say(sentence::kStopped, {m_stopReason})});
            break;
        }
        const int r = m_runnable.pop();
        if (m_lookingAhead)
            lookAhead();
        RankState &rank = m_ranks[std::size_t(r)];
        Slice slice;
        slice.rank = r;
        slice.eventBegin = std::uint32_t(m_trace.events.size());
        slice.changeBegin = std::uint32_t(m_trace.changes.size());
        m_current = r;
        rank.ran = true;
        ProgramStep step = programs[std::size_t(r)]->resume();
        m_current = -1;
        slice.eventEnd = std::uint32_t(m_trace.events.size());
        slice.changeEnd = std::uint32_t(m_trace.changes.size());
        slice.line = rank.lastLine;
        switch (step.state) {
            case ProgramStep::Suspended:
                if (rank.comm != CommState::Pending) {
                    fail(Error{ErrorKind::Internal, r, rank.lastLine,
                               "Rank " + std::to_string(r) +
                                   " paused without waiting for a collective or a message."});
                    slice.end = SliceEnd::Failed;
                    break;
                }
                slice.end =
                    rank.pending.op == OpKind::Receive ? SliceEnd::Receive : SliceEnd::Collective;
                slice.detail = pendingDetail(rank.pending);
                slice.line = rank.pending.line;
                break;
            case ProgramStep::Finished:
                rank.finished = true;
                slice.end = SliceEnd::Finished;
                // A handle never awaited: its result was never used (docs/simulation.md).
                for (const auto &[handle, started] : rank.started)
                    warn(CallSite{r, started.line},
                         say(sentence::kNeverAwaited, {describeCall(started.op, started.layer)}));
                break;
            case ProgramStep::Failed:
                slice.end = SliceEnd::Failed;
                if (step.error) {
                    slice.line = step.error->line;
                    slice.detail = m_trace.details.intern(step.error->message);
                    fail(*step.error);
                } else {
                    fail(Error{ErrorKind::Internal, r, rank.lastLine, "The rank failed."});
                }
                break;
        }
        m_trace.slices.push_back(std::move(slice));
    }
    if (!m_fatal)
        diagnoseDeadlock();
    else
        diagnoseWaitsAtFailure();
    finish();
}

// In a many-rank run a rank's storage is out of the cache by its next turn, and a lookup is a
// chain of reads that each wait for memory: the key's place in its table, the entry, the object.
// The ranks run in turn and mostly do what the one before did, so the last slice's lookups are
// asked ahead for the next three ranks, one step deeper the sooner a rank runs: each step then
// finds in the cache what the one before read. FSDP at 1024 ranks: a third of the engine's time
// went to those reads, and a run takes about a sixth less with them asked ahead
// (docs/benchmarks.md); fewer ranks ahead took longer, a fourth no less. Nothing here changes what
// a run does.
void Engine::lookAhead()
{
    if (m_trail.count == 0)
        return;
    for (std::size_t k = 0; k < 3 && k < m_runnable.size(); ++k)
        m_ranks[std::size_t(m_runnable.peek(k))].storage.lookAhead(m_trail, 3 - int(k));
    m_trail.count = 0;
}

// A rank failed (its update refused a gradient it never summed, say) while others wait in a
// collective it has not called: that skipped collective is the cause, so the error names it
// and the trace gets the picture of who waits on whom.
void Engine::diagnoseWaitsAtFailure()
{
    const int failed = m_fatal->rank;
    if ((m_fatal->kind != ErrorKind::Check && m_fatal->kind != ErrorKind::Exception) ||
        failed < 0 || failed >= ranks())
        return;
    Diagnosis diagnosis{ErrorKind::Deadlock, {}};
    std::string waits, skipped;
    std::vector<int> waiters;
    // A collective that failed as it completed (an alltoall whose members are at different
    // all-to-alls, say): every member called it, so none waits for the failed rank to call it.
    const RankState &failing = m_ranks[std::size_t(failed)];
    const bool failedInCollective =
        failing.comm == CommState::Pending && isCollective(failing.pending.op);
    const auto sameCollective = [&](const RankState &rank) {
        return failedInCollective && isCollective(rank.pending.op) &&
               rank.pending.groupId == failing.pending.groupId &&
               rank.pending.instance == failing.pending.instance;
    };
    for (int r = 0; r < ranks(); ++r) {
        const RankState &rank = m_ranks[std::size_t(r)];
        RankWait wait{r, rank.finished, rank.lastLine, {}, {}};
        if (r == failed) {
            wait.line = m_fatal->line;
        } else if (rank.comm == CommState::Pending && sameCollective(rank)) {
            wait.line = rank.pending.line; // in the failed collective with the failed rank
        } else if (rank.comm == CommState::Pending && rank.pending.op == OpKind::Receive) {
            describeWait(r, wait); // drawn as waiting; the message names the skipped collective
        } else if (rank.comm == CommState::Pending) {
            describeWait(r, wait);
            if (std::find(wait.waitsOn.begin(), wait.waitsOn.end(), failed) != wait.waitsOn.end()) {
                waiters.push_back(r);
                skipped = wait.waitsFor;
            }
            waits += "\n  " + describeWaitLine(wait, diagnosis);
        }
        diagnosis.ranks.push_back(std::move(wait));
    }
    if (waiters.empty())
        return;
    std::string who;
    for (std::size_t i = 0; i < waiters.size(); ++i)
        who += (i == 0                    ? ""
                : i + 1 == waiters.size() ? " and "
                                          : ", ") +
               std::to_string(waiters[i]);
    m_fatal->message += waits + "\n  " +
                        say(waiters.size() > 1 ? sentence::kStoppedWithoutCallingMany
                                               : sentence::kStoppedWithoutCallingOne,
                            {std::to_string(failed), std::to_string(m_fatal->line), skipped, who});
    m_trace.diagnosis = std::move(diagnosis);
}

void Engine::diagnoseDeadlock()
{
    std::vector<int> blocked;
    for (int r = 0; r < ranks(); ++r)
        if (!m_ranks[std::size_t(r)].finished)
            blocked.push_back(r);
    if (blocked.empty())
        return;
    Diagnosis diagnosis{ErrorKind::Deadlock, {}};
    std::string message = sentence::kDeadlock;
    for (int r = 0; r < ranks(); ++r) {
        const RankState &rank = m_ranks[std::size_t(r)];
        RankWait wait{r, rank.finished, rank.lastLine, {}, {}};
        if (!rank.finished)
            describeWait(r, wait);
        diagnosis.ranks.push_back(std::move(wait));
    }
    for (const RankWait &wait : diagnosis.ranks)
        message += "\n  " + describeWaitLine(wait, diagnosis);
    m_trace.diagnosis = std::move(diagnosis);
    const int first = blocked.front();
    fail(Error{ErrorKind::Deadlock, first, m_ranks[std::size_t(first)].pending.line, message});
}

// What blocked rank r waits for and on whom.
void Engine::describeWait(int r, RankWait &wait) const
{
    const Pending &pending = m_ranks[std::size_t(r)].pending;
    wait.line = pending.line;
    wait.waitsFor = describePending(pending);
    if (pending.op == OpKind::Receive) {
        for (int other = 0; other < ranks(); ++other)
            if (other != r && (!pending.source || *pending.source == other))
                wait.waitsOn.push_back(other);
        return;
    }
    const auto it = m_open.find({pending.groupId, pending.instance});
    for (int member : m_groups[std::size_t(pending.groupId)]) {
        const bool arrived =
            it != m_open.end() && std::find(it->second.arrived.begin(), it->second.arrived.end(),
                                            member) != it->second.arrived.end();
        if (!arrived)
            wait.waitsOn.push_back(member);
    }
}

// "rank 0 waits in allreduce(layer 1) at line 12 for rank 3 (finished)", or for a finished rank
// the collective it never called that others wait in. Each rank waited on says where it stands,
// as the hang's picture draws it (explain::explainHang): stopped by an error, finished, never
// started or cut short by the error; a rank waiting itself is named alone.
std::string Engine::describeWaitLine(const RankWait &wait, const Diagnosis &diagnosis) const
{
    const std::string who = std::to_string(wait.rank);
    if (wait.finished) {
        for (const RankWait &other : diagnosis.ranks)
            if (!other.finished && other.waitsFor.rfind("receive", 0) != 0 &&
                std::find(other.waitsOn.begin(), other.waitsOn.end(), wait.rank) !=
                    other.waitsOn.end())
                return say(sentence::kFinishedWithoutCalling, {who, other.waitsFor});
        return say(sentence::kHasFinished, {who});
    }
    std::string on;
    for (int other : wait.waitsOn)
        on += (on.empty() ? "" : ", ") + waitedOnRank(other);
    const std::string line = std::to_string(wait.line);
    if (on.empty())
        return say(sentence::kWaitsIn, {who, wait.waitsFor, line});
    return say(wait.waitsOn.size() > 1 ? sentence::kWaitsInForRanks : sentence::kWaitsInForRank,
               {who, wait.waitsFor, line, on});
}

// A rank another waits on: "3 (finished)", "1 (stopped by an error)", "2 (never started)",
// "2 (cut short)", or its number alone while it waits itself.
std::string Engine::waitedOnRank(int other) const
{
    const RankState &rank = m_ranks[std::size_t(other)];
    const std::string number = std::to_string(other);
    if (rank.finished)
        return say(sentence::kFinishedRank, {number});
    if (m_fatal && m_fatal->rank == other && m_fatal->kind != ErrorKind::Deadlock &&
        m_fatal->kind != ErrorKind::Mismatch)
        return say(sentence::kStoppedRank, {number});
    if (rank.comm == CommState::Pending)
        return number;
    return say(rank.ran ? sentence::kCutShortRank : sentence::kNotStartedRank, {number});
}

void Engine::finish()
{
    Trace &trace = m_trace;
    trace.figures = computeFigures(trace.events, ranks());
    trace.check = checkFinalWeights(trace.finalWeights, config().layers);
    trace.error = m_fatal;
    if (!m_fatal)
        trace.status = RunStatus::Ok;
    else if (m_fatal->kind == ErrorKind::Deadlock || m_fatal->kind == ErrorKind::Mismatch)
        trace.status = RunStatus::Deadlock;
    else if (m_fatal->kind == ErrorKind::Stopped)
        trace.status = RunStatus::Stopped;
    else
        trace.status = RunStatus::Error;
}

} // namespace rankstep::core
