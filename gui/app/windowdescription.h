// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>

class QWidget;

namespace rankstep::gui {

class StepController;

// What the window shows, for `rankstep --describe FILE.json` (docs/app.md): the window's size and
// its screen's, where the cursor stands (mode, step, time, the rank that moved), every view that
// says what it shows (Describable: its name, whether it is on screen, the simulated time it shows)
// and the full text of everything on screen that is cut, elided or scrolled out of its place.
QJsonObject describeWindow(QWidget &window, StepController &stepper);

} // namespace rankstep::gui
