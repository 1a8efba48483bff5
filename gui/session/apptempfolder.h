// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace rankstep::gui {

// The template of a temporary folder of this app process, for QTemporaryDir:
// "<temp>/Rankstep-app-<pid>-XXXXXX". The pid lets a later process find folders whose owner
// was killed (SIGKILL leaves no chance to clean up).
QString appTempFolderTemplate();

// Removes this user's "Rankstep-app-<pid>-*" folders in `tempRoot` (the system's temporary
// folder when empty) whose process is gone; the number removed.
int removeStaleAppTempFolders(const QString &tempRoot = {});

} // namespace rankstep::gui
