// SPDX-License-Identifier: MIT
#include "pythontestsupport.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

extern char **environ;

namespace rankstep::pythontests {
namespace {

std::string readWhole(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

std::string readSourceFile(const std::string &relativePath)
{
    const std::filesystem::path path = std::filesystem::path(RANKSTEP_SOURCE_DIR) / relativePath;
    if (!std::filesystem::exists(path))
        ADD_FAILURE() << "missing source file " << path;
    return readWhole(path);
}

int lineOf(const std::string &source, const std::string &marker)
{
    std::istringstream lines(source);
    std::string text;
    int number = 0;
    int found = 0;
    while (std::getline(lines, text)) {
        ++number;
        if (text.find(marker) == std::string::npos)
            continue;
        if (found != 0) {
            ADD_FAILURE() << "marker '" << marker << "' is on lines " << found << " and " << number;
            return 0;
        }
        found = number;
    }
    if (found == 0)
        ADD_FAILURE() << "marker '" << marker << "' is not in the source";
    return found;
}

python::RunRequest makeRequest(const std::string &source, const std::string &function, int ranks,
                               int layers, int batches)
{
    python::RunRequest request;
    request.source = source;
    request.fileName = "learner.py";
    request.function = function;
    request.config.ranks = ranks;
    request.config.layers = layers;
    request.config.batches = batches;
    request.timeLimitSeconds = 20.0;
    return request;
}

::testing::AssertionResult hasError(const core::Trace &trace, core::ErrorKind kind, int rank,
                                    int line, const std::string &part)
{
    if (!trace.error)
        return ::testing::AssertionFailure() << "the run ended without an error (status "
                                             << core::runStatusName(trace.status) << ")";
    const core::Error &error = *trace.error;
    auto failure = [&](const std::string &what) {
        return ::testing::AssertionFailure()
               << what << " in error {kind " << core::errorKindName(error.kind) << ", rank "
               << error.rank << ", line " << error.line << ", \"" << error.message << "\"}";
    };
    if (error.kind != kind)
        return failure(std::string("expected kind ") + core::errorKindName(kind));
    if (error.rank != rank)
        return failure("expected rank " + std::to_string(rank));
    if (error.line != line)
        return failure("expected line " + std::to_string(line));
    if (error.message.find(part) == std::string::npos)
        return failure("expected the message to contain \"" + part + "\"");
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult isCorrect(const core::Trace &trace)
{
    if (trace.error)
        return ::testing::AssertionFailure()
               << "error (kind " << core::errorKindName(trace.error->kind) << ", rank "
               << trace.error->rank << ", line " << trace.error->line
               << "): " << trace.error->message << "\n"
               << trace.error->traceback;
    if (trace.status != core::RunStatus::Ok)
        return ::testing::AssertionFailure() << "status " << core::runStatusName(trace.status);
    if (!trace.check.passed)
        return ::testing::AssertionFailure() << "the check failed: " << trace.check.message;
    return ::testing::AssertionSuccess();
}

TempDir::TempDir()
{
    std::string pattern =
        (std::filesystem::temp_directory_path() / "rankstep-python-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        ADD_FAILURE() << "mkdtemp failed, errno " << errno;
    m_path = pattern;
}

TempDir::~TempDir()
{
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

std::string TempDir::write(const std::string &name, const std::string &text) const
{
    const std::filesystem::path path = m_path / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        ADD_FAILURE() << "cannot write " << path;
    return path.string();
}

std::string TempDir::read(const std::string &name) const
{
    return readWhole(m_path / name);
}

CliResult runCli(const std::vector<std::string> &args, const TempDir &dir)
{
    const std::string outPath = (dir.path() / "cli-stdout.txt").string();
    const std::string errPath = (dir.path() / "cli-stderr.txt").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string program = RANKSTEP_CLI;
    std::vector<std::string> storage = args;
    std::vector<char *> argv{program.data()};
    for (std::string &arg : storage)
        argv.push_back(arg.data());
    argv.push_back(nullptr);

    CliResult result;
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        ADD_FAILURE() << "cannot start " << program << ": error " << spawned;
        return result;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    result.out = readWhole(outPath);
    result.err = readWhole(errPath);
    return result;
}

} // namespace rankstep::pythontests
