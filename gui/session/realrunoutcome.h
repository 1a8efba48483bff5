// SPDX-License-Identifier: MIT
#pragma once

#include "tracefwd.h"

#include "core/io/realreport.h"
#include "core/io/torchlessonreport.h"

#include <QString>

#include <optional>

namespace rankstep::gui {

// What a real run (`rankstep-cli real`) gave back.
struct RealRunOutcome {
    static constexpr int kTorchMissing = 69; // rankstep-cli real's exit code without PyTorch

    int exitCode = -1; // docs/command-line.md, "Running it for real"; -1: crashed
    QString output;    // what it printed: the verdict, or the error
    std::optional<io::RealReport> report; // when the ranks ran to the end
    TracePtr trace; // the same run as a trace in milliseconds and real bytes (core/io/realtrace.h)
    // A PyTorch lesson's run (RealRunController::startLesson): its checks and loss curves.
    std::optional<io::TorchLessonReport> lessonReport;
    double seconds = 0; // wall-clock time of the whole command
    bool torchMissing() const { return exitCode == kTorchMissing; }
};

} // namespace rankstep::gui
