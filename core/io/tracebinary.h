// SPDX-License-Identifier: MIT
#pragma once

#include "tracejson.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::io {

inline constexpr std::uint32_t kTraceBinaryVersion = 1;

// The whole trace in Rankstep's compact binary form (docs/trace-format.md, "Rankstep binary
// trace"): the file starts with "RSTB" and the version, then sections of LEB128 varints. Every
// field of the Trace is kept exactly; times as integer ticks, memory in bytes.
std::string traceToBinary(const core::Trace &trace, const TraceJsonOptions &options = {});
// The same bytes in pieces of about 4 MiB, in order; `trace` is left without its events,
// storage changes and slices, each list's memory given back as it is written, so that a large
// run's record and its encoding are never held whole at once (16,384 ranks: 3.5 GB and 0.8 GB).
std::vector<std::string> traceToBinaryPieces(core::Trace &trace,
                                             const TraceJsonOptions &options = {});

// Reads what traceToBinary wrote; traceToJson of the result equals traceToJson of the original.
// Anything else (truncated, damaged, another version, a value out of the range traceFromJson
// accepts) is an Error of kind Usage that names the place and the byte, e.g. "cannot read the
// binary trace: events[123].rank (byte 4567): expected a value from 0 to 3, got 7". Memory is
// bounded by the input: counts are checked against the bytes left before anything is reserved,
// and a batch or shard set holds at most 65536 members. `options`, when given, receives the file
// and function that were written.
core::Result<core::Trace> traceFromBinary(std::string_view data,
                                          TraceJsonOptions *options = nullptr);
// The same read from the regular file at `path` (core/regularfile.h's checks) in pieces as it
// is decoded, so that a large file's bytes are never held whole beside its trace (16,384 ranks:
// 0.8 GB). Every trace decodes to what traceFromBinary gives for the file's bytes, and every
// damaged one fails with its message; a file that cannot be read, or ends before the size it had
// when opened, fails too.
core::Result<core::Trace> traceFromBinaryFile(const std::string &path,
                                              TraceJsonOptions *options = nullptr);
// How far a read of a file has come: bytes read so far and the file's size. False stops the
// read, which then fails (the message is the reader's; the caller knows it stopped it).
using ReadProgress = std::function<bool(std::uint64_t read, std::uint64_t size)>;
// The same, telling `progress` after each piece is read (about every 4 MiB), so that an app can
// show the read and stop it.
core::Result<core::Trace> traceFromBinaryFile(const std::string &path, TraceJsonOptions *options,
                                              const ReadProgress &progress);

} // namespace rankstep::io
