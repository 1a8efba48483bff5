// SPDX-License-Identifier: MIT
#include "seccompfilter.h"

#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <initializer_list>

namespace rankstep::cli {
namespace {

constexpr std::uint32_t kRefuse = SCMP_ACT_ERRNO(EPERM);

// System calls learner code never needs: starting processes, the network, changing or leaving
// the sandbox (namespaces, mounts), reaching other processes, kernel interfaces seccomp cannot
// see into (io_uring, bpf), leaving the run's process group, raising its limits (the memory cap,
// the file size; root could); and changing files by path in ways Landlock before ABI 3 (Debian
// 12's Linux 6.1 has ABI 2) does not see: truncate, and their mode, owner, extended attributes and
// times.
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
    SCMP_SYS(tkill), SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_send_signal), SCMP_SYS(pidfd_getfd),
    SCMP_SYS(setrlimit), SCMP_SYS(remap_file_pages)};
// clang-format on

// No program, no new process and no hold on another one: no exec, threads only, no ptrace,
// signals to this process only (raise, abort, pthread_kill); PR_SET_PDEATHSIG and non-dumpable
// stay as they are.
bool refuseOtherProcesses(scmp_filter_ctx filter)
{
    if (seccomp_rule_add(filter, kRefuse, SCMP_SYS(execve), 0) != 0 ||
        seccomp_rule_add(filter, kRefuse, SCMP_SYS(execveat), 0) != 0)
        return false;
    // clone3 hides its flags from seccomp: glibc is told it does not exist and uses clone.
    bool ok = seccomp_rule_add(filter, kRefuse, SCMP_SYS(clone), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)) == 0 &&
              seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) == 0 &&
              seccomp_rule_add(filter, kRefuse, SCMP_SYS(ptrace), 0) == 0;
    const auto self = scmp_datum_t(getpid());
    for (int call :
         {SCMP_SYS(kill), SCMP_SYS(tgkill), SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo)})
        ok = ok && seccomp_rule_add(filter, kRefuse, call, 1, SCMP_A0(SCMP_CMP_NE, self)) == 0;
    for (int option : {PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_PTRACER})
        ok = ok && seccomp_rule_add(filter, kRefuse, SCMP_SYS(prctl), 1,
                                    SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(option))) == 0;
    return ok;
}

// Typing into the terminal the run was started from (TIOCSTI: the shell runs it afterwards) or
// the console's selection (TIOCLINUX). The kernel reads the request as 32 bits: so does the rule.
// New limits (prlimit64 with a new value; reading them stays). Personalities: READ_IMPLIES_EXEC
// would make every readable mapping executable; only the query (0xffffffff) is left.
bool refuseTerminalAndLimits(scmp_filter_ctx filter)
{
    bool ok = true;
    for (scmp_datum_t request : {scmp_datum_t(TIOCSTI), scmp_datum_t(TIOCLINUX)})
        ok = ok && seccomp_rule_add(filter, kRefuse, SCMP_SYS(ioctl), 1,
                                    SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffULL, request)) == 0;
    return ok &&
           seccomp_rule_add(filter, kRefuse, SCMP_SYS(prlimit64), 1, SCMP_A2(SCMP_CMP_NE, 0)) ==
               0 &&
           seccomp_rule_add(filter, kRefuse, SCMP_SYS(personality), 1,
                            SCMP_A0(SCMP_CMP_NE, 0xffffffffULL)) == 0;
}

// No new machine code: nothing mapped or made executable, so no library (ctypes' among them, or
// one the code wrote into its folder) can be loaded, with or without Landlock.
bool refuseNewCode(scmp_filter_ctx filter)
{
    bool ok = true;
    for (int call : {SCMP_SYS(mmap), SCMP_SYS(mprotect), SCMP_SYS(pkey_mprotect)})
        ok = ok && seccomp_rule_add(filter, kRefuse, call, 1,
                                    SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC)) == 0;
    return ok && seccomp_rule_add(filter, kRefuse, SCMP_SYS(shmat), 1,
                                  SCMP_A2(SCMP_CMP_MASKED_EQ, SHM_EXEC, SHM_EXEC)) == 0;
}

} // namespace

// A real run's rank: sockets of TCP/IP only, what gloo's TCP transport and the rendezvous use.
// AF_UNIX (a path such as /run/docker.sock, the session's D-Bus, X11, an ssh agent), netlink,
// packet sockets and the rest are refused: Landlock (to ABI 7) does not see a connect() to a
// socket's path.
bool refuseOtherSockets(scmp_filter_ctx filter)
{
    bool ok = seccomp_rule_add(filter, kRefuse, SCMP_SYS(socket), 1,
                               SCMP_A0(SCMP_CMP_LT, scmp_datum_t(AF_INET))) == 0 &&
              seccomp_rule_add(filter, kRefuse, SCMP_SYS(socket), 1,
                               SCMP_A0(SCMP_CMP_GT, scmp_datum_t(AF_INET6))) == 0;
    for (int domain = AF_INET + 1; domain < AF_INET6; ++domain)
        ok = ok && seccomp_rule_add(filter, kRefuse, SCMP_SYS(socket), 1,
                                    SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(domain))) == 0;
    return ok;
}

bool applySeccomp(const SeccompOptions &options)
{
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter)
        return false;
    bool ok = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1) == 0;
    for (int call : kRefused)
        if (!(options.network && call == SCMP_SYS(socket)))
            ok = ok && seccomp_rule_add(filter, kRefuse, call, 0) == 0;
    if (options.network)
        ok = ok && refuseOtherSockets(filter);
    ok = ok && refuseTerminalAndLimits(filter);
    if (!options.sanitized)
        ok = ok && refuseOtherProcesses(filter) && (!options.noNewCode || refuseNewCode(filter));
    ok = ok && seccomp_load(filter) == 0;
    seccomp_release(filter);
    return ok;
}

} // namespace rankstep::cli
