// SPDX-License-Identifier: MIT
// core::writeWholeFile: a failed write (a full disk, /dev/full) never replaces a good file nor
// leaves a part of one, and says why; a link in the app's code store is replaced, never written
// through.
#include "core/wholefile.h"

#include "fulldisk.h"
#include "tempdir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
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
