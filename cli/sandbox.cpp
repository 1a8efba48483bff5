// SPDX-License-Identifier: MIT
// The lock-down of the process that runs learner code: Landlock for files (and, on newer kernels,
// TCP and signals), seccomp through libseccomp for the system calls, both unprivileged and both
// irrevocable once in force. Namespaces and bubblewrap are not used: unshare(CLONE_NEWUSER) needs
// a single-threaded process started for it and is switched off on many hardened systems, and
// bubblewrap would have to start the runner (before CPython loads), not lock it down in place.
#include "sandbox.h"

#include "sandboxfiles.h"
#include "seccompfilter.h"

#include "core/python/interpreterfiles.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace rankstep::cli {
namespace {

// Landlock rights newer than Debian 12's <linux/landlock.h> (Linux 6.1).
constexpr std::uint64_t kFsTruncate = 1ULL << 14; // ABI 3
constexpr std::uint64_t kNetBindTcp = 1ULL << 0;  // ABI 4
constexpr std::uint64_t kNetConnectTcp = 1ULL << 1;
constexpr std::uint64_t kScopeAbstractUnix = 1ULL << 0; // ABI 6
constexpr std::uint64_t kScopeSignal = 1ULL << 1;

// struct landlock_ruleset_attr as of ABI 6; older kernels read only its first fields.
struct RulesetAttr {
    std::uint64_t handledAccessFs = 0;
    std::uint64_t handledAccessNet = 0;
    std::uint64_t scoped = 0;
};

constexpr std::uint64_t kRead = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr std::uint64_t kWrite = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                                 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                                 LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                                 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                                 LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
// The rights a rule on a file (not a folder) may carry.
constexpr std::uint64_t kFileRights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                                      LANDLOCK_ACCESS_FS_READ_FILE | kFsTruncate;

// LeakSanitizer, at exit, reads /proc/self/maps and stops the process from a tracer it starts with
// clone (no CLONE_THREAD), makes dumpable and ptraces; a report starts a symbolizer from /usr/bin:
// a sanitizer build allows those.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RANKSTEP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RANKSTEP_SANITIZED 1
#endif
#endif
#ifdef RANKSTEP_SANITIZED
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

bool skipped(std::string_view layer)
{
    const char *skip = std::getenv("RANKSTEP_SANDBOX_SKIP");
    return skip && std::string_view(skip).find(layer) != std::string_view::npos;
}

// Allows `rights` beneath `path` (only the file rights when it is a file); a path that does not
// exist on this system is left out.
void allow(int ruleset, const char *path, std::uint64_t rights)
{
    const int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat info {};
    if (fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode))
        rights &= kFileRights;
    landlock_path_beneath_attr rule{};
    rule.allowed_access = rights;
    rule.parent_fd = fd;
    syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    close(fd);
}

bool landlock(const std::string &workFolder, bool network, const SandboxFiles &files,
              const std::string &readOnlyFolder)
{
    const long abi =
        syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1)
        return false;
    RulesetAttr attr;
    attr.handledAccessFs = LANDLOCK_ACCESS_FS_EXECUTE | kRead | kWrite |
                           (abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0) | (abi >= 3 ? kFsTruncate : 0);
    attr.handledAccessNet = abi >= 4 && !network ? kNetBindTcp | kNetConnectTcp : 0;
    attr.scoped = abi >= 6 ? kScopeAbstractUnix | kScopeSignal : 0;
    const std::size_t size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
    const int ruleset = int(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
    if (ruleset < 0)
        return false;
    allow(ruleset, workFolder.c_str(), attr.handledAccessFs & ~LANDLOCK_ACCESS_FS_EXECUTE);
    for (const std::string &path : files.readable)
        allow(ruleset, path.c_str(), kRead);
    for (const std::string &path : files.listable)
        allow(ruleset, path.c_str(), LANDLOCK_ACCESS_FS_READ_DIR);
    if (!readOnlyFolder.empty())
        allow(ruleset, readOnlyFolder.c_str(), kRead);
    for (const std::string &path : files.devices)
        allow(ruleset, path.c_str(), kRead | LANDLOCK_ACCESS_FS_WRITE_FILE);
    allow(ruleset, "/dev/null", LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? kFsTruncate : 0));
    if (kSanitized) { // and the symbolizer it starts for a report
        allow(ruleset, "/proc", kRead);
        allow(ruleset, "/usr/bin", kRead | LANDLOCK_ACCESS_FS_EXECUTE);
        allow(ruleset, "/proc/self/exe", LANDLOCK_ACCESS_FS_READ_FILE); // the binary it reads
    }
    const bool done = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
                      syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
    close(ruleset);
    return done;
}

// The file-size limit: SIGXFSZ ignored, so a write past it fails with EFBIG (Python's OSError
// "[Errno 27] File too large") instead of killing the runner.
void limitFileSize(std::uint64_t bytes)
{
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{rlim_t(bytes), rlim_t(bytes)};
    setrlimit(RLIMIT_FSIZE, &limit);
}

} // namespace

LockDown lockDown(const std::string &workFolder, const Walls &walls)
{
    const bool network = walls.realRank;
    const std::uint64_t maxFileBytes = walls.maxFileBytes;
    LockDown result;
    if (!kSanitized)
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    const SandboxFiles files = sandboxFiles(network, walls.gpu);
    if (!network) {
        preloadExtensions(files);
        python::refuseImports(rawMemoryModules(), unavailableModules());
    }
    if (maxFileBytes > 0)
        limitFileSize(maxFileBytes);
    const bool walled =
        !skipped("landlock") && landlock(workFolder, network, files, walls.readOnlyFolder);
    if (!walled)
        result.missing.emplace_back(
            "Landlock (it keeps files outside the run's folder from being "
            "written or read)");
    const bool filtered =
        !skipped("seccomp") && applySeccomp({walls.sockets, /*noNewCode=*/!network, kSanitized});
    if (!filtered)
        result.missing.emplace_back(
            "seccomp (it keeps the code from starting programs or processes, "
            "using the network, signalling other processes and loading machine code)");
    result.rawMemoryLoaded = files.rawMemoryLoaded;
    result.sealed = !network && walled && filtered && files.pythonFound && !kSanitized &&
                    files.rawMemoryLoaded.empty();
    return result;
}

LockDown lockDown(const std::string &workFolder, bool network, std::uint64_t maxFileBytes)
{
    Walls walls;
    walls.realRank = network;
    walls.sockets = network;
    walls.maxFileBytes = maxFileBytes;
    return lockDown(workFolder, walls);
}

std::string describeMissing(const LockDown &lockDown)
{
    std::string text = describeMissing(lockDown.missing);
    for (const std::string &name : lockDown.rawMemoryLoaded)
        text += "rankstep-cli: warning: " + name +
                " was loaded before the sandbox closed, so the code could use it.\n";
    if (!text.empty())
        text +=
            "rankstep-cli: warning: the result of this run cannot be trusted: the code could "
            "read the lessons' solutions or the runner's memory.\n";
    return text;
}

std::string describeMissing(const std::vector<std::string> &missing)
{
    if (missing.empty())
        return {};
    std::string text =
        "rankstep-cli: warning: this system's kernel refused part of the sandbox, "
        "so the code runs without ";
    for (std::size_t i = 0; i < missing.size(); ++i)
        text += (i == 0 ? "" : " and ") + missing[i];
    return text + ".\n";
}

std::string explainSandboxError(const std::string &firstLine)
{
    if (firstLine.rfind("PermissionError", 0) == 0)
        return " (Rankstep runs your code in a sandbox: it may write files only in its own folder, "
               "and may not read your other files, start programs, use the network or reach "
               "other processes.)";
    if (firstLine.rfind("OSError: [Errno 27]", 0) == 0)
        return " (Rankstep runs your code in a sandbox: a file it writes may hold at most " +
               std::to_string(kMaxFileBytes >> 20) + " MiB.)";
    return {};
}

} // namespace rankstep::cli
