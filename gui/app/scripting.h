// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineOption>
#include <QString>

#include <functional>

class QCommandLineParser;
class QImage;
class QWidget;

namespace rankstep::gui {

class RunSession;
class ScriptTarget;
class StepController;

// `rankstep --lesson NAME [--code FILE] [--run [--step N|end]] --screenshot OUT.png`: for checks
// and slides. `--import FILE` imports a notebook or .py as File > Import does. --step puts the
// cursor N steps from the start (or at the end), in the mode --step-by names (snapshot,
// operation, slice or time; for a count, operation when not named), which the step bar shows;
// --tab NAME picks the tab left of the editor (its name in gui/app/tabs.h).
// --quit-after-first-paint prints "first paint: N ms after the process started" and exits, for
// the start-up benchmark (bench/startupbench.cpp).
// --presentation, --zoom F, --theme NAME and --colorblind set the look as the View menu does;
// --size WxH sizes the window (a screen of that size, presenting). --compare solution, after
// --run, runs the lesson's solution and shows the Compare tab before the screenshot;
// --highlight critical-path outlines the critical path on the timeline; --memory by-kind stacks
// the memory chart by kind (the rank of the maximum). --sweep FIELDS runs a What if sweep
// ("ranks=2,4,8;batches=1,2,4,8"; after the run with --run) and takes the screenshot of the What
// if tab when it ends; --sweep-open N then opens the run of the grid's N-th setting (from 0).
// --replay FILE replays a recorded demonstration (docs/demonstrations.md) from its first step, or
// from step N of --step N (from 1; or "end"), and takes the screenshot once that step is shown.
// --quiz ask|reveal, presenting, after --run [--step N]: the quiz's question about the next step,
// or its answer with that step (View > Predict the Next Step, docs/quiz.md).
// --class FOLDER grades a class folder into the Class tab and takes the screenshot when it ends;
// --class-open LEARNER:LESSON then opens that cell (the learner's code, read-only, run).
// --shortcuts opens Help > Keyboard Shortcuts before the screenshot.
// --describe FILE writes what the window shows as JSON at the moment of the screenshot (with or
// without one): gui/app/windowdescription.h.
struct ScriptOptions {
    QCommandLineOption lesson, code, run, screenshot, describe, lessons, step, stepBy, importFile,
        tab, quitAfterFirstPaint, presentation, zoom, theme, colorBlind, size, compare, highlight,
        memory, real, showReal, cost, sweep, sweepOpen, replay, quiz, classFolder, classOpen,
        shortcuts, whyPage;
};
ScriptOptions addScriptOptions(QCommandLineParser &parser);

// Acts on the options; false (after printing why) when they cannot be followed.
bool startScript(const QCommandLineParser &parser, const ScriptOptions &options,
                 ScriptTarget &target);

// Moves the cursor to `step`: a count of steps in mode `by` (snapshot, operation, slice
// or time; empty: operation, and the end keeps the current mode) from the start, or "end".
// False when `step` or `by` is neither.
bool goToStep(StepController &stepper, const QString &step, const QString &by = {});

// Calls `then` once no trace is opening (rankstep --open: read on a worker), after the files the
// start opens have begun: a script's steps and picture are of the opened run. Waits on the
// session's openingChanged, never on a clock.
void whenOpened(RunSession &session, std::function<void()> then);

// The window as a person sees it: laid out as its widgets asked, with the dialogs open over it
// painted in place.
QImage grabWithDialogs(QWidget *window);

} // namespace rankstep::gui
