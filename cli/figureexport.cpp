// SPDX-License-Identifier: MIT
#include "figureexport.h"

#include "childprocess.h"
#include "core/io/tracebinary.h"
#include "descriptors.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ; // NOLINT(readability-redundant-declaration): POSIX leaves it undeclared

namespace rankstep::cli {
namespace {

constexpr const char *kFigureOptions[] = {"svg", "png",         "state-png",
                                          "at",  "explain-png", "explain-svg"};

bool drawsSomething(const std::vector<std::pair<std::string, std::string>> &options)
{
    for (const auto &[option, value] : options)
        if (option != "at")
            return true;
    return false;
}

// A pipe whose ends do not leak into other children; throws when there is none.
void makePipe(int ends[2])
{
    if (pipe2(ends, O_CLOEXEC) != 0)
        throw std::runtime_error("cannot start rankstep-figures: no pipe (" +
                                 std::string(std::strerror(errno)) + ")");
}

// Writes everything, as long as the reader reads; false when it stopped reading (it ended).
bool writeAll(int fd, const std::string &bytes)
{
    struct sigaction ignore {
    }, previous{};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous); // a reader that ended is an EPIPE, not our death
    const bool written = writeFully(fd, bytes);
    sigaction(SIGPIPE, &previous, nullptr);
    return written;
}

std::string readAll(int fd)
{
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return text;
        if (text.size() < 65536)
            text.append(buffer, std::size_t(n));
    }
}

std::string trimmed(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

struct Drawn {
    int status = 0;
    std::string message; // its stdout
};

Drawn runFiguresProgram(const std::string &program, std::vector<std::string> words,
                        const std::string &binaryTrace)
{
    words.insert(words.begin(), program);
    std::vector<char *> argv;
    for (std::string &word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    int input[2], output[2];
    makePipe(input);
    try {
        makePipe(output);
    } catch (...) {
        close(input[0]);
        close(input[1]);
        throw;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
    // The supervisor holds the stop signals blocked while it concludes: the drawing must not
    // inherit that (Ctrl+C, the app's SIGTERM), nor an ignored SIGPIPE.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD})
        sigaddset(&defaults, signal);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    const int failed =
        posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    close(input[0]);
    close(output[1]);
    if (failed != 0) {
        close(input[1]);
        close(output[0]);
        throw std::runtime_error("cannot start " + program + ": " + std::strerror(failed));
    }
    writeAll(input[1], binaryTrace); // it reads all of it before it writes a word
    close(input[1]);
    Drawn drawn;
    drawn.message = trimmed(readAll(output[0]));
    close(output[0]);
    pid_t waited = -1;
    while ((waited = waitpid(pid, &drawn.status, 0)) < 0 && errno == EINTR) {
    }
    if (waited != pid) // reaped elsewhere (SIGCHLD ignored): nothing says it drew the figures
        throw std::runtime_error(
            "drawing the figures failed: rankstep-figures could not be "
            "waited for (" +
            std::string(std::strerror(errno)) + ")");
    return drawn;
}

} // namespace

std::string figuresProgram()
{
    const std::filesystem::path self = currentExecutable();
    if (self.empty())
        return {};
    for (const std::filesystem::path &candidate :
         {self.parent_path() / "rankstep-figures",
          self.parent_path() / ".." / "libexec" / "rankstep" / "rankstep-figures"}) {
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error) &&
            access(candidate.c_str(), X_OK) == 0)
            return candidate.lexically_normal().string();
    }
    return {};
}

void writeFigureFiles(const std::vector<std::pair<std::string, std::string>> &options,
                      const std::string &binaryTrace, const FigureCaption &caption)
{
    if (!drawsSomething(options))
        return;
    const std::string program = figuresProgram();
    if (program.empty())
#ifdef RANKSTEP_CLI_FIGURES
        throw std::runtime_error(
            "rankstep-figures, which draws --svg, --png and --state-png, is "
            "not beside rankstep-cli nor in ../libexec/rankstep/ from it");
#else
        throw UsageError{
            "this rankstep-cli was built without the GUI (RANKSTEP_BUILD_GUI=OFF), so "
            "it cannot draw --svg, --png or --state-png"};
#endif
    std::vector<std::string> words{"--title", caption.title};
    if (caption.memoryTarget)
        words.insert(words.end(), {"--memory-target", std::to_string(*caption.memoryTarget)});
    for (const auto &[option, value] : options)
        words.insert(words.end(), {"--" + option, value});
    const Drawn drawn = runFiguresProgram(program, std::move(words), binaryTrace);
    if (WIFEXITED(drawn.status) && WEXITSTATUS(drawn.status) == 0)
        return;
    if (WIFEXITED(drawn.status) && WEXITSTATUS(drawn.status) == 64)
        throw UsageError{drawn.message};
    if (WIFEXITED(drawn.status) && WEXITSTATUS(drawn.status) == 73)
        throw OutputError{drawn.message};
    const std::string how = WIFSIGNALED(drawn.status)
                                ? "was ended by signal " + std::to_string(WTERMSIG(drawn.status))
                                : "exited with " + std::to_string(WEXITSTATUS(drawn.status));
    throw std::runtime_error("drawing the figures failed: rankstep-figures " + how +
                             (drawn.message.empty() ? "" : ": " + drawn.message));
}

void writeFigureFiles(const Arguments &args, const core::Trace &trace, const FigureCaption &caption)
{
    std::vector<std::pair<std::string, std::string>> options;
    for (const char *option : kFigureOptions)
        if (args.has(option))
            options.emplace_back(option, args.text(option));
    if (drawsSomething(options))
        writeFigureFiles(options, io::traceToBinary(trace), caption);
}

} // namespace rankstep::cli
