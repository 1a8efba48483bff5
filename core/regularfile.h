// SPDX-License-Identifier: MIT
#pragma once

#include "error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace rankstep::core {

// Size limits of the files Rankstep reads, in bytes.
inline constexpr std::size_t kMaxCodeFileBytes = std::size_t(32) << 20;  // a .py or .ipynb
inline constexpr std::size_t kMaxLessonFileBytes = std::size_t(1) << 20; // a lesson folder's file
inline constexpr std::size_t kMaxTraceFileBytes = std::size_t(1) << 30;  // a run's trace

// The whole of the file at `path`, read only after checking that it is a regular file (not a
// folder, FIFO, device or socket; symbolic links followed, a link loop refused) of at most
// `maxBytes`. Never blocks on a FIFO. Errors are ErrorKind::Usage with a message naming `path`.
Result<std::string> readRegularFile(const std::string &path, std::size_t maxBytes);

// A regular file open for reading in pieces, checked as readRegularFile checks it: for a file
// too large to hold whole beside what is made of it (a 16,384-rank trace).
class RegularFile
{
public:
    static Result<RegularFile> open(const std::string &path, std::size_t maxBytes);
    RegularFile(RegularFile &&other) noexcept;
    RegularFile &operator=(RegularFile &&other) = delete;
    RegularFile(const RegularFile &) = delete;
    RegularFile &operator=(const RegularFile &) = delete;
    ~RegularFile();
    // Its size when it was opened.
    std::size_t size() const { return m_size; }
    // Up to `size` bytes from where the last read ended, fewer at the end of the file (0: at
    // its end). Errors are ErrorKind::Usage with a message naming the file.
    Result<std::size_t> read(void *to, std::size_t size);
    // The same from byte `offset` on, leaving where read() goes on untouched: several threads
    // may each read their own part of the file at once.
    Result<std::size_t> readAt(std::uint64_t offset, void *to, std::size_t size) const;

private:
    RegularFile(std::string path, int fd, std::size_t size);
    std::string m_path;
    int m_fd = -1;
    std::size_t m_size = 0;
};

// The same check without reading: okStatus() when readRegularFile(path, maxBytes) would read it.
Status checkRegularFile(const std::string &path, std::size_t maxBytes);

} // namespace rankstep::core
