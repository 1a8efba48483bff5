// SPDX-License-Identifier: MIT
// Every process a run started is gone when the run ends, when it is stopped, and when the app
// that started rankstep-cli dies (kill -9), and no run folder is left behind. Children need a
// kernel without the seccomp layer (which refuses them): RANKSTEP_SANDBOX_SKIP stands in for it.
#include "clilaunch.h"
#include "tests/support/loopingcode.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

constexpr const char *kNoSandbox = "RANKSTEP_SANDBOX_SKIP=landlock,seccomp";

// Starts `sleep` children (one in a session of its own, out of the run's process group) and
// prints their pids, then runs on `forever` or returns.
std::string spawningCode(bool forever)
{
    return "import os\nimport subprocess\n\n\ndef puzzle(model):\n"
           "    print('runner', os.getpid(), flush=True)\n"
           "    for own in (False, True):\n"
           "        child = subprocess.Popen(['sleep', '300'], start_new_session=own)\n"
           "        print('child', child.pid, flush=True)\n" +
           std::string(forever ? "    while True:\n        pass\n" : "");
}

void expectAllGone(const std::vector<pid_t> &pids)
{
    for (pid_t pid : pids)
        EXPECT_TRUE(waitGone(pid, 5)) << "process " << pid << " outlived the run";
}

TEST(RunProcesses, ChildrenOfTheCodeEndWithTheRun)
{
    TempDir dir;
    dir.write("puzzle.py", spawningCode(false));
    const ProcessResult run = runCli(
        {{"run", "puzzle.py", "--function", "puzzle"}, dir.path().string(), {kNoSandbox}}, dir);

    EXPECT_EQ(run.exitCode, 1) << run.err;
    const std::vector<pid_t> children = printedPids(run.out, "child ");
    ASSERT_EQ(children.size(), 2U) << run.out << run.err;
    expectAllGone(children);
}

TEST(RunProcesses, ChildrenOfTheCodeEndWhenTheTimeLimitStopsIt)
{
    TempDir dir;
    dir.write("puzzle.py", spawningCode(true));
    const ProcessResult run =
        runCli({{"run", "puzzle.py", "--function", "puzzle", "--timeout", "1"},
                dir.path().string(),
                {kNoSandbox}},
               dir);

    EXPECT_EQ(run.exitCode, 4) << run.err;
    const std::vector<pid_t> children = printedPids(run.out, "child ");
    ASSERT_EQ(children.size(), 2U) << run.out << run.err;
    expectAllGone(children);
}

// Waits until `path` holds `count` lines starting with `marker`.
std::string waitForPrinted(const std::string &path, const std::string &marker, std::size_t count)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::string text;
    while (std::chrono::steady_clock::now() < deadline) {
        text = testsupport::readFileText(path);
        if (printedPids(text, marker).size() >= count)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return text;
}

// The app stand-in: a process that starts rankstep-cli, tells the test its pid and waits.
pid_t startApp(const Launch &launch, const std::string &out, const std::string &err, pid_t &cli)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    const pid_t app = fork();
    if (app == 0) {
        close(fds[0]);
        const pid_t started = startCli(launch, out, err);
        [[maybe_unused]] const auto sent = write(fds[1], &started, sizeof started);
        for (;;)
            pause();
    }
    close(fds[1]);
    cli = -1;
    if (app < 0 || read(fds[0], &cli, sizeof cli) != sizeof cli)
        cli = -1;
    close(fds[0]);
    return app;
}

// With the sandbox whole (no children possible) and without it (children started).
class AppKilled : public ::testing::TestWithParam<bool>
{};

TEST_P(AppKilled, LeavesNoProcessOfTheRunAndNoRunFolder)
{
    const bool sandboxed = GetParam();
    TempDir dir;
    dir.write("puzzle.py", sandboxed
                               ? "import os\n\n\ndef puzzle(model):\n"
                                 "    print('runner', os.getpid(), flush=True)\n    while True:\n"
                                 "        pass\n"
                               : spawningCode(true));
    const std::string out = (dir.path() / "out.txt").string();
    pid_t cli = -1;
    const pid_t app = startApp({{"run", "puzzle.py", "--function", "puzzle", "--timeout", "60"},
                                dir.path().string(),
                                {sandboxed ? "RANKSTEP_SANDBOX_SKIP=" : kNoSandbox}},
                               out, (dir.path() / "err.txt").string(), cli);
    ASSERT_GT(app, 0);
    ASSERT_GT(cli, 0);
    const std::string printed =
        waitForPrinted(out, sandboxed ? "runner " : "child ", sandboxed ? 1 : 2);
    std::vector<pid_t> run = printedPids(printed, "runner ");
    const std::vector<pid_t> children = printedPids(printed, "child ");
    ASSERT_EQ(run.size(), 1U) << printed;
    EXPECT_EQ(runFoldersOf(cli).size(), 1U);

    kill(app, SIGKILL);
    waitpid(app, nullptr, 0);

    run.push_back(cli);
    run.insert(run.end(), children.begin(), children.end());
    expectAllGone(run);
    EXPECT_TRUE(runFoldersOf(cli).empty()) << runFoldersOf(cli).front();
}

// The app's Stop kills rankstep-cli itself with SIGKILL: its runner ends with it (it has no
// children: the sandbox refuses them), and the folder it could not remove goes with the next run.
TEST(RunProcesses, StoppingTheRunnerWithSigkillEndsTheRunAndTheNextRunRemovesItsFolder)
{
    TempDir dir;
    dir.write("puzzle.py",
              "import os\n\n\ndef puzzle(model):\n"
              "    print('runner', os.getpid(), flush=True)\n    while True:\n"
              "        pass\n");
    const std::string out = (dir.path() / "out.txt").string();
    const pid_t cli = startCli(
        {{"run", "puzzle.py", "--function", "puzzle", "--timeout", "60"}, dir.path().string(), {}},
        out, (dir.path() / "err.txt").string());
    ASSERT_GT(cli, 0);
    const std::vector<pid_t> runner = printedPids(waitForPrinted(out, "runner ", 1), "runner ");
    ASSERT_EQ(runner.size(), 1U);

    kill(cli, SIGKILL);
    waitpid(cli, nullptr, 0);

    expectAllGone(runner);
    // Nothing of this run could remove it; another test's run (ctest -j2) may already have, as
    // the next run of any supervisor removes the folders of supervisors that are gone.
    EXPECT_LE(runFoldersOf(cli).size(), 1U);
    dir.write("next.py", "def puzzle(model):\n    pass\n");
    EXPECT_EQ(
        runCli({{"run", "next.py", "--function", "puzzle"}, dir.path().string(), {}}, dir).exitCode,
        1);
    EXPECT_TRUE(runFoldersOf(cli).empty());
}

// The processes whose command line mentions `text` (a sweep's runs name the code file).
std::vector<pid_t> processesMentioning(const std::string &text)
{
    std::vector<pid_t> found;
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/proc", error)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::string line = testsupport::readFileText(entry.path() / "cmdline");
        std::replace(line.begin(), line.end(), '\0', ' ');
        if (line.find(text) != std::string::npos && !isGone(pid_t(std::stol(name))))
            found.push_back(pid_t(std::stol(name)));
    }
    return found;
}

// The runs' time limit: a stop must end them long before it, by SIGTERM or, 2 s later, SIGKILL.
constexpr int kLimitSeconds = 60;

// Ctrl+C stops a sweep at once: its runs, endless loops here, end with it, and it says how many
// settings ran.
TEST(RunProcesses, ASweepStoppedWithCtrlCEndsItsRunsAtOnce)
{
    TempDir dir;
    const std::string code =
        dir.write("endless-sweep.py", testsupport::loopingFunction("puzzle", false));
    const std::string out = (dir.path() / "out.txt").string();
    const std::string err = (dir.path() / "err.txt").string();
    const pid_t cli = startCli({{"sweep", code, "--ranks", "1,2,3", "--jobs", "2", "--timeout",
                                 std::to_string(kLimitSeconds)},
                                dir.path().string(),
                                {}},
                               out, err);
    ASSERT_GT(cli, 0);
    std::vector<pid_t> runs;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kLimitSeconds);
    while (testsupport::runsInTheirLoops(cli) < 2 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        runs = processesMentioning(code);
    }
    ASSERT_GE(testsupport::runsInTheirLoops(cli), 2U) << "two runs at a time, in their loops";

    const auto stopped = std::chrono::steady_clock::now();
    kill(cli, SIGINT);
    int status = 0;
    waitpid(cli, &status, 0);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped).count();

    // Runs get SIGTERM, and SIGKILL 2 s later at most; however slow a loaded machine is at that,
    // a sweep that waited for its runs' time limit instead would take longer than it.
    EXPECT_LT(seconds, kLimitSeconds) << "the runs ended at their time limit, not at the stop";
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 4);
    const std::string said = testsupport::readFileText(err);
    EXPECT_NE(said.find("Stopped: 0 of 3 settings ran."), std::string::npos) << said;
    expectAllGone(runs);
    EXPECT_TRUE(processesMentioning(code).empty());
}

// The live processes whose parent is `parent` (from /proc/PID/stat).
std::vector<pid_t> childrenOf(pid_t parent)
{
    std::vector<pid_t> found;
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/proc", error)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::string stat = testsupport::readFileText(entry.path() / "stat");
        const auto close = stat.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream fields(stat.substr(close + 2)); // state, then the parent's pid
        std::string state;
        long ppid = 0;
        fields >> state >> ppid;
        if (ppid == parent && !isGone(pid_t(std::stol(name))))
            found.push_back(pid_t(std::stol(name)));
    }
    return found;
}

// The app's Esc on a class being graded (File > Open Class Folder) sends SIGTERM: the runs under
// way end at once, and the grading says what was stopped (it ran under a supervisor of its own,
// which killed everything and blamed "the run").
TEST(RunProcesses, AGradeStoppedEndsItsRunsAtOnce)
{
    TempDir dir;
    const std::string loop = testsupport::loopingFunction("ddp");
    dir.write("class/ana/ddp.py", loop);
    dir.write("class/ben/ddp.py", loop);
    dir.write("class/cho/ddp.py", loop);
    const std::string out = (dir.path() / "out.txt").string();
    const std::string err = (dir.path() / "err.txt").string();
    const pid_t cli = startCli({{"grade", (dir.path() / "class").string(), "--jobs", "2",
                                 "--timeout", std::to_string(kLimitSeconds), "--roster", "--json"},
                                dir.path().string(),
                                {}},
                               out, err);
    ASSERT_GT(cli, 0);
    std::vector<pid_t> runs;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kLimitSeconds);
    while (testsupport::runsInTheirLoops(cli) < 2 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        runs = childrenOf(cli);
    }
    ASSERT_GE(testsupport::runsInTheirLoops(cli), 2U) << "two runs at a time, in their loops";

    const auto stopped = std::chrono::steady_clock::now();
    kill(cli, SIGTERM);
    int status = 0;
    waitpid(cli, &status, 0);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped).count();

    // Runs get SIGTERM, and SIGKILL 2 s later at most; however slow a loaded machine is at that,
    // a grade that waited for its runs' time limit instead would take longer than it.
    EXPECT_LT(seconds, kLimitSeconds) << "the runs ended at their time limit, not at the stop";
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 4);
    const std::string said = testsupport::readFileText(err);
    EXPECT_NE(said.find("Stopped: grading 3 functions was stopped."), std::string::npos) << said;
    expectAllGone(runs);
}

std::string sandboxName(const ::testing::TestParamInfo<bool> &param)
{
    return param.param ? "Sandboxed" : "WithoutSandbox";
}

INSTANTIATE_TEST_SUITE_P(RunProcesses, AppKilled, ::testing::Bool(), sandboxName);

} // namespace
} // namespace rankstep::hostile
