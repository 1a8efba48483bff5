// SPDX-License-Identifier: MIT
#include "wholefile.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rankstep::core {
namespace {

std::string plainReason(int error)
{
    const std::string os = std::strerror(error);
    switch (error) {
        case ENOSPC:
            return "the disk is full (" + os + ")";
        case EDQUOT:
            return "the disk quota is used up (" + os + ")";
        case EFBIG:
            return "the file would be larger than this process may write (" + os + ")";
        case EROFS:
            return "the file system is read-only (" + os + ")";
        case ENOENT:
            return "its folder does not exist";
        case ENOTDIR:
            return "a part of its path is not a folder";
        case EISDIR:
            return "it is a folder, not a file";
        case ELOOP:
            return "a loop of symbolic links, which leads to no file";
        case ENXIO:
            return "it is a pipe (FIFO) that no program reads";
        default:
            return os;
    }
}

WriteFailure failure(const std::string &path, int error)
{
    return {path, plainReason(error), error};
}

bool writeAll(int fd, std::string_view bytes, int &error)
{
    while (!bytes.empty()) {
        const ssize_t written = ::write(fd, bytes.data(), bytes.size());
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0) {
            error = written < 0 ? errno : EIO;
            return false;
        }
        bytes.remove_prefix(std::size_t(written));
    }
    return true;
}

// A device or a pipe is written where it is: it cannot be replaced, and a temporary file beside
// /dev/full would be one in /dev.
std::optional<WriteFailure> writeDirectly(const std::string &path, std::string_view bytes)
{
    // Without blocking: a FIFO nobody reads is an error (ENXIO), not a hang.
    const int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return failure(path, errno);
    if (const int flags = fcntl(fd, F_GETFL); flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK); // a slow reader is waited for
    int error = 0;
    const bool written = writeAll(fd, bytes, error);
    const bool closed = close(fd) == 0 || errno == EINTR;
    if (!written)
        return failure(path, error);
    if (!closed)
        return failure(path, errno);
    return std::nullopt;
}

// A name beside `target` no other writer uses: ".NAME.PID-N.part".
std::string besides(const std::string &target)
{
    static std::atomic<unsigned> counter{0};
    const std::size_t slash = target.rfind('/');
    const std::string folder = slash == std::string::npos ? "" : target.substr(0, slash + 1);
    // At most 200 bytes of the name: room for the suffix within a name's 255.
    const std::string name =
        (slash == std::string::npos ? target : target.substr(slash + 1)).substr(0, 200);
    char suffix[48];
    std::snprintf(suffix, sizeof suffix, ".%ld-%u.part", long(getpid()), counter++);
    return folder + "." + name + suffix;
}

// The rename is kept over a crash once the folder is synced too; a folder that cannot be synced
// (some file systems) changes nothing of the result.
void syncFolderOf(const std::string &target)
{
    const std::size_t slash = target.rfind('/');
    const std::string folder = slash == std::string::npos ? "." : target.substr(0, slash + 1);
    const int fd = open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    fsync(fd);
    close(fd);
}

// The file a link points to, when `links` follows it to one (else `path` itself).
std::string resolvedTarget(const std::string &path, Links links, struct stat &info, int &error)
{
    if (links != Links::Follow || !S_ISLNK(info.st_mode))
        return path;
    struct stat pointed {};
    if (stat(path.c_str(), &pointed) != 0) {
        if (errno != ENOENT)
            error = errno; // a loop; a link to nothing is replaced by the file
        return path;
    }
    info = pointed;
    if (!S_ISREG(pointed.st_mode))
        return path; // a device or a pipe is written through the link
    char *resolved = realpath(path.c_str(), nullptr);
    if (!resolved) {
        error = errno;
        return path;
    }
    std::string target = resolved;
    std::free(resolved);
    return target;
}

} // namespace

std::string WriteFailure::sentence() const
{
    return "cannot write '" + path + "': " + reason;
}

std::optional<WriteFailure> writeWholeFile(const std::string &path, std::string_view bytes,
                                           Links links)
{
    if (path.empty())
        return failure(path, ENOENT);
    struct stat info {};
    const bool exists = lstat(path.c_str(), &info) == 0;
    if (!exists && errno != ENOENT)
        return failure(path, errno);
    int error = 0;
    const std::string target = exists ? resolvedTarget(path, links, info, error) : path;
    if (error != 0)
        return failure(path, error);
    if (exists && S_ISDIR(info.st_mode))
        return failure(path, EISDIR);
    if (exists && (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)))
        return writeDirectly(target, bytes);
    if (exists && (S_ISBLK(info.st_mode) || S_ISSOCK(info.st_mode)))
        return WriteFailure{path, "it is a disk or a socket, not a file", EINVAL};
    const bool replacing = exists && S_ISREG(info.st_mode);
    if (replacing && access(target.c_str(), W_OK) != 0) // a read-only file stays read-only
        return failure(path, errno);

    std::string temporary;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temporary = besides(target);
        fd =
            open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY,
                 0666); // the umask applies, as to any new file
        if (fd < 0 && errno != EEXIST)
            return failure(path, errno);
    }
    if (fd < 0)
        return failure(path, EEXIST);
    bool ok = writeAll(fd, bytes, error);
    if (ok && replacing && fchmod(fd, info.st_mode & 07777) != 0) {
        error = errno;
        ok = false;
    }
    // Written is not stored: a full disk may refuse blocks only now (and NFS at the close).
    if (ok && fsync(fd) != 0 && errno != EINVAL) {
        error = errno;
        ok = false;
    }
    if (close(fd) != 0 && ok && errno != EINTR) {
        error = errno;
        ok = false;
    }
    if (ok && rename(temporary.c_str(), target.c_str()) != 0) {
        error = errno;
        ok = false;
    }
    if (!ok) {
        unlink(temporary.c_str());
        return failure(path, error);
    }
    syncFolderOf(target);
    return std::nullopt;
}

} // namespace rankstep::core
