// SPDX-License-Identifier: MIT
#include "demostage.h"

#include "appearance.h"
#include "presentation.h"
#include "runsession.h"
#include "stepcontroller.h"
#include "timelinegeometry.h"

#include <algorithm>

namespace rankstep::gui {
namespace {

std::optional<io::DemoCursor> captureCursor(const StepController &stepper)
{
    const auto cursor = stepper.cursor();
    if (!cursor)
        return std::nullopt;
    io::DemoCursor demo;
    if (const auto mark = cursor->mark()) {
        demo.kind = io::DemoCursor::Kind::Mark;
        demo.stop = std::int64_t(*mark);
    } else if (cursor->cut() && cursor->movedRank()) { // one operation's start
        demo.kind = io::DemoCursor::Kind::Operation;
        demo.stop = std::int64_t(cursor->operations());
    } else if (const auto cut = cursor->cut()) {
        demo.kind = io::DemoCursor::Kind::Cut;
        demo.cut = *cut;
    } else {
        demo.stop = std::int64_t(cursor->stop());
    }
    return demo;
}

void applyCursor(StepController &stepper, const io::DemoCursor &cursor)
{
    switch (cursor.kind) {
        case io::DemoCursor::Kind::Stop:
            stepper.toStop(std::size_t(cursor.stop));
            break;
        case io::DemoCursor::Kind::Mark:
            stepper.toSnapshot(int(std::min<std::int64_t>(cursor.stop, 1 << 30)));
            break;
        case io::DemoCursor::Kind::Cut:
            stepper.toCut(cursor.cut);
            break;
        case io::DemoCursor::Kind::Operation:
            stepper.toOperation(std::size_t(std::min<std::int64_t>(cursor.stop, 1LL << 40)));
            break;
    }
}

} // namespace

io::DemoStep captureStep(const DemoStage &stage, int run, const std::string &change)
{
    RunSession &session = *stage.session;
    io::DemoStep step;
    step.change = change;
    step.run = run;
    step.tab = stage.tab().toStdString();
    step.zoom = stage.appearance->zoom();
    if (run < 0 || !session.trace())
        return step;
    step.cursor = captureCursor(session.stepper());
    const TimeRange visible = session.visibleRange();
    const TimeAxis whole = fitted(TimeAxis{}, session.endTime());
    if (visible.from != whole.from || visible.to != whole.to) {
        step.visibleFrom = visible.from;
        step.visibleTo = visible.to;
    }
    step.rank = session.selectedRank();
    if (const auto event = session.selectedEvent())
        step.event = std::int64_t(*event);
    step.shownRanks = session.shownRanks();
    return step;
}

void applyStep(const DemoStage &stage, const io::DemoStep &step, bool presenting)
{
    RunSession &session = *stage.session;
    stage.appearance->setZoom(presenting ? std::max(step.zoom, kPresentationZoom) : step.zoom);
    if (session.trace()) {
        if (step.cursor)
            applyCursor(session.stepper(), *step.cursor);
        session.setShownRanks(step.shownRanks);
        if (step.visibleFrom && step.visibleTo)
            session.setVisibleRange(*step.visibleFrom, *step.visibleTo);
        else
            session.showWholeRun();
        const int ranks = session.trace()->config.ranks;
        session.setSelectedRank(step.rank < ranks ? step.rank : -1);
        const std::size_t events = session.trace()->events.size();
        session.setSelectedEvent(step.event && std::size_t(*step.event) < events
                                     ? std::optional<std::size_t>(std::size_t(*step.event))
                                     : std::nullopt);
    }
    // Last: moving the cursor shows the state tab, and the recording may have shown another.
    stage.showTab(QString::fromStdString(step.tab));
}

bool sameView(const io::DemoStep &a, const io::DemoStep &b)
{
    io::DemoStep left = a, right = b;
    left.change = right.change;
    left.caption = right.caption;
    return left == right;
}

} // namespace rankstep::gui
