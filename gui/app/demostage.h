// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/demonstration.h"
#include "tracefwd.h"

#include <QString>

#include <functional>

namespace rankstep::gui {

class Appearance;
class RunSession;

// What a recorded demonstration (core/io/demonstration.h, docs/demonstrations.md) reads from and
// puts back on the window: the run on screen and the look every view shares, and the few things
// only the window knows (its tabs, the lesson, the code, the cost model). The window hands these
// over; the recorder and the player never reach into its widgets.
struct DemoStage {
    RunSession *session = nullptr;
    Appearance *appearance = nullptr;
    std::function<QString()> lessonId; // the open lesson's, empty when none
    std::function<QString()> tab;      // the tab left of the editor, by its name
    std::function<void(const QString &)> showTab;
    std::function<bool(const QString &)> openLesson; // the learner's own code back in the editor
    // Shows code that is not the learner's, read-only for this reason, under a cost preset; false
    // when there is no such preset.
    std::function<bool(const QString &code, const QString &cost, const QString &why)> showCode;
    std::function<void()> runCode; // the code shown; MainWindow::runFinished
    std::function<QString()> cost; // Run > Cost Model's preset
    std::function<void(const QString &)> setCost;
    std::function<void(const TracePtr &)> showTrace; // a run kept from before, in every view
};

// The step a recording takes now: run is the index of the run on screen (-1 none), change what
// made it; the caption is left empty.
io::DemoStep captureStep(const DemoStage &stage, int run, const std::string &change);
// Puts everything of `step` but its run back on screen (the run is the player's): the zoom, the
// cursor, the shown ranks, the time range, the selection and the tab. Presenting, the zoom stays
// at least presentation mode's.
void applyStep(const DemoStage &stage, const io::DemoStep &step, bool presenting);
// Whether two steps show the same (their change and caption aside).
bool sameView(const io::DemoStep &a, const io::DemoStep &b);

} // namespace rankstep::gui
