// SPDX-License-Identifier: MIT
#pragma once

#include "core/python/runtime.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::cli {

// What rankstep-cli (the supervisor) and rankstep-runner (the program that hosts the learner's
// code) say to each other. The runner is started afresh for every run and holds the Python
// runtime and the learner's code and nothing else of Rankstep's: no lesson, no solution, no
// output path, no verdict. It gets its jobs in one request and answers with one report: a trace
// per job. The supervisor checks each trace, judges it and writes every output file itself
// (docs/hostile-input.md, "The verdict comes from outside the learner's process").

// A secret the supervisor draws for each run and sends with the request. It lives only in the
// runner's C++ memory, which learner code cannot read (ctypes cannot be loaded and Landlock keeps
// /proc/self/mem shut), so bytes the code writes into the report channel cannot pass for the
// report.
using ChannelToken = std::array<unsigned char, 16>;

// The runner's descriptors, as the supervisor starts it: it reads the request from the first
// until the end of file and writes the report to the second. Its stdin is /dev/null, its stdout
// and stderr are pipes the supervisor reads (never the terminal).
inline constexpr int kRequestDescriptor = 3;
inline constexpr int kReportDescriptor = 4;
ChannelToken newChannelToken();

// One run of the learner's code.
struct RunnerJob {
    python::RunRequest request;
    bool chooseFunction = false; // the file's only top-level function, as request.function
};

struct RunnerRequest {
    ChannelToken token{};
    std::string runFolder;        // the private folder the code runs in
    long long memoryLimitMiB = 0; // the runner's address space; 0: no limit
    std::vector<RunnerJob> jobs;
};
std::string encodeRequest(const RunnerRequest &request);
// nullopt for anything but a whole request.
std::optional<RunnerRequest> decodeRequest(const std::string &bytes);

// The runner's answer. With exitCode 0, one trace per job in order (io::traceToBinary, with the
// file and the function run); otherwise no trace, and exitCode says why: kUsage with `message`
// (the file defines several functions and none was named), or kStopped (the code could not be
// interrupted at its time limit; the runner said so on stderr).
struct RunnerReport {
    int exitCode = 0;
    std::string message;
    std::vector<std::string> traces;
    // The runner's traces, each in pieces (io::traceToBinaryPieces), sent after `traces` as a
    // trace each: a large run's trace is never in one buffer beside the record it encodes.
    std::vector<std::vector<std::string>> tracePieces;
};
std::string encodeReport(const ChannelToken &token, const RunnerReport &report);
// encodeReport's bytes handed to `write` piece by piece, each trace as it is: a large run's trace
// is hundreds of MB, which a whole report would copy once more.
void writeReportPieces(const ChannelToken &token, const RunnerReport &report,
                       const std::function<void(std::string_view)> &write);
// The size the head of a report (its first bytes) says it has up to the end of its first trace;
// 0 while the head is incomplete. Only a hint for the reader's buffer: the bytes are not checked.
std::size_t reportSizeHint(const std::string &head);

// What the supervisor read from the channel.
struct ChannelReading {
    std::optional<RunnerReport> report; // a well-formed report that carries the token
    bool tampered = false;              // bytes that are not (only) that report
};
// Takes `bytes` so that the last trace keeps their buffer instead of being copied out of it.
ChannelReading decodeReport(const ChannelToken &token, std::string bytes);

} // namespace rankstep::cli
