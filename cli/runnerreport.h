// SPDX-License-Identifier: MIT
#pragma once

#include "runchannel.h"

namespace rankstep::cli {

// In rankstep-runner: the channel its report goes through (runnermain.cpp sets it up).
void openReportChannel(int fd, const ChannelToken &token);
// Sends the report; only the first call counts (a hard stop and the end may race). Safe from
// any thread.
void sendReport(const RunnerReport &report);

} // namespace rankstep::cli
