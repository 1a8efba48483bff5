// SPDX-License-Identifier: MIT
// The one coroutine that runs rankstep-cli, driving real small children (/bin/sh and the built
// runner): how a child that ends, one that outruns its limit, one that is stopped and one that
// floods its output come back; and which run of a controller is the current one.
#include "childrun.h"

#include <gtest/gtest.h>

#include <QCoroTask>
#include <QTest>

#include <csignal>
#include <optional>

namespace rankstep::gui {
namespace {

constexpr int kWaitMs = 30000; // a bound for a loaded machine, not a figure under test

// Runs runCli to its end in the test's event loop.
QCoro::Task<void> collect(ChildCommand command, ChildLimits limits, StopToken stop,
                          std::optional<ChildOutcome> *into)
{
    auto running = runCli(std::move(command), limits, stop);
    *into = co_await running;
}

ChildCommand shell(const QString &script)
{
    ChildCommand command;
    command.program = QStringLiteral("/bin/sh");
    command.args = {QStringLiteral("-c"), script};
    return command;
}

std::optional<ChildOutcome> run(ChildCommand command, ChildLimits limits = {}, StopToken stop = {})
{
    std::optional<ChildOutcome> outcome;
    collect(std::move(command), limits, stop, &outcome);
    EXPECT_TRUE(QTest::qWaitFor([&] { return outcome.has_value(); }, kWaitMs));
    return outcome;
}

bool gone(pid_t pid)
{
    return QTest::qWaitFor([pid] { return ::kill(pid, 0) != 0; }, kWaitMs);
}

TEST(ChildRun, AChildThatEndsGivesItsExitCodeAndBothOfItsChannels)
{
    const auto outcome = run(shell(QStringLiteral("echo out; echo err >&2; exit 7")));
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->started);
    EXPECT_TRUE(outcome->normalExit());
    EXPECT_EQ(outcome->exitCode, 7);
    EXPECT_EQ(outcome->output.toStdString(), "out\n");
    EXPECT_EQ(outcome->errors.toStdString(), "err\n");
    EXPECT_FALSE(outcome->stopped);
    EXPECT_FALSE(outcome->timedOut);
}

TEST(ChildRun, WithoutAProgramItRunsTheBuiltRunner)
{
    qputenv("RANKSTEP_CLI", RANKSTEP_CLI);
    ChildCommand command;
    command.args = {QStringLiteral("--help")};
    const auto outcome = run(command);
    qunsetenv("RANKSTEP_CLI");
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->normalExit());
    EXPECT_EQ(outcome->exitCode, 0) << outcome->errors.toStdString();
    EXPECT_TRUE(outcome->output.contains(QStringLiteral("rankstep-cli")))
        << outcome->output.toStdString();
}

TEST(ChildRun, AChildPastItsWallClockLimitIsKilled)
{
    std::optional<pid_t> pid;
    ChildCommand command = shell(QStringLiteral("echo $$; exec sleep 300"));
    command.onOutput = [&pid](const QByteArray &bytes) {
        if (!pid && !bytes.trimmed().isEmpty())
            pid = pid_t(bytes.trimmed().toInt());
    };
    ChildLimits limits;
    limits.wallClock = std::chrono::milliseconds(300);
    const auto outcome = run(command, limits);
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->timedOut);
    EXPECT_FALSE(outcome->stopped);
    EXPECT_EQ(outcome->exitStatus, QProcess::CrashExit);
    ASSERT_TRUE(pid);
    EXPECT_TRUE(gone(*pid));
}

// SIGTERM first: rankstep-cli then ends every process of its run and removes its folder.
TEST(ChildRun, AStopRequestAsksTheChildToEndWithSigterm)
{
    StopToken stop;
    bool ready = false;
    ChildCommand command = shell(QStringLiteral(
        "trap 'echo terminated; exit 3' TERM; echo ready; while :; do sleep 0.05; done"));
    QByteArray printed;
    command.onOutput = [&](const QByteArray &bytes) {
        printed += bytes;
        ready = printed.contains("ready");
    };
    std::optional<ChildOutcome> outcome;
    collect(command, {}, stop, &outcome);
    ASSERT_TRUE(QTest::qWaitFor([&] { return ready; }, kWaitMs));
    EXPECT_TRUE(stop.childRunning());
    stop.request();
    ASSERT_TRUE(QTest::qWaitFor([&] { return outcome.has_value(); }, kWaitMs));
    EXPECT_TRUE(outcome->stopped);
    EXPECT_FALSE(outcome->timedOut);
    EXPECT_TRUE(outcome->normalExit());
    EXPECT_EQ(outcome->exitCode, 3);
    EXPECT_TRUE(printed.contains("terminated")) << printed.toStdString();
    EXPECT_FALSE(stop.childRunning());
}

TEST(ChildRun, AChildThatIgnoresSigtermIsKilledAfterTheGrace)
{
    StopToken stop;
    std::optional<pid_t> pid;
    ChildCommand command = shell(QStringLiteral("trap '' TERM; echo $$; exec sleep 300"));
    command.onOutput = [&pid](const QByteArray &bytes) {
        if (!pid && !bytes.trimmed().isEmpty())
            pid = pid_t(bytes.trimmed().toInt());
    };
    ChildLimits limits;
    limits.stopGrace = std::chrono::milliseconds(200);
    std::optional<ChildOutcome> outcome;
    collect(command, limits, stop, &outcome);
    ASSERT_TRUE(QTest::qWaitFor([&] { return pid.has_value(); }, kWaitMs));
    stop.request();
    ASSERT_TRUE(QTest::qWaitFor([&] { return outcome.has_value(); }, kWaitMs));
    EXPECT_TRUE(outcome->stopped);
    EXPECT_EQ(outcome->exitStatus, QProcess::CrashExit);
    EXPECT_TRUE(gone(*pid));
}

TEST(ChildRun, AStopRequestedBeforeTheStartKeepsTheChildFromStarting)
{
    StopToken stop;
    stop.request();
    const auto outcome = run(shell(QStringLiteral("exit 0")), {}, stop);
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->started);
    EXPECT_TRUE(outcome->stopped);
}

// A learner's os.write(1, ...) of gigabytes: the head and the tail are kept, the rest counted.
TEST(ChildRun, AFloodOfOutputIsCappedToItsHeadAndTail)
{
    ChildLimits limits;
    limits.headBytes = 1000;
    limits.tailBytes = 100;
    const auto outcome =
        run(shell(QStringLiteral("head -c 5000000 /dev/zero | tr '\\0' x; echo; echo last line;"
                                 "head -c 3000000 /dev/zero | tr '\\0' y >&2")),
            limits);
    ASSERT_TRUE(outcome);
    EXPECT_EQ(outcome->exitCode, 0);
    EXPECT_LT(outcome->output.size(), 1300);
    EXPECT_TRUE(outcome->output.startsWith(QString(1000, QLatin1Char('x'))));
    EXPECT_TRUE(outcome->output.contains(QStringLiteral("dropped")));
    EXPECT_TRUE(outcome->output.endsWith(QStringLiteral("\nlast line\n")))
        << outcome->output.right(120).toStdString();
    EXPECT_LT(outcome->errors.size(), 1300);
    EXPECT_TRUE(outcome->errors.contains(QStringLiteral("dropped")));
}

TEST(ChildRun, AProgramThatDoesNotExistDoesNotStartAndSaysWhy)
{
    ChildCommand command;
    command.program = QStringLiteral("rankstep-no-such-program");
    const auto outcome = run(command);
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->started);
    EXPECT_FALSE(outcome->errorString.isEmpty());
}

TEST(ChildRuns, ANewerRunSupersedesTheOneBefore)
{
    ChildRuns runs;
    EXPECT_FALSE(runs.busy());
    EXPECT_FALSE(runs.stop());
    const ChildRun first = runs.begin();
    EXPECT_TRUE(runs.isCurrent(first));
    const ChildRun second = runs.begin();
    EXPECT_FALSE(runs.isCurrent(first));
    EXPECT_TRUE(first.stop.requested());
    EXPECT_TRUE(runs.isCurrent(second));
    runs.finish(first); // a superseded run's end changes nothing
    EXPECT_TRUE(runs.busy());
    runs.finish(second);
    EXPECT_FALSE(runs.busy());
    EXPECT_FALSE(runs.isCurrent(second));
}

TEST(ChildRuns, StopEndsTheCurrentRunAndStopChildKeepsIt)
{
    ChildRuns runs;
    const ChildRun kept = runs.begin();
    runs.stopChild();
    EXPECT_TRUE(kept.stop.requested());
    EXPECT_TRUE(runs.isCurrent(kept));
    EXPECT_TRUE(runs.stop());
    EXPECT_FALSE(runs.isCurrent(kept));
    EXPECT_FALSE(runs.busy());
}

// The window closing: a runner that ignores SIGTERM still does not outlive its controller.
TEST(ChildRuns, TheirEndKillsAChildThatIgnoresSigtermAfterItsGrace)
{
    std::optional<pid_t> pid;
    std::optional<ChildOutcome> outcome;
    {
        ChildRuns runs;
        const ChildRun current = runs.begin();
        ChildCommand command = shell(QStringLiteral("trap '' TERM; echo $$; exec sleep 300"));
        command.onOutput = [&pid](const QByteArray &bytes) {
            if (!pid && !bytes.trimmed().isEmpty())
                pid = pid_t(bytes.trimmed().toInt());
        };
        ChildLimits limits;
        limits.stopGrace = std::chrono::milliseconds(200);
        collect(command, limits, current.stop, &outcome);
        ASSERT_TRUE(QTest::qWaitFor([&] { return pid.has_value(); }, kWaitMs));
    }
    EXPECT_NE(::kill(*pid, 0), 0) << "the child outlived its runs";
    // The coroutine still hands its outcome over once the event loop runs.
    ASSERT_TRUE(QTest::qWaitFor([&] { return outcome.has_value(); }, kWaitMs));
    EXPECT_TRUE(outcome->stopped);
}

} // namespace
} // namespace rankstep::gui
