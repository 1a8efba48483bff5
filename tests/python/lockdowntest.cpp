// SPDX-License-Identifier: MIT
// LockDown::sealed (cli/sandbox.h), which whoever judges a run reads: true only when every wall is
// in force. Each case locks down a child process of its own, with the embedded interpreter
// started as the runner starts it.
#include "cli/sandbox.h"
#include "cli/sandboxfiles.h"
#include "core/python/runtime.h"
#include "tempdir.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

namespace rankstep::cli {
namespace {

// The byte a child wrote after locking itself down ('1' sealed, '0' not), or 'x' when it died.
char sealedInChild(const char *skip, bool network)
{
    const testsupport::TempDir folder; // removed by this process: the child ends with _Exit
    int fds[2];
    if (pipe(fds) != 0)
        return 'x';
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        setenv("RANKSTEP_SANDBOX_SKIP", skip, 1);
        const python::Runtime runtime;
        const char sealed = lockDown(folder.path().string(), network).sealed ? '1' : '0';
        std::_Exit(write(fds[1], &sealed, 1) == 1 ? 0 : 1);
    }
    close(fds[1]);
    char sealed = 'x';
    if (child < 0 || read(fds[0], &sealed, 1) != 1)
        sealed = 'x';
    close(fds[0]);
    int status = 0;
    if (child > 0)
        waitpid(child, &status, 0);
    return sealed;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

TEST(LockDown, SealsARunWhenEveryWallIsInForce)
{
    if (kSanitized)
        GTEST_SKIP() << "a sanitizer build maps code and starts processes: never sealed";
    EXPECT_EQ(sealedInChild("", false), '1');
}

TEST(LockDown, DoesNotSealARunWithoutLandlockOrSeccomp)
{
    EXPECT_EQ(sealedInChild("landlock", false), '0');
    EXPECT_EQ(sealedInChild("seccomp", false), '0');
}

TEST(LockDown, NeverSealsARealRunsRank)
{
    EXPECT_EQ(sealedInChild("", true), '0');
}

// A rank of --backend nccl opens NVIDIA's device files, and only such a rank: never a simulated
// run's process, nor a real run's rank or check on CPUs. A folder standing in for /dev.
TEST(LockDown, OnlyARankOnGpusOpensTheGpusDeviceFiles)
{
    const testsupport::TempDir dev;
    for (const char *name : {"nvidia0", "nvidiactl", "nvidia-uvm", "null", "nvme0n1", "tty"})
        dev.write(name, "");
    const std::vector<std::string> gpus = {(dev.path() / "nvidia-uvm").string(),
                                           (dev.path() / "nvidia0").string(),
                                           (dev.path() / "nvidiactl").string()};
    EXPECT_EQ(gpuDeviceFiles(dev.path().string()), gpus);
    EXPECT_EQ(sandboxFiles(true, true, dev.path().string()).devices, gpus);
    EXPECT_TRUE(sandboxFiles(true, false, dev.path().string()).devices.empty());
    EXPECT_TRUE(sandboxFiles(false, true, dev.path().string()).devices.empty());
}

} // namespace
} // namespace rankstep::cli
