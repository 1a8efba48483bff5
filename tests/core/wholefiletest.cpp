// SPDX-License-Identifier: MIT
// core::writeWholeFile: a failed write (a full disk, /dev/full) never replaces a good file nor
// leaves a part of one, and says why; a link in the app's code store is replaced, never written
// through.
#include "core/wholefile.h"

#include "fulldisk.h"
#include "tempdir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace rankstep::core {
namespace {

namespace fs = std::filesystem;
using testsupport::FileSizeLimit;
using testsupport::TempDir;

int filesIn(const fs::path &folder)
{
    int count = 0;
    for ([[maybe_unused]] const auto &entry : fs::directory_iterator(folder))
        ++count;
    return count;
}

TEST(WholeFile, AFullDiskLeavesTheEarlierFileAsItWasAndNoPartOfTheNewOne)
{
    const TempDir dir;
    const std::string path = dir.write("ddp.py", "def ddp(): pass\n");
    std::optional<WriteFailure> failed;
    {
        const FileSizeLimit full(4); // past 4 bytes, every write fails as on a full disk
        failed = writeWholeFile(path, std::string(64 * 1024, 'x'));
    }
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->error, EFBIG);
    EXPECT_EQ(failed->sentence(), "cannot write '" + path +
                                      "': the file would be larger than this process may write "
                                      "(File too large)");
    EXPECT_EQ(dir.read("ddp.py"), "def ddp(): pass\n");
    EXPECT_EQ(filesIn(dir.path()), 1) << "the temporary file stayed";
}

TEST(WholeFile, ASmallWriteThatOnlyTheDiskRefusesLeavesNoEmptyFile)
{
    const TempDir dir;
    const std::string path = (dir.path() / "new.json").string();
    std::optional<WriteFailure> failed;
    {
        const FileSizeLimit full(0);
        failed = writeWholeFile(path, "{}");
    }
    ASSERT_TRUE(failed);
    EXPECT_FALSE(fs::exists(path));
    EXPECT_EQ(filesIn(dir.path()), 0);
}

// What a full file system does in this process, in a child of its own with a tmpfs of 64 KiB in
// a mount namespace of its own (gone with it): an exit code for the parent to name.
int fillAndWrite(const std::string &folder)
{
    if (unshare(CLONE_NEWNS) != 0 ||
        mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        mount("tmpfs", folder.c_str(), "tmpfs", 0, "size=64k") != 0)
        return 77;
    const std::string good = folder + "/ddp.py";
    if (writeWholeFile(good, "def ddp(): pass\n"))
        return 10;
    // Every block taken (not every inode): a new file can be made, not written.
    const int filler = open((folder + "/filler").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    const std::string block(4096, 'f');
    while (filler >= 0 && write(filler, block.data(), block.size()) > 0) {
    }
    if (filler < 0 || errno != ENOSPC)
        return 15;
    close(filler);
    const auto failed = writeWholeFile(good, std::string(32 * 1024, 'x'));
    if (!failed)
        return 11;
    if (failed->error != ENOSPC || failed->reason != "the disk is full (No space left on device)")
        return 12;
    std::ifstream in(good);
    const std::string kept{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (kept != "def ddp(): pass\n")
        return 13;
    for (const auto &entry : fs::directory_iterator(folder))
        if (entry.path().filename().string().find(".part") != std::string::npos)
            return 14;
    return 0;
}

TEST(WholeFile, OnAFullFileSystemTheEarlierFileStaysWholeAndTheReasonIsAFullDisk)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "mounting a small tmpfs needs root (the file-size limit above stands in)";
    const TempDir dir;
    const pid_t child = fork();
    if (child == 0)
        _exit(fillAndWrite(dir.path().string()));
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << status;
    if (WEXITSTATUS(status) == 77)
        GTEST_SKIP() << "no mount namespace and tmpfs here";
    const char *said[] = {"",
                          "the first write failed",
                          "the write on a full disk succeeded",
                          "the reason is not a full disk",
                          "the earlier file changed",
                          "a partial file was left"};
    const int code = WEXITSTATUS(status);
    EXPECT_EQ(code, 0) << (code >= 10 && code <= 14 ? said[code - 9] : "exit code");
}

TEST(WholeFile, WritesAndReplacesAFileKeepingItsPermissions)
{
    const TempDir dir;
    const std::string path = dir.write("out.txt", "old");
    ASSERT_EQ(chmod(path.c_str(), 0640), 0);
    EXPECT_FALSE(writeWholeFile(path, "new text"));
    EXPECT_EQ(dir.read("out.txt"), "new text");
    struct stat info {};
    ASSERT_EQ(stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0640U);
    EXPECT_EQ(filesIn(dir.path()), 1);
}

TEST(WholeFile, DevFullIsADiskThatIsFull)
{
    const TempDir dir;
    const std::string full = testsupport::fullDevice(dir.path());
    const auto failed = writeWholeFile(full, "a figure");
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->sentence(),
              "cannot write '" + full + "': the disk is full (No space left on device)");
    struct stat info {};
    ASSERT_EQ(stat(full.c_str(), &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode)) << "the device was replaced";
}

TEST(WholeFile, ADeviceIsWrittenWhereItIsAndAFifoNobodyReadsIsRefusedAtOnce)
{
    EXPECT_FALSE(writeWholeFile("/dev/null", "gone"));
    const TempDir dir;
    const std::string fifo = (dir.path() / "pipe").string();
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto failed = writeWholeFile(fifo, "text");
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->reason, "it is a pipe (FIFO) that no program reads");
}

TEST(WholeFile, AFolderIsRefused)
{
    const TempDir dir;
    const auto failed = writeWholeFile(dir.path().string(), "text");
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->reason, "it is a folder, not a file");
}

TEST(WholeFile, ALinkIsReplacedInTheStoreAndFollowedForAnOutputPath)
{
    const TempDir outside, store;
    const std::string target = outside.write("mine.py", "outside\n");
    const fs::path link = store.path() / "ddp.py";
    fs::create_symlink(target, link);
    EXPECT_FALSE(writeWholeFile(link.string(), "in the store\n", Links::Replace));
    EXPECT_EQ(outside.read("mine.py"), "outside\n");
    EXPECT_FALSE(fs::is_symlink(link));
    EXPECT_EQ(store.read("ddp.py"), "in the store\n");

    const fs::path output = store.path() / "out.json";
    fs::create_symlink(target, output);
    EXPECT_FALSE(writeWholeFile(output.string(), "followed\n", Links::Follow));
    EXPECT_TRUE(fs::is_symlink(output));
    EXPECT_EQ(outside.read("mine.py"), "followed\n");
    EXPECT_EQ(filesIn(outside.path()), 1);
}

} // namespace
} // namespace rankstep::core
