// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineOption>
#include <QString>

class QCommandLineParser;
class QImage;
class QWidget;

namespace rankstep::gui {

class MainWindow;

// `rankstep --lesson NAME [--code FILE] [--run [--step N|end]] --screenshot OUT.png`: for checks
// and slides. `--import FILE` imports a notebook or .py as File > Import does. --step puts the
// cursor at the N-th operation step from the start (or the end);
// --tab lesson|state|hang picks the tab left of the editor.
// --quit-after-first-paint prints "first paint: N ms after the process started" and exits, for
// the start-up benchmark (bench/startupbench.cpp).
// --presentation, --zoom F, --theme NAME and --colorblind set the look as the View menu does;
// --size WxH sizes the window (a screen of that size, presenting).
struct ScriptOptions {
    QCommandLineOption lesson, code, run, screenshot, lessons, step, importFile, tab,
        quitAfterFirstPaint, presentation, zoom, theme, colorBlind, size;
};
ScriptOptions addScriptOptions(QCommandLineParser &parser);

// Acts on the options; false (after printing why) when they cannot be followed.
bool startScript(const QCommandLineParser &parser, const ScriptOptions &options,
                 MainWindow &window);

// Moves the window's cursor to `step`: a count of operation steps from the start, or "end".
// False when `step` is neither.
bool goToStep(MainWindow &window, const QString &step);

// The window as a person sees it: with the dialogs open over it painted in place.
QImage grabWithDialogs(QWidget *window);

} // namespace rankstep::gui
