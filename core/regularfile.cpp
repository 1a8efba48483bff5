// SPDX-License-Identifier: MIT
#include "regularfile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rankstep::core {
namespace {

Error fileError(const std::string &path, const std::string &what)
{
    return Error(ErrorKind::Usage, -1, 0, "cannot read '" + path + "': " + what);
}

std::string sizeText(std::size_t bytes)
{
    if (bytes >= (std::size_t(1) << 30) && bytes % (std::size_t(1) << 30) == 0)
        return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (std::size_t(1) << 20))
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

Error openError(const std::string &path, int error)
{
    switch (error) {
        case ENOENT:
            return fileError(path, "no such file");
        case ELOOP:
            return fileError(path, "a loop of symbolic links, which leads to no file");
        case EISDIR:
            return fileError(path, "it is a folder, not a file");
        case EACCES:
            return fileError(path, "permission denied");
        default:
            return fileError(path, std::strerror(error));
    }
}

// What kind of thing a non-regular file is, in plain words.
std::string notRegular(mode_t mode)
{
    if (S_ISDIR(mode))
        return "it is a folder, not a file";
    if (S_ISFIFO(mode))
        return "it is a pipe (FIFO), not a regular file";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "it is a device, not a regular file";
    if (S_ISSOCK(mode))
        return "it is a socket, not a regular file";
    return "it is not a regular file";
}

// An open descriptor, closed with the object.
struct Descriptor {
    explicit Descriptor(int fd_) : fd(fd_) {}
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    ~Descriptor()
    {
        if (fd >= 0)
            close(fd);
    }
    int fd;
};

// Opens `path` without blocking (a FIFO with no writer would block a plain open) and checks it.
Result<std::size_t> openChecked(const std::string &path, std::size_t maxBytes, Descriptor &file)
{
    file.fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (file.fd < 0)
        return openError(path, errno);
    struct stat info {};
    if (fstat(file.fd, &info) != 0)
        return openError(path, errno);
    if (!S_ISREG(info.st_mode))
        return fileError(path, notRegular(info.st_mode));
    const auto size = static_cast<std::size_t>(info.st_size);
    if (size > maxBytes)
        return fileError(path, "it is larger than " + sizeText(maxBytes) + " (" +
                                   std::to_string(size) + " bytes)");
    return size;
}

} // namespace

Status checkRegularFile(const std::string &path, std::size_t maxBytes)
{
    Descriptor file(-1);
    auto size = openChecked(path, maxBytes, file);
    if (!size)
        return size.error();
    return okStatus();
}

Result<std::string> readRegularFile(const std::string &path, std::size_t maxBytes)
{
    Descriptor file(-1);
    auto size = openChecked(path, maxBytes, file);
    if (!size)
        return size.error();
    std::string text(*size, '\0');
    std::size_t got = 0;
    for (;;) {
        if (got == text.size()) { // the file may have grown since fstat
            if (text.size() > maxBytes)
                return fileError(path, "it is larger than " + sizeText(maxBytes));
            text.resize(std::min(maxBytes + 1, text.size() + 65536));
        }
        const ssize_t n = read(file.fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fileError(path, std::strerror(errno));
        if (n == 0)
            break;
        got += std::size_t(n);
    }
    text.resize(got);
    return text;
}

Result<RegularFile> RegularFile::open(const std::string &path, std::size_t maxBytes)
{
    Descriptor file(-1);
    auto size = openChecked(path, maxBytes, file);
    if (!size)
        return size.error();
    RegularFile opened(path, file.fd, *size);
    file.fd = -1; // kept open by `opened`
    return opened;
}

RegularFile::RegularFile(std::string path, int fd, std::size_t size)
    : m_path(std::move(path)), m_fd(fd), m_size(size)
{}

RegularFile::RegularFile(RegularFile &&other) noexcept
    : m_path(std::move(other.m_path)), m_fd(std::exchange(other.m_fd, -1)), m_size(other.m_size)
{}

RegularFile::~RegularFile()
{
    if (m_fd >= 0)
        close(m_fd);
}

Result<std::size_t> RegularFile::read(void *to, std::size_t size)
{
    for (;;) {
        const ssize_t n = ::read(m_fd, to, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fileError(m_path, std::strerror(errno));
        return std::size_t(n);
    }
}

Result<std::size_t> RegularFile::readAt(std::uint64_t offset, void *to, std::size_t size) const
{
    for (;;) {
        const ssize_t n = ::pread(m_fd, to, size, off_t(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fileError(m_path, std::strerror(errno));
        return std::size_t(n);
    }
}

} // namespace rankstep::core
