// SPDX-License-Identifier: MIT
// The run's child process as the window drives it, with a stand-in for rankstep-cli (a shell
// script named by RANKSTEP_CLI): how a stopped run ends, and how much of its output is kept.
#include "runcontroller.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace rankstep::gui {
namespace {

class RunControllerTest : public ::testing::Test
{
protected:
    // Makes `body` the runner for this test.
    void useRunner(const QByteArray &body)
    {
        ASSERT_TRUE(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("fake-cli"));
        QFile script(path);
        ASSERT_TRUE(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\ncd \"" + m_dir.path().toUtf8() + "\"\n" + body);
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("RANKSTEP_CLI", path.toUtf8());
    }
    void TearDown() override { qunsetenv("RANKSTEP_CLI"); }

    QString file(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    bool waitForFile(const char *name, int ms = 10000) const
    {
        return QTest::qWaitFor([&] { return QFile::exists(file(name)); }, ms);
    }
    RunSpec spec() const
    {
        RunSpec spec;
        spec.codePath = file("code.py");
        spec.function = QStringLiteral("ddp");
        return spec;
    }

    QTemporaryDir m_dir;
};

// SIGKILL left rankstep-cli no chance to end the run's processes and remove its run folder.
TEST_F(RunControllerTest, StopAsksTheRunnerToEndWithSigtermFirst)
{
    useRunner(
        "trap 'echo > terminated; exit 0' TERM\necho $$ > started\n"
        "while :; do sleep 0.05; done\n");
    RunController controller;
    QSignalSpy stopped(&controller, &RunController::runStopped);
    controller.start(spec());
    ASSERT_TRUE(waitForFile("started"));
    controller.stop();
    EXPECT_EQ(stopped.count(), 1);
    EXPECT_FALSE(controller.isRunning());
    EXPECT_TRUE(waitForFile("terminated", RunController::kStopGraceMs - 500))
        << QDir(m_dir.path()).entryList().join(QLatin1Char(' ')).toStdString();
}

// A lesson laid out in several dimensions (lesson.json "tensor", "pipeline") ran as plain data
// parallelism: the runner was never told its degrees.
TEST_F(RunControllerTest, TheRunnerIsToldTheLessonsLayout)
{
    useRunner("echo \"$@\" > arguments.tmp && mv arguments.tmp arguments\n");
    RunController controller;
    RunSpec laidOut = spec();
    laidOut.ranks = 16;
    laidOut.layout = {.tensor = 2, .pipeline = 4};
    controller.start(laidOut);
    ASSERT_TRUE(waitForFile("arguments"));
    QFile arguments(file("arguments"));
    ASSERT_TRUE(arguments.open(QIODevice::ReadOnly));
    const QString given = QString::fromUtf8(arguments.readAll());
    EXPECT_TRUE(given.contains(QStringLiteral("--tensor 2"))) << given.toStdString();
    EXPECT_TRUE(given.contains(QStringLiteral("--pipeline 4"))) << given.toStdString();
    EXPECT_FALSE(given.contains(QStringLiteral("--context"))) << given.toStdString();
    EXPECT_TRUE(QTest::qWaitFor([&] { return !controller.isRunning(); }, 10000));
}

TEST_F(RunControllerTest, ARunnerThatIgnoresSigtermIsKilledAfterTheGraceTime)
{
    // The pid is written aside and renamed into place: a file that exists is a whole pid (the
    // shell's redirection makes the file before it writes, and a loaded machine read it empty).
    useRunner(
        "trap '' TERM\necho $$ > started.part && mv started.part started\n"
        "while :; do sleep 0.05; done\n");
    RunController controller;
    controller.start(spec());
    ASSERT_TRUE(waitForFile("started"));
    QFile started(file("started"));
    ASSERT_TRUE(started.open(QIODevice::ReadOnly));
    const pid_t pid = pid_t(started.readAll().trimmed().toInt());
    ASSERT_GT(pid, 0);
    controller.stop();
    const bool gone =
        QTest::qWaitFor([pid] { return ::kill(pid, 0) != 0; }, RunController::kStopGraceMs + 5000);
    EXPECT_TRUE(gone) << "the runner outlived its stop by more than the grace time";
}

// os.write(1, ...) passes the runner's own cap on what print() keeps; the app keeps only the
// head and the tail of what arrives, and the runner's last "Error:" line still names the cause.
TEST_F(RunControllerTest, AFloodOfOutputIsCappedAndItsLastErrorLineStillExplains)
{
    useRunner(
        "head -c 50000000 /dev/zero | tr '\\0' x\necho\n"
        "echo 'Error: the flood ended here' >&2\nexit 1\n");
    RunController controller;
    QSignalSpy failed(&controller, &RunController::runFailed);
    controller.start(spec());
    ASSERT_TRUE(failed.wait(30000));
    const QString message = failed.front().at(0).toString();
    const QString output = failed.front().at(1).toString();
    EXPECT_EQ(message.toStdString(), "The flood ended here");
    EXPECT_LT(output.size(), 2 << 20);
    EXPECT_TRUE(output.contains(QStringLiteral("dropped")));
}

} // namespace
} // namespace rankstep::gui
