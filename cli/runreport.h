// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"

#include <string>

namespace rankstep::cli {

// Documented exit codes of rankstep-cli (see --help and README).
enum ExitCode : int {
    kSolved = 0,       // the run finished and the check passed (and targets met, for lessons)
    kNotSolved = 1,    // the run finished, but the check failed or a target was missed
    kLearnerError = 2, // an exception, a syntax error or a broken puzzle rule
    kHang = 3,         // a deadlock or a collective mismatch
    kStopped = 4,      // the time limit, the operation budget, or a stop request
    kUsage = 64,       // bad command line or unreadable input (EX_USAGE)
    kInternal = 70,    // a bug of Rankstep's (EX_SOFTWARE)
    kCannotWrite = 73, // an output file could not be written, no part of it left (EX_CANTCREAT)
};

ExitCode exitCodeFor(const core::Trace &trace);

// The figures as the notebook prints them, then the end time and the check verdict:
//   Timesteps: 16.5
//   Maximum Memory: 2621440 at GPU: 0 time: 8
// With a device's memory in the trace (core::CostModel::deviceMemory) the maximum's line ends
// with whether the peak fits it (formatDeviceFit).
std::string formatFigures(const core::Trace &trace);
// "fits 80 GB, 19.73 GB to spare" or "40.16 GB over the 80 GB device" (a peak equal to the
// device's memory fits, 0 B to spare); "" when the trace names no device or has no events.
std::string formatDeviceFit(const core::Trace &trace);
// The error in the learner's words: where, what, and (for exceptions) their traceback.
std::string formatError(const core::Error &error);
// Warnings, one per line ("Warning (rank 0, line 12): ...").
std::string formatWarnings(const core::Trace &trace);

} // namespace rankstep::cli
