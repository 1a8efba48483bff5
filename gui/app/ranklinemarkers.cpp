// SPDX-License-Identifier: MIT
#include "ranklinemarkers.h"

#include "codeeditor.h"
#include "runsession.h"
#include "stepcontroller.h"
#include "waitforview.h"

namespace rankstep::gui {
namespace {

// At the end of a run an error stopped with no hang's diagnosis (no rank waits in a collective
// for the failed one): each rank left waiting in a receive or a collective stands at that call,
// where its last turn ended. It stood on the line of its operation before, with no marker on the
// receive it waits in, where a rank waiting in a collective gets one from the diagnosis.
void placeWaitingRanks(const core::Trace &trace, std::vector<std::pair<int, int>> &lines)
{
    std::vector<bool> seen(lines.size(), false);
    std::size_t left = lines.size();
    for (auto it = trace.slices.rbegin(); it != trace.slices.rend() && left > 0; ++it) {
        if (it->rank < 0 || std::size_t(it->rank) >= lines.size() || seen[std::size_t(it->rank)])
            continue;
        seen[std::size_t(it->rank)] = true;
        --left;
        if ((it->end == core::SliceEnd::Receive || it->end == core::SliceEnd::Collective) &&
            it->line > 0)
            lines[std::size_t(it->rank)].second = it->line;
    }
}

// Each rank's line at the cursor; at the end of a hung run, the call each rank waits in, and no
// marker for a rank that finished (its last operation's line would look like where it hangs).
std::vector<std::pair<int, int>> rankLines(RunSession &session)
{
    StepController &step = session.stepper();
    const replay::RunState &state = step.state();
    std::vector<std::pair<int, int>> lines;
    for (std::size_t rank = 0; rank < state.ranks.size(); ++rank)
        lines.emplace_back(int(rank), state.ranks[rank].line);
    const auto &diagnosis = session.trace()->diagnosis;
    if (diagnosis && step.atEnd()) {
        for (const core::RankWait &wait : diagnosis->ranks)
            if (std::size_t(wait.rank) < lines.size() && (wait.finished || wait.line > 0))
                lines[std::size_t(wait.rank)].second = wait.finished ? 0 : wait.line;
    }
    // A rank that failed stands on the line of its error, not its last recorded operation.
    const auto &error = session.trace()->error;
    if (error && !diagnosis && step.atEnd())
        placeWaitingRanks(*session.trace(), lines);
    if (error && !diagnosis && step.atEnd() && error->rank >= 0 && error->line > 0 &&
        std::size_t(error->rank) < lines.size())
        lines[std::size_t(error->rank)].second = error->line;
    return lines;
}

} // namespace

RankLineMarkers::RankLineMarkers(RunSession &session, CodeEditor &editor, WaitForView &waitFor,
                                 QObject *parent)
    : QObject(parent), m_session(session), m_editor(editor)
{
    connect(&session.stepper(), &StepController::cursorChanged, this,
            &RankLineMarkers::onCursorChanged);
    connect(&waitFor, &WaitForView::rankActivated, this, [this](int rank, int line) {
        auto lines = rankLines(m_session);
        for (auto &[lineRank, rankLine] : lines)
            if (lineRank == rank && line > 0) // a finished rank waits on no line
                rankLine = line;
        m_editor.setRankLines(lines, rank);
        m_editor.jumpToLine(line);
    });
}

void RankLineMarkers::onCursorChanged()
{
    const auto cursor = m_session.stepper().cursor();
    if (!cursor) {
        m_editor.clearRankLines();
        return;
    }
    if (!cursor->atEnd()) // stepping: show what every rank holds
        Q_EMIT stepping();
    const auto event = cursor->lastEvent();
    m_editor.setRankLines(rankLines(m_session), event ? m_session.trace()->events[*event].rank : 0);
}

} // namespace rankstep::gui
