// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineOption>
#include <QString>

class QCommandLineParser;
class QImage;
class QWidget;

namespace rankstep::gui {

class MainWindow;

// `rankstep --lesson NAME [--code FILE] [--run] --screenshot OUT.png`: for checks and slides.
struct ScriptOptions
{
    QCommandLineOption lesson, code, run, screenshot, lessons;
};
ScriptOptions addScriptOptions(QCommandLineParser &parser);

// Acts on the options; false (after printing why) when they cannot be followed.
bool startScript(const QCommandLineParser &parser, const ScriptOptions &options, MainWindow &window);

// The window as a person sees it: with the dialogs open over it painted in place.
QImage grabWithDialogs(QWidget *window);

} // namespace rankstep::gui
