// SPDX-License-Identifier: MIT
// A class's grading that goes wrong says why, even when the grader says nothing: its crash or
// its refusal reached the teacher as an empty message.
#include "gradecontroller.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace rankstep::gui {
namespace {

class GradeControllerTest : public ::testing::Test
{
protected:
    // Makes `body` the grader for this test.
    void useGrader(const QByteArray &body)
    {
        ASSERT_TRUE(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("fake-cli"));
        QFile script(path);
        ASSERT_TRUE(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\n" + body);
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("RANKSTEP_CLI", path.toUtf8());
    }
    void TearDown() override { qunsetenv("RANKSTEP_CLI"); }

    // Grades the test's folder; the failure's message, or "(no failure)".
    std::string failure()
    {
        GradeController grading;
        QSignalSpy failed(&grading, &GradeController::failed);
        QSignalSpy finished(&grading, &GradeController::finished);
        grading.start(m_dir.path());
        EXPECT_TRUE(
            QTest::qWaitFor([&] { return !failed.isEmpty() || !finished.isEmpty(); }, 10000));
        return failed.isEmpty() ? std::string("(no failure)")
                                : failed.front().front().toString().toStdString();
    }

    QTemporaryDir m_dir;
};

TEST_F(GradeControllerTest, AGraderThatCrashesSilentlySaysSo)
{
    useGrader("kill -SEGV $$\n");
    const std::string why = failure();
    EXPECT_NE(why.find("crashed"), std::string::npos) << why;
}

// rankstep-cli writes a sandbox warning while it grades: a crash after it is still a crash.
TEST_F(GradeControllerTest, AGraderThatCrashesAfterAWarningSaysItCrashed)
{
    useGrader("echo 'rankstep-cli: warning: no sandbox here' >&2\nkill -SEGV $$\n");
    const std::string why = failure();
    EXPECT_NE(why.find("crashed"), std::string::npos) << why;
    EXPECT_NE(why.find("no sandbox here"), std::string::npos) << why;
}

TEST_F(GradeControllerTest, AGraderThatRefusesSilentlyGivesItsExitCode)
{
    useGrader("exit 64\n");
    const std::string why = failure();
    EXPECT_NE(why.find("exit code 64"), std::string::npos) << why;
}

TEST_F(GradeControllerTest, AGraderWhoseAnswerIsNoRosterSaysWhatWasWrongWithIt)
{
    useGrader("echo 'not json'\nexit 1\n");
    const std::string why = failure();
    EXPECT_FALSE(why.empty());
    EXPECT_NE(why, "(no failure)");
}

TEST_F(GradeControllerTest, TheGradersOwnWordsComeFirst)
{
    useGrader("echo 'rankstep-cli: no learners in this folder' >&2\nexit 64\n");
    EXPECT_EQ(failure(), "rankstep-cli: no learners in this folder");
}

} // namespace
} // namespace rankstep::gui
