// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QWidget;

namespace rankstep::gui {

// Once the event loop has first painted the shown widget, saves what a person would
// see as an image (format from the file suffix) and quits the application with
// exit code 0 on success, 1 when the file cannot be written.
void saveScreenshotAndQuit(QWidget *widget, const QString &path);

} // namespace rankstep::gui
