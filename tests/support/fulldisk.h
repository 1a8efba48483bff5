// SPDX-License-Identifier: MIT
#pragma once

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <string>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace rankstep::testsupport {

// A full disk in this process, for as long as the object lives: every write to a regular file
// past `bytes` fails with EFBIG (RLIMIT_FSIZE, with SIGXFSZ ignored so that the write fails
// instead of ending the process). Needs no root and no mount; pipes and terminals are not files.
class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigaction(SIGXFSZ, &ignore, &m_signal);
        getrlimit(RLIMIT_FSIZE, &m_limit);
        const rlimit limited{bytes, m_limit.rlim_max};
        setrlimit(RLIMIT_FSIZE, &limited);
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &m_limit);
        sigaction(SIGXFSZ, &m_signal, nullptr);
    }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;

private:
    rlimit m_limit{};
    struct sigaction m_signal {};
};

// A device like /dev/full (every write fails with ENOSPC) for a test to write to. As root, a node
// of its own in `folder`: a writer that replaces a device by a file (Qt 6.4's QSaveFile does, as
// root) then replaces only that node, never the machine's /dev/full. Else /dev/full itself, which
// no other user can replace.
inline std::string fullDevice(const std::filesystem::path &folder)
{
    if (geteuid() != 0)
        return "/dev/full";
    const std::string node = (folder / "full").string();
    if (mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
        return "/dev/full";
    const int fd = open(node.c_str(), O_WRONLY | O_CLOEXEC);
    const bool full = fd >= 0 && write(fd, "x", 1) < 0 && errno == ENOSPC;
    if (fd >= 0)
        close(fd);
    if (full)
        return node;
    unlink(node.c_str()); // a file system mounted nodev
    return "/dev/full";
}

} // namespace rankstep::testsupport
