// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include <sys/types.h>

namespace rankstep::cli {

// A private folder for one run under the system's temporary folder, named
// "Rankstep-run-<supervisor pid>-XXXXXX": the learner's code runs there (never in the folder of
// the learner's saved code) and may write nowhere else. Folders whose supervisor is gone (killed
// with SIGKILL, so it could not clean up) are removed first. "" when none can be made.
std::string makeRunFolder();
// Removes the folder and everything in it (symbolic links are removed, never followed).
void removeRunFolder(const std::string &folder);

// Ends every process the run started: the child's process group, then every process left
// reparented to this one (the supervisor is a child subreaper), until none is left.
void endRunProcesses(pid_t child);

} // namespace rankstep::cli
