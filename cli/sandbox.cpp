// SPDX-License-Identifier: MIT
// The lock-down of the process that runs learner code: Landlock for files (and, on newer kernels,
// TCP and signals), seccomp through libseccomp for the system calls, both unprivileged and both
// irrevocable once in force. Namespaces and bubblewrap are not used: unshare(CLONE_NEWUSER) needs
// a single-threaded process started for it and is switched off on many hardened systems, and
// bubblewrap would have to start the runner (before CPython loads), not lock it down in place.
#include "sandbox.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
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

// What learner code may read besides its folder: the system's libraries (Python's standard
// library is under /usr), the time zone, the CPU count. Figures are drawn by the supervisor.
constexpr std::string_view kReadable[] = {"/usr",
                                          "/lib",
                                          "/lib64",
                                          "/etc/localtime",
                                          "/etc/ld.so.cache",
                                          "/dev/null",
                                          "/dev/urandom",
                                          "/sys/devices/system/cpu"};

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

bool landlock(const std::string &workFolder, bool network, const std::string &readOnlyFolder)
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
    for (std::string_view path : kReadable)
        allow(ruleset, std::string(path).c_str(), kRead);
    if (!readOnlyFolder.empty())
        allow(ruleset, readOnlyFolder.c_str(), kRead);
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

// System calls learner code never needs: starting processes, the network, changing or leaving
// the sandbox (namespaces, mounts), reaching other processes, kernel interfaces seccomp cannot
// see into (io_uring, bpf), leaving the run's process group; and changing files by path in ways
// Landlock before ABI 3 (Debian 12's Linux 6.1 has ABI 2) does not see: truncate, and their mode,
// owner, extended attributes and times.
// clang-format off
constexpr int kRefused[] = {
    SCMP_SYS(truncate), SCMP_SYS(chmod), SCMP_SYS(fchmodat), SCMP_SYS(chown), SCMP_SYS(lchown),
    SCMP_SYS(fchownat), SCMP_SYS(setxattr), SCMP_SYS(lsetxattr), SCMP_SYS(removexattr),
    SCMP_SYS(lremovexattr), SCMP_SYS(utime), SCMP_SYS(utimes), SCMP_SYS(futimesat),
    SCMP_SYS(utimensat),
    SCMP_SYS(fork), SCMP_SYS(vfork), SCMP_SYS(socket),
    SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(unshare), SCMP_SYS(setns),
    SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot), SCMP_SYS(bpf),
    SCMP_SYS(perf_event_open), SCMP_SYS(io_uring_setup), SCMP_SYS(userfaultfd), SCMP_SYS(keyctl),
    SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(setsid), SCMP_SYS(setpgid),
    SCMP_SYS(tkill), SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_send_signal), SCMP_SYS(pidfd_getfd)};
// clang-format on

// No program, no new process and no hold on another one: no exec, threads only, no ptrace,
// signals to this process only (raise, abort, pthread_kill); PR_SET_PDEATHSIG and non-dumpable
// stay as they are.
bool refuseOtherProcesses(scmp_filter_ctx filter)
{
    const std::uint32_t refuse = SCMP_ACT_ERRNO(EPERM);
    if (seccomp_rule_add(filter, refuse, SCMP_SYS(execve), 0) != 0 ||
        seccomp_rule_add(filter, refuse, SCMP_SYS(execveat), 0) != 0)
        return false;
    // clone3 hides its flags from seccomp: glibc is told it does not exist and uses clone.
    bool ok = seccomp_rule_add(filter, refuse, SCMP_SYS(clone), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)) == 0 &&
              seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) == 0 &&
              seccomp_rule_add(filter, refuse, SCMP_SYS(ptrace), 0) == 0;
    const auto self = scmp_datum_t(getpid());
    for (int call :
         {SCMP_SYS(kill), SCMP_SYS(tgkill), SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo)})
        ok = ok && seccomp_rule_add(filter, refuse, call, 1, SCMP_A0(SCMP_CMP_NE, self)) == 0;
    for (int option : {PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_PTRACER})
        ok = ok && seccomp_rule_add(filter, refuse, SCMP_SYS(prctl), 1,
                                    SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(option))) == 0;
    return ok;
}

// A real run's rank: sockets of TCP/IP only, what gloo's TCP transport and the rendezvous use.
// AF_UNIX (a path such as /run/docker.sock, the session's D-Bus, X11, an ssh agent), netlink,
// packet sockets and the rest are refused: Landlock (to ABI 7) does not see a connect() to a
// socket's path.
bool refuseOtherSockets(scmp_filter_ctx filter)
{
    const std::uint32_t refuse = SCMP_ACT_ERRNO(EPERM);
    bool ok = seccomp_rule_add(filter, refuse, SCMP_SYS(socket), 1,
                               SCMP_A0(SCMP_CMP_LT, scmp_datum_t(AF_INET))) == 0 &&
              seccomp_rule_add(filter, refuse, SCMP_SYS(socket), 1,
                               SCMP_A0(SCMP_CMP_GT, scmp_datum_t(AF_INET6))) == 0;
    for (int domain = AF_INET + 1; domain < AF_INET6; ++domain)
        ok = ok && seccomp_rule_add(filter, refuse, SCMP_SYS(socket), 1,
                                    SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(domain))) == 0;
    return ok;
}

bool seccomp(bool network)
{
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter)
        return false;
    bool ok = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1) == 0;
    for (int call : kRefused)
        if (!(network && call == SCMP_SYS(socket)))
            ok = ok && seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), call, 0) == 0;
    if (network)
        ok = ok && refuseOtherSockets(filter);
    // The memory and file-size caps stay as set (root could raise them): no setrlimit, and
    // prlimit only to read (glibc's getrlimit passes no new limit).
    ok = ok && seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setrlimit), 0) == 0 &&
         seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prlimit64), 1,
                          SCMP_A2(SCMP_CMP_NE, 0)) == 0;
    ok = ok && (kSanitized || refuseOtherProcesses(filter)) && seccomp_load(filter) == 0;
    seccomp_release(filter);
    return ok;
}

} // namespace

std::vector<std::string> lockDown(const std::string &workFolder, bool network,
                                  const std::string &readOnlyFolder)
{
    std::vector<std::string> missing;
    if (!kSanitized)
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    if (skipped("landlock") || !landlock(workFolder, network, readOnlyFolder))
        missing.emplace_back(
            "Landlock (it keeps files outside the run's folder from being "
            "written or read)");
    if (skipped("seccomp") || !seccomp(network))
        missing.emplace_back(
            "seccomp (it keeps the code from starting programs or processes, "
            "using the network and signalling other processes)");
    return missing;
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

} // namespace rankstep::cli
