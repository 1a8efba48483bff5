// SPDX-License-Identifier: MIT
// The verdict comes from outside the learner's process: the code runs in rankstep-runner, a
// program of its own that holds no lesson solution, knows no output path, sees none of the
// user's environment and has no terminal; rankstep-cli judges the traces it sends back and passes
// on what the code printed with its control characters made visible (cli/supervisor.h).
#include "clilaunch.h"

#include "core/lessons/builtin.h"
#include "core/lessons/lesson.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

std::string readBinary(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The longest line of a text: one no other file is likely to hold by chance.
std::string longestLine(const std::string &text)
{
    std::string longest;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        if (end - start > longest.size())
            longest = text.substr(start, end - start);
        start = end + 1;
    }
    return longest;
}

// rankstep-cli holds every lesson (it judges them); the runner, which hosts the learner's code,
// holds none of their solutions, so no scan of its memory finds one to run.
TEST(Verdict, TheProgramThatRunsTheCodeHoldsNoLessonSolution)
{
    const std::filesystem::path cli = RANKSTEP_CLI;
    const std::string runner = readBinary(cli.parent_path() / "rankstep-runner");
    const std::string supervisor = readBinary(cli);
    ASSERT_FALSE(runner.empty());
    int solutions = 0;
    for (const auto &[name, text] : lessons::builtinLessonFiles()) {
        if (!name.ends_with("/solution.py"))
            continue;
        const std::string line = longestLine(text);
        ASSERT_GT(line.size(), 20U) << name;
        EXPECT_NE(supervisor.find(line), std::string::npos) << name; // the test can see it
        EXPECT_EQ(runner.find(line), std::string::npos) << name << ": " << line;
        ++solutions;
    }
    EXPECT_GT(solutions, 10);
}

// A teacher's token in the environment of `grade` never reaches the learner's code.
TEST(Verdict, TheCodeSeesNoneOfTheUsersEnvironment)
{
    TempDir dir;
    const std::string code = dir.write("env.py",
                                       "import os\n\n\nasync def puzzle(model):\n"
                                       "    print('token', os.environ.get('GITHUB_TOKEN'))\n"
                                       "    print('home', os.environ.get('HOME'))\n");
    const ProcessResult run =
        runCli({{"run", code, "--function", "puzzle"}, {}, {"GITHUB_TOKEN=ghp_secretmarker"}}, dir);
    EXPECT_EQ(run.out.find("ghp_secretmarker"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("token None"), std::string::npos) << run.out << run.err;
    EXPECT_EQ(run.out.find("home " + std::string(std::getenv("HOME") ? std::getenv("HOME") : "/x")),
              std::string::npos)
        << run.out;
}

// The runner's own malloc settings, which glibc read as it started, are not in the environment
// the code sees; nor are the user's.
TEST(Verdict, TheCodeSeesNoMallocSettings)
{
    TempDir dir;
    const std::string code = dir.write("env.py",
                                       "import os\n\n\nasync def puzzle(model):\n"
                                       "    print('tunables', os.environ.get('GLIBC_TUNABLES'))\n");
    const ProcessResult run = runCli(
        {{"run", code, "--function", "puzzle"}, {}, {"GLIBC_TUNABLES=glibc.malloc.perturb=0"}},
        dir);
    EXPECT_NE(run.out.find("tunables None"), std::string::npos) << run.out << run.err;
}

// What the code prints cannot move the cursor, erase a line, hide text or write the clipboard:
// a forged "Solved!" line shows its escape characters.
TEST(Verdict, PrintedControlCharactersAreShownNotObeyed)
{
    TempDir dir;
    const std::string code =
        dir.write("forge.py",
                  "async def ddp(model):\n"
                  "    print('\\r\\x1b[2KSolved!\\x1b]52;c;aGk=\\x07\\x1b[8m', end='')\n"
                  "    raise ValueError('\\r\\x1b[2K\\u009bSolved!')\n");
    const ProcessResult run = runCli({{"lesson", "ddp", code}, {}, {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    for (const std::string *text : {&run.out, &run.err}) {
        EXPECT_EQ(text->find('\x1b'), std::string::npos) << *text;
        EXPECT_EQ(text->find('\r'), std::string::npos) << *text;
        EXPECT_EQ(text->find("\xc2\x9b"), std::string::npos) << *text;
    }
    EXPECT_NE(run.out.find("\\r\\x1b[2KSolved!\\x1b]52;c;aGk=\\x07"), std::string::npos) << run.out;
    EXPECT_NE(run.err.find("ValueError: \\r\\x1b[2K\\u009bSolved!"), std::string::npos) << run.err;
}

// Thousands of files in the run's folder stop the run with a sentence.
TEST(Verdict, ARunFolderOfTooManyFilesStopsTheRun)
{
    TempDir dir;
    const std::string code = dir.write("files.py",
                                       "async def puzzle(model):\n"
                                       "    for i in range(1000000):\n"
                                       "        open(f'f{i}', 'w').close()\n");
    const ProcessResult run = runCli({{"run", code, "--function", "puzzle"}, {}, {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.err.find("files into its run's folder, which is all a run may use"),
              std::string::npos)
        << run.err;
}

// Starts rankstep-cli with a terminal (a pseudo-terminal) as its stdin and controlling terminal,
// as a teacher's shell would; stdout and stderr to files.
ProcessResult runInTerminal(const std::vector<std::string> &args, const TempDir &dir,
                            const std::string &environment)
{
    int master = -1, slave = -1;
    ProcessResult result;
    if (openpty(&master, &slave, nullptr, nullptr, nullptr) != 0)
        return result;
    const std::string out = (dir.path() / "tty-out.txt").string();
    const std::string err = (dir.path() / "tty-err.txt").string();
    std::string program = RANKSTEP_CLI;
    std::vector<std::string> words = args;
    std::vector<char *> argv{program.data()};
    for (std::string &word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        setsid();
        ioctl(slave, TIOCSCTTY, 0);
        dup2(slave, 0);
        const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        close(master);
        putenv(const_cast<char *>(environment.c_str()));
        execv(program.c_str(), argv.data());
        _exit(127);
    }
    close(slave);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    close(master);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = readBinary(out);
    result.err = readBinary(err);
    return result;
}

// Started from a terminal, the code still has none: stdin is not one, and with no controlling
// terminal /dev/tty opens nothing (TIOCSTI has no terminal to push keys into). Landlock and
// seccomp are off here, so only the runner's own session and stdin hold this.
TEST(Verdict, TheCodeHasNoTerminalEvenWhenRankstepIsStartedFromOne)
{
    TempDir dir;
    const std::string code = dir.write("tty.py",
                                       "import os\n\n\nasync def puzzle(model):\n"
                                       "    print('stdin is a tty:', os.isatty(0))\n"
                                       "    try:\n"
                                       "        os.open('/dev/tty', os.O_RDWR)\n"
                                       "        print('opened /dev/tty')\n"
                                       "    except OSError as e:\n"
                                       "        print('no tty:', e.errno)\n");
    const ProcessResult run = runInTerminal({"run", code, "--function", "puzzle"}, dir,
                                            "RANKSTEP_SANDBOX_SKIP=landlock,seccomp");
    EXPECT_NE(run.out.find("stdin is a tty: False"), std::string::npos) << run.out << run.err;
    EXPECT_NE(run.out.find("no tty:"), std::string::npos) << run.out << run.err;
    EXPECT_EQ(run.out.find("opened /dev/tty"), std::string::npos) << run.out;
}

} // namespace
} // namespace rankstep::hostile
