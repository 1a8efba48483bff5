// SPDX-License-Identifier: MIT
// A lesson's experiments run one after another, with a stand-in for rankstep-cli (a shell script
// named by RANKSTEP_CLI): each reports under its own index, and a stop ends the series.
#include "experimentscontroller.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace rankstep::gui {
namespace {

class ExperimentsControllerTest : public ::testing::Test
{
protected:
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

    std::vector<RunSpec> specs(int count) const
    {
        RunSpec spec;
        spec.codePath = m_dir.filePath(QStringLiteral("code.py"));
        spec.function = QStringLiteral("bubble");
        return std::vector<RunSpec>(std::size_t(count), spec);
    }

    QTemporaryDir m_dir;
};

TEST_F(ExperimentsControllerTest, EachExperimentReportsUnderItsIndexThenTheSeriesFinishes)
{
    useRunner("echo 'Error: nothing to measure' >&2\nexit 1\n");
    ExperimentsController experiments;
    QSignalSpy started(&experiments, &ExperimentsController::experimentStarted);
    QSignalSpy failed(&experiments, &ExperimentsController::experimentFailed);
    QSignalSpy finished(&experiments, &ExperimentsController::finished);
    QSignalSpy running(&experiments, &ExperimentsController::runningChanged);
    experiments.start(specs(3));
    EXPECT_TRUE(experiments.isRunning());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 30000));
    EXPECT_FALSE(experiments.isRunning());
    ASSERT_EQ(started.count(), 3);
    ASSERT_EQ(failed.count(), 3);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(started.at(i).at(0).toInt(), i);
        EXPECT_EQ(failed.at(i).at(0).toInt(), i);
        EXPECT_EQ(failed.at(i).at(1).toString().toStdString(), "Nothing to measure");
    }
    ASSERT_EQ(running.count(), 2);
    EXPECT_TRUE(running.at(0).at(0).toBool());
    EXPECT_FALSE(running.at(1).at(0).toBool());
}

// A stop is not the end of an experiment: no other experiment starts after it.
TEST_F(ExperimentsControllerTest, AStopEndsTheSeriesAndStartsNoOtherExperiment)
{
    useRunner("echo > started\nwhile :; do sleep 0.05; done\n");
    ExperimentsController experiments;
    QSignalSpy started(&experiments, &ExperimentsController::experimentStarted);
    QSignalSpy stopped(&experiments, &ExperimentsController::stopped);
    QSignalSpy finished(&experiments, &ExperimentsController::finished);
    experiments.start(specs(3));
    const QString marker = m_dir.filePath(QStringLiteral("started"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return QFile::exists(marker); }, 30000));
    experiments.stop();
    EXPECT_FALSE(experiments.isRunning());
    ASSERT_EQ(stopped.count(), 1);
    EXPECT_EQ(stopped.front().at(0).toInt(), 0);
    // A second series starts from its first experiment, and the stopped one reports nothing.
    useRunner("echo 'Error: nothing to measure' >&2\nexit 1\n");
    QSignalSpy failed(&experiments, &ExperimentsController::experimentFailed);
    experiments.start(specs(1));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 30000));
    ASSERT_EQ(started.count(), 2);
    EXPECT_EQ(started.at(1).at(0).toInt(), 0);
    EXPECT_EQ(failed.count(), 1);
}

} // namespace
} // namespace rankstep::gui
