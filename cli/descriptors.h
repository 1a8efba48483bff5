// SPDX-License-Identifier: MIT
// Writing to a pipe or file descriptor, shared by the runner, the supervisor and rankstep-figures.
#pragma once

#include <cerrno>
#include <string_view>

#include <unistd.h>

namespace rankstep::cli {

// Writes all of `bytes` as long as the reader reads (EINTR retried); false when it stopped
// reading or the write failed.
inline bool writeFully(int fd, std::string_view bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += std::size_t(n);
    }
    return true;
}

} // namespace rankstep::cli
