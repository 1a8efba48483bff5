// SPDX-License-Identifier: MIT
// Hostile files around the code: a lesson folder with a broken lesson.json among good ones, a
// trace file cut in half, and the runner killed from outside while the code loops.
#include "clilaunch.h"
#include "core/io/tracebinary.h"
#include "hostilecases.h"
#include "tempdir.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

extern char **environ;

namespace rankstep::hostile {
namespace {

namespace fs = std::filesystem;
using testsupport::TempDir;

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

TEST(HostileFiles, ABrokenLessonConfigIsNamedAndTheOtherLessonsStillLoad)
{
    TempDir dir;
    const std::string folder = brokenLessonsFolder(dir.path());

    const auto listed =
        testsupport::runProgram(RANKSTEP_CLI, {"lessons", "--lessons", folder}, dir);
    EXPECT_EQ(listed.exitCode, 64) << "an author must see that a folder was left out";
    EXPECT_TRUE(contains(listed.err, "left out a broken lesson: 30-ddp/lesson.json: "))
        << listed.err;
    EXPECT_TRUE(contains(listed.out, "basic\t")) << listed.out;
    EXPECT_FALSE(contains(listed.out, "ddp\t")) << listed.out;

    const auto run = testsupport::runProgram(
        RANKSTEP_CLI, {"lesson", "basic", "--solution", "--quiet", "--lessons", folder}, dir);
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(contains(run.out, "Solved")) << run.out;
    EXPECT_TRUE(contains(run.err, "30-ddp/lesson.json: ")) << run.err;
}

TEST(HostileFiles, ATraceFileCutInHalfIsAClearErrorOfTheReader)
{
    TempDir dir;
    const std::string trace = (dir.path() / "ddp.rstb").string();
    const auto run = testsupport::runProgram(
        RANKSTEP_CLI, {"lesson", "ddp", "--solution", "--quiet", "--trace-out", trace}, dir);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const std::string bytes = testsupport::readFileText(trace);
    ASSERT_GT(bytes.size(), 1000u);

    const auto whole = io::traceFromBinary(bytes);
    ASSERT_TRUE(whole.ok()) << whole.error().message;
    const auto half = io::traceFromBinary(std::string_view(bytes).substr(0, bytes.size() / 2));
    ASSERT_FALSE(half.ok());
    EXPECT_TRUE(contains(half.error().message, "truncated")) << half.error().message;
    EXPECT_TRUE(contains(half.error().message, "(byte ")) << half.error().message;
}

pid_t onlyChildOf(pid_t parent)
{
    const std::string path =
        "/proc/" + std::to_string(parent) + "/task/" + std::to_string(parent) + "/children";
    std::ifstream children(path);
    pid_t child = 0;
    children >> child;
    return child;
}

// The app stops a run by killing rankstep-cli; the child running the code must die with it.
// Both waits are for a condition, with room for a loaded machine: under a parallel suite and a
// build beside it, the child took longer than the 2 s the test once gave it to appear.
TEST(HostileFiles, KillingTheRunnerEndsTheCodeItRuns)
{
    TempDir dir;
    const std::string file =
        dir.write("loop.py", "def puzzle(model):\n    while True:\n        pass\n");
    std::vector<std::string> storage = {RANKSTEP_CLI, "run", file, "--quiet", "--timeout", "60"};
    std::vector<char *> argv;
    for (std::string &arg : storage)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_t runner = 0;
    ASSERT_EQ(posix_spawn(&runner, RANKSTEP_CLI, nullptr, nullptr, argv.data(), environ), 0);
    constexpr auto kPatience = std::chrono::seconds(60);
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    pid_t child = onlyChildOf(runner);
    while (child == 0 && !isGone(runner) && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        child = onlyChildOf(runner);
    }
    if (child == 0)
        kill(runner, SIGKILL);
    ASSERT_GT(child, 0) << "the runner started no child";

    kill(runner, SIGKILL);
    int status = 0;
    waitpid(runner, &status, 0);
    EXPECT_TRUE(waitGone(child, double(kPatience.count())))
        << "the code still runs after its runner was killed";
}

} // namespace
} // namespace rankstep::hostile
