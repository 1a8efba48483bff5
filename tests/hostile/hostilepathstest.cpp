// SPDX-License-Identifier: MIT
// Hostile paths: a FIFO, a device, a folder or a symbolic link loop where a code or
// lesson file belongs, and a notebook with lines of 150,000 characters. Each is a plain message
// and a documented exit code in bounded time, never a hang, an exception or a crash; the other
// files of a graded folder are still graded.
#include "tempdir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace rankstep::hostile {
namespace {

namespace fs = std::filesystem;
using testsupport::ProcessResult;
using testsupport::TempDir;

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

std::string classFile(const std::string &name)
{
    return testsupport::readFileText(fs::path(RANKSTEP_SOURCE_DIR) / "tests/lessons/data/class" /
                                     name);
}

// Runs rankstep-cli and fails the test when it takes longer than `seconds`.
ProcessResult runCli(const std::vector<std::string> &args, const TempDir &dir, double seconds = 30)
{
    const auto start = std::chrono::steady_clock::now();
    ProcessResult result = testsupport::runProgram(RANKSTEP_CLI, args, dir);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(took, seconds) << "rankstep-cli took too long";
    EXPECT_EQ(result.err.find("internal error"), std::string::npos) << result.err;
    return result;
}

TEST(HostilePaths, AFifoAsTheCodeFileIsRefusedAtOnceInsteadOfBlocking)
{
    TempDir dir;
    const std::string fifo = (dir.path() / "code.py").string();
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto run = runCli({"run", fifo, "--function", "puzzle", "--timeout", "2"}, dir, 10);
    EXPECT_EQ(run.exitCode, 64) << run.err;
    EXPECT_TRUE(contains(run.err, "code.py': it is a pipe (FIFO), not a regular file")) << run.err;
    const auto lesson = runCli({"lesson", "ddp", fifo}, dir, 10);
    EXPECT_EQ(lesson.exitCode, 64) << lesson.err;
    EXPECT_TRUE(contains(lesson.err, "it is a pipe (FIFO)")) << lesson.err;
    const auto graded = runCli({"grade", fifo}, dir, 10);
    EXPECT_EQ(graded.exitCode, 64) << graded.err;
    EXPECT_TRUE(contains(graded.err, "it is a pipe (FIFO)")) << graded.err;
}

TEST(HostilePaths, ADeviceAsTheCodeFileIsRefusedWithoutReadingIt)
{
    TempDir dir;
    const auto run = runCli({"run", "/dev/zero", "--function", "puzzle"}, dir, 10);
    EXPECT_EQ(run.exitCode, 64) << run.err;
    EXPECT_TRUE(contains(run.err, "cannot read '/dev/zero': it is a device, not a regular file"))
        << run.err;
}

TEST(HostilePaths, AFolderAsTheCodeFileIsCalledAFolder)
{
    TempDir dir;
    const auto run = runCli({"run", dir.path().string()}, dir, 10);
    EXPECT_EQ(run.exitCode, 64) << run.err;
    EXPECT_TRUE(contains(run.err, "it is a folder, not a file")) << run.err;
}

TEST(HostilePaths, ASymbolicLinkLoopAsTheCodeFileIsNamedALoop)
{
    TempDir dir;
    const fs::path loop = dir.path() / "loop.py";
    fs::create_symlink(loop.filename(), loop);
    const auto run = runCli({"run", loop.string(), "--function", "puzzle"}, dir, 10);
    EXPECT_EQ(run.exitCode, 64) << run.err;
    EXPECT_TRUE(contains(run.err, "a loop of symbolic links")) << run.err;
}

// A notebook cell of valid Python whose lines are 150,000 and 200,000 characters long.
std::string longLineNotebook()
{
    const std::string text(150000, 'a');
    const std::string name(200000, 'b');
    const std::string source = "x: \\\"" + text + "\\\"\\n\", \"" + name + " = 1\\n";
    return R"({"cells": [{"cell_type": "code", "execution_count": null, "metadata": {}, )"
           R"("outputs": [], "source": [")" +
           source + R"("]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})";
}

TEST(HostilePaths, GradeGradesAFolderWithLongLinesALinkLoopAndAFifoAndPrintsTheTable)
{
    TempDir dir;
    const fs::path folder = dir.path() / "class";
    dir.write("class/alice.py", classFile("alice.py"));
    dir.write("class/bob.py", classFile("bob.py"));
    const std::string notebook = dir.write("class/long.ipynb", longLineNotebook());
    fs::create_symlink("loop.py", folder / "loop.py");
    fs::create_directory_symlink(".", folder / "again");
    ASSERT_EQ(mkfifo((folder / "pipe.py").c_str(), 0600), 0);

    const auto graded = runCli({"grade", folder.string(), "--timeout", "10"}, dir, 60);

    EXPECT_EQ(graded.exitCode, 0) << graded.err;
    EXPECT_TRUE(contains(graded.out, "1 of 2 puzzle functions solved.")) << graded.out;
    EXPECT_TRUE(contains(graded.out, "long.ipynb")) << graded.out;
    EXPECT_TRUE(contains(graded.out, "a loop of symbolic links")) << graded.out;
    EXPECT_TRUE(contains(graded.out, "it is a pipe (FIFO)")) << graded.out;
    EXPECT_TRUE(testsupport::readFileText(notebook) == longLineNotebook());
}

// lessons/10-basic and lessons/30-ddp copied into dir/lessons.
fs::path copyLessons(const TempDir &dir)
{
    const fs::path root = dir.path() / "lessons";
    fs::create_directories(root);
    for (const char *folder : {"10-basic", "30-ddp"})
        fs::copy(fs::path(RANKSTEP_SOURCE_DIR) / "lessons" / folder, root / folder,
                 fs::copy_options::recursive);
    return root;
}

TEST(HostilePaths, ALinkLoopBesideTheLessonFoldersIsPassedOver)
{
    TempDir dir;
    const fs::path root = copyLessons(dir);
    fs::create_symlink("loop", root / "loop");
    fs::create_symlink("other", root / "30-ddp" / "notes.md");
    const auto listed = runCli({"lessons", "--lessons", root.string()}, dir);
    EXPECT_EQ(listed.exitCode, 0) << listed.err;
    EXPECT_TRUE(contains(listed.out, "basic\t")) << listed.out;
    EXPECT_TRUE(contains(listed.out, "ddp\t")) << listed.out;
}

TEST(HostilePaths, ALessonFileThatIsALinkLoopOrAFifoIsNamed)
{
    TempDir dir;
    const fs::path root = copyLessons(dir);
    fs::remove(root / "30-ddp" / "starter.py");
    fs::create_symlink("starter.py", root / "30-ddp" / "starter.py");
    const auto looped = runCli({"lessons", "--lessons", root.string()}, dir);
    EXPECT_EQ(looped.exitCode, 64) << looped.err;
    EXPECT_TRUE(contains(looped.err, "30-ddp/starter.py: cannot read")) << looped.err;
    EXPECT_TRUE(contains(looped.err, "a loop of symbolic links")) << looped.err;

    fs::remove(root / "30-ddp" / "starter.py");
    ASSERT_EQ(mkfifo((root / "30-ddp" / "starter.py").c_str(), 0600), 0);
    const auto piped =
        runCli({"lesson", "basic", "--solution", "--lessons", root.string()}, dir, 10);
    EXPECT_EQ(piped.exitCode, 64) << piped.err;
    EXPECT_TRUE(contains(piped.err, "it is a pipe (FIFO)")) << piped.err;
}

} // namespace
} // namespace rankstep::hostile
