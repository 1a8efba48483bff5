// SPDX-License-Identifier: MIT
#include "realprocess.h"

#include "arguments.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ; // NOLINT(readability-redundant-declaration): POSIX leaves it undeclared

namespace rankstep::cli {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true; // shadow memory takes terabytes of address space up front
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// What of the caller's environment a real run's process keeps: the locale and time zone (how
// text and times read), the sandbox's switch the tests use, the sanitizers' options, and the
// network device gloo is to use across machines.
constexpr std::string_view kKept[] = {
    "LANG",         "LANGUAGE",      "LC_ALL",       "LC_CTYPE",
    "LC_NUMERIC",   "LC_MESSAGES",   "TZ",           "RANKSTEP_SANDBOX_SKIP",
    "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "GLOO_SOCKET_IFNAME"};

bool kept(std::string_view entry)
{
    const std::size_t equals = entry.find('=');
    if (equals == std::string_view::npos)
        return false;
    for (std::string_view name : kKept)
        if (entry.substr(0, equals) == name)
            return true;
    return false;
}

} // namespace

long long realMemoryLimit(long long requestedMiB)
{
    constexpr long long kLeast = 1536; // importing PyTorch and joining gloo take about 1 GiB
    if (requestedMiB > 0 && requestedMiB < kLeast)
        throw UsageError{"--memory-limit " + std::to_string(requestedMiB) +
                         " is too little for PyTorch to start in a rank (it takes about 1 GiB of "
                         "address space): give at least " +
                         std::to_string(kLeast) + ", or 0 for no limit"};
    return requestedMiB;
}

long long loopbackBytesSent()
{
    std::ifstream dev("/proc/self/net/dev");
    std::string line;
    while (std::getline(dev, line)) {
        const std::size_t colon = line.find(':');
        const std::size_t name = line.find_first_not_of(' ');
        if (colon == std::string::npos || line.compare(name, colon - name, "lo") != 0)
            continue;
        std::istringstream fields(line.substr(colon + 1));
        long long value = 0;
        for (int field = 0; field < 9 && (fields >> value); ++field) {
        } // rx: bytes packets errs drop fifo frame compressed multicast; then tx bytes
        return fields ? value : -1;
    }
    return -1;
}

void applyRealLimits(long long memoryMiB)
{
    if (memoryMiB <= 0)
        return;
    const rlim_t bytes = rlim_t(memoryMiB) << 20;
    const rlimit limit{bytes, bytes};
    if (!kSanitized)
        setrlimit(RLIMIT_AS, &limit);
    setrlimit(RLIMIT_FSIZE, &limit);
    const rlimit none{0, 0};
    setrlimit(RLIMIT_CORE, &none);
    std::signal(SIGXFSZ, SIG_IGN);
}

std::vector<std::string> realEnvironment(const std::string &folder,
                                         const std::vector<std::string> &ours)
{
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e)
        if (kept(*e))
            env.emplace_back(*e);
    env.emplace_back("PATH=/usr/bin:/bin");
    env.push_back("HOME=" + folder);
    env.push_back("TMPDIR=" + folder);
    env.emplace_back("PYTHONDONTWRITEBYTECODE=1");
    // glibc reserves 64 MiB of address space per thread's arena: with gloo's threads that would
    // count against the memory cap for nothing.
    env.emplace_back("MALLOC_ARENA_MAX=2");
    // ours last: when a name repeats, getenv reads the first, so drop a kept one ours replaces
    for (const std::string &entry : ours) {
        const std::string name = entry.substr(0, entry.find('=') + 1);
        std::erase_if(env, [&name](const std::string &e) { return e.rfind(name, 0) == 0; });
        env.push_back(entry);
    }
    return env;
}

pid_t spawnReal(const std::vector<std::string> &argv, const std::vector<std::string> &env,
                const std::string &folder, const std::string &logPath)
{
    std::vector<std::string> words = argv, entries = env;
    std::vector<char *> args, envp;
    for (std::string &word : words)
        args.push_back(word.data());
    args.push_back(nullptr);
    for (std::string &entry : entries)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logPath.c_str(),
                                     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
    posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
    pid_t pid = 0;
    const int failed = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (failed != 0)
        throw UsageError{"real: cannot start " + argv[0] + " (" + std::strerror(failed) + ")"};
    return pid;
}

std::string printable(const std::string &text)
{
    std::string shown;
    shown.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const bool c1 = byte == 0xC2 && i + 1 < text.size() &&
                        static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[i + 1]) <= 0x9F; // U+0080..U+009F
        if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7F || c1) {
            const unsigned value = c1 ? static_cast<unsigned char>(text[++i]) : byte;
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", value);
            shown += escaped;
        } else {
            shown += text[i];
        }
    }
    return shown;
}

std::string readRankFile(const std::string &path, std::size_t limit)
{
    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return {};
    struct stat info {};
    std::string text;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
        char buffer[65536];
        ssize_t got = 0;
        while (text.size() < limit && (got = read(fd, buffer, sizeof buffer)) > 0)
            text.append(buffer, std::min(std::size_t(got), limit - text.size()));
    }
    close(fd);
    return text;
}

} // namespace rankstep::cli
