// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rankstep::core {

// What writeWholeFile does with a symbolic link where the file belongs.
enum class Links {
    Follow,  // writes the file it points to (an output path a user typed, as `cp` would)
    Replace, // puts a regular file in the link's place; the file it pointed to stays untouched
};

// Why a file could not be written.
struct WriteFailure {
    std::string path;   // as it was given
    std::string reason; // the OS's reason in plain words: "the disk is full (No space left ...)"
    int error = 0;      // the errno behind it
    // "cannot write 'PATH': REASON"
    std::string sentence() const;
};

// Writes `bytes` as the whole of the file at `path` so that a failure never leaves a part of it
// nor loses the file that was there: into a new file beside it, every write, the fsync and the
// close checked, then renamed over it (keeping an existing file's permissions). An existing file
// that is not writable is refused, as a folder is. A device or a pipe (/dev/null, /dev/stdout, a
// FIFO some program reads) is written directly, every write checked: /dev/full fails. Nothing on
// success, else why not (the temporary file is removed).
std::optional<WriteFailure> writeWholeFile(const std::string &path, std::string_view bytes,
                                           Links links = Links::Follow);

} // namespace rankstep::core
