// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rankstep::cli {

// Figures (--svg, --png, --state-png) the supervisor draws from the run's trace: Qt and its fonts
// stay out of the sandbox.
struct FigureJob {
    std::vector<std::pair<std::string, std::string>> options; // "png" -> path, "at" -> "12"
    std::string title;
    std::optional<std::int64_t> memoryTarget;
    std::string trace; // io::traceToBinary
};

// The report the runner child sends the supervisor once, after the learner's code ran: its exit
// code and the output files it produced (the trace files, figures). The supervisor writes those
// files and exits with that code; nothing else the child writes or leaves behind counts.
struct RunReport {
    int exitCode = 0;
    std::vector<std::pair<std::string, std::string>> files; // path, contents
    std::optional<FigureJob> figures;
};

// A secret the supervisor draws before it starts the child. It lives only in C++ memory: learner
// code cannot read it (no ctypes-free way into that memory; Landlock keeps /proc/self/mem shut),
// so bytes the code writes into the channel cannot pass for the report.
using ChannelToken = std::array<unsigned char, 16>;
ChannelToken newChannelToken();

std::string encodeReport(const ChannelToken &token, const RunReport &report);

// What the supervisor read from the channel.
struct ChannelReading {
    std::optional<RunReport> report; // a well-formed report that carries the token
    bool tampered = false;           // bytes that are not (only) that report
};
ChannelReading decodeReport(const ChannelToken &token, const std::string &bytes);

// In the runner child: the output files go to the supervisor with the report instead of being
// written here (the sandbox lets the child write only in its own folder). Outside a supervised
// child (the fallback without fork) the file is written at once. UsageError when that fails.
void deliverFile(const std::string &path, std::string contents);
// In the runner child: leaves the figures to the supervisor; false outside a supervised child
// (the caller draws them itself).
bool deliverFigures(FigureJob job);
// The files and figures delivered so far, handed over (and forgotten) in a report.
RunReport takeDelivered(int exitCode);
// Set by the supervisor in the child: from now on deliverFile keeps files for the report.
void keepDeliveredFiles();

} // namespace rankstep::cli
