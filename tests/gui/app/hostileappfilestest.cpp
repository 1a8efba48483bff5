// SPDX-License-Identifier: MIT
// Hostile files in the app: a lessons folder with a broken lesson.json (the app, started as a
// learner starts it, names the file and shows the other lessons) and a run's binary trace cut in
// half, read by the run controller's loader.
#include "guitestsupport.h"
#include "hostilecases.h"
#include "progressstore.h"
#include "runcontroller.h"
#include "tempdir.h"

#include <QFileInfo>

#include <sys/stat.h>

#include <fcntl.h>
#include <unistd.h>
#include <chrono>
#include <future>
#include <thread>

namespace rankstep::gui::testing {
namespace {

using testsupport::TempDir;

// The app, offscreen, with its settings and code in dir (never the user's).
testsupport::ProcessResult runApp(const TempDir &dir, const std::vector<std::string> &args)
{
    std::vector<std::string> all = {
        "QT_QPA_PLATFORM=offscreen", "XDG_CONFIG_HOME=" + (dir.path() / "config").string(),
        "XDG_DATA_HOME=" + (dir.path() / "data").string(), RANKSTEP_APP};
    all.insert(all.end(), args.begin(), args.end());
    return testsupport::runProgram("/usr/bin/env", all, dir);
}

TEST(HostileAppFiles, ABrokenLessonConfigIsNamedAndTheOtherLessonsStillOpen)
{
    TempDir dir;
    const std::string folder = hostile::brokenLessonsFolder(dir.path());
    const std::string shot = (dir.path() / "basic.png").string();

    const auto basic =
        runApp(dir, {"--lessons", folder, "--lesson", "basic", "--screenshot", shot});
    EXPECT_EQ(basic.exitCode, 0) << basic.err;
    EXPECT_NE(basic.err.find("were left out:"), std::string::npos) << basic.err;
    EXPECT_NE(basic.err.find("30-ddp/lesson.json: "), std::string::npos) << basic.err;
    EXPECT_TRUE(QFileInfo(QString::fromStdString(shot)).size() > 0) << "no screenshot";

    const auto ddp = runApp(dir, {"--lessons", folder, "--lesson", "ddp", "--screenshot", shot});
    EXPECT_EQ(ddp.exitCode, 64) << "the broken lesson opened";
    EXPECT_NE(ddp.err.find("there is no lesson 'ddp'"), std::string::npos) << ddp.err;
}

TEST(HostileAppFiles, ATraceCutInHalfIsAClearErrorOfTheRunController)
{
    TempDir dir;
    const std::string trace = (dir.path() / "ddp.rstb").string();
    const auto run = testsupport::runProgram(
        RANKSTEP_CLI, {"lesson", "ddp", "--solution", "--quiet", "--trace-out", trace}, dir);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const std::string bytes = testsupport::readFileText(trace);
    ASSERT_GT(bytes.size(), 1000u);
    ASSERT_TRUE(loadTraceFile(QString::fromStdString(trace)).ok());

    dir.write("half.rstb", bytes.substr(0, bytes.size() / 2));
    const auto half = loadTraceFile(QString::fromStdString((dir.path() / "half.rstb").string()));
    ASSERT_FALSE(half.ok());
    EXPECT_NE(half.error().message.find("truncated"), std::string::npos) << half.error().message;
}

TEST(HostileAppFiles, ASavedCodeFileThatIsAFifoIsNotReadAndDoesNotHang)
{
    TempDir dir;
    const std::string fifo = (dir.path() / "ddp.py").string();
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const ProgressStore store(QString::fromStdString(dir.path().string()));
    auto code = std::async(std::launch::async, [&store] { return store.code("ddp"); });
    const bool answered = code.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
    if (!answered) { // unblock the reader so the test ends
        const int writer = ::open(fifo.c_str(), O_WRONLY);
        ::close(writer);
    }
    ASSERT_TRUE(answered) << "reading the saved code blocked on a FIFO";
    EXPECT_FALSE(code.get()) << "a FIFO is no saved code";
}

} // namespace
} // namespace rankstep::gui::testing
