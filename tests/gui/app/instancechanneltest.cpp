// SPDX-License-Identifier: MIT
// "Open with" while Rankstep runs (gui/app/instancechannel.h): a second start of the real app
// hands its file to the window that listens and exits; with nobody answering, a start opens
// the file itself; a socket left by a crashed window is taken over; a sender that does not speak
// the protocol is dropped unanswered.
#include "instancechannel.h"

#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFile>
#include <QLocalServer>
#include <QLocalSocket>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <pwd.h>
#include <unistd.h>

namespace rankstep::gui::testing {
namespace {

class InstanceChannelTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        QFile::setPermissions(m_dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    // Where the app started with XDG_RUNTIME_DIR=m_dir looks for the running window.
    QString socketName() const
    {
        return m_dir.filePath(QStringLiteral("io.github.rankstep.Rankstep.socket"));
    }
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.path());
        env.insert(QStringLiteral("QT_LOGGING_RULES"),
                   QStringLiteral("rankstep.instance.debug=true"));
        env.insert(QStringLiteral("HOME"), m_dir.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
        return env;
    }

    QTemporaryDir m_dir;
};

TEST_F(InstanceChannelTest, ASecondStartHandsItsFileToTheRunningWindowAndExits)
{
    InstanceServer server;
    ASSERT_TRUE(server.listen(socketName()));
    QSignalSpy handed(&server, &InstanceServer::filesHanded);
    QProcess second;
    second.setProcessEnvironment(environment());
    second.setWorkingDirectory(m_dir.path());
    QSignalSpy finished(&second, &QProcess::finished);
    second.start(QStringLiteral(RANKSTEP_APP),
                 {QStringLiteral("--open"), QStringLiteral("run.rstb")});
    if (!handed.wait(60000)) {
        second.kill();
        second.waitForFinished();
        FAIL() << "no file arrived: " << second.readAllStandardError().toStdString();
    }
    EXPECT_EQ(handed.at(0).at(0).toStringList(),
              QStringList{m_dir.filePath(QStringLiteral("run.rstb"))})
        << "an absolute path";
    ASSERT_TRUE(finished.count() > 0 || finished.wait(20000)) << "the second start stayed";
    EXPECT_EQ(second.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(second.exitCode(), 0) << second.readAllStandardError().toStdString();
}

TEST_F(InstanceChannelTest, NobodyAnsweringMeansTheStartOpensTheFileItself)
{
    EXPECT_FALSE(handToRunningInstance({QStringLiteral("/tmp/x.rstb")}, 2000, socketName()))
        << "no window listens";
    QLocalServer silent; // accepts (the kernel does) but never answers
    ASSERT_TRUE(silent.listen(socketName()));
    QElapsedTimer clock;
    clock.start();
    EXPECT_FALSE(handToRunningInstance({QStringLiteral("/tmp/x.rstb")}, 1000, socketName()));
    EXPECT_LT(clock.elapsed(), 10000) << "it gave up";
}

TEST_F(InstanceChannelTest, ASocketLeftByACrashedWindowIsTakenOver)
{
    QFile stale(socketName()); // what a killed window leaves: a name nobody listens on
    {
        QLocalServer crashed;
        ASSERT_TRUE(crashed.listen(socketName()));
        crashed.close(); // removes it: put a file back as a crash would leave it
    }
    ASSERT_TRUE(stale.open(QIODevice::WriteOnly));
    stale.close();
    InstanceServer server;
    EXPECT_TRUE(server.listen(socketName()));
    InstanceServer second;
    EXPECT_FALSE(second.listen(socketName())) << "a window that answers keeps its socket";
}

TEST_F(InstanceChannelTest, ASenderThatDoesNotSpeakTheProtocolIsDropped)
{
    InstanceServer server;
    ASSERT_TRUE(server.listen(socketName()));
    QSignalSpy handed(&server, &InstanceServer::filesHanded);
    for (const QByteArray &junk :
         {QByteArray("GET / HTTP/1.0\n\n"),
          QByteArray("rankstep-open 1\n") + QByteArray(70000, 'a') + "\n\n"}) {
        QLocalSocket socket;
        QSignalSpy closed(&socket, &QLocalSocket::disconnected);
        socket.connectToServer(socketName());
        ASSERT_TRUE(socket.waitForConnected(5000));
        socket.write(junk);
        ASSERT_TRUE(closed.wait(10000)) << "the server hung up";
        EXPECT_TRUE(socket.readAll().isEmpty()) << "no answer";
    }
    EXPECT_EQ(handed.count(), 0);
    // Relative paths are not taken either; an absolute one is.
    QLocalSocket socket;
    socket.connectToServer(socketName());
    ASSERT_TRUE(socket.waitForConnected(5000));
    socket.write("rankstep-open 1\nrelative.rstb\n/abs/run.rstb\n\n");
    ASSERT_TRUE(handed.wait(10000));
    EXPECT_EQ(handed.at(0).at(0).toStringList(), QStringList{QStringLiteral("/abs/run.rstb")});
}

// Qt gives no runtime folder when the one it would make, TMPDIR/runtime-USER, is taken (another
// user made it first, or a file stands there). The name of the window's socket is then not put
// in the shared temporary folder (before: TMPDIR/io.github.rankstep.Rankstep.socket), where
// whoever listens first is handed the paths a start opens and answers for the window.
TEST_F(InstanceChannelTest, WithoutARuntimeFolderOfItsOwnNoStartUsesASharedFolder)
{
    struct Restore {
        QByteArray runtime = qgetenv("XDG_RUNTIME_DIR");
        QByteArray temp = qgetenv("TMPDIR");
        ~Restore()
        {
            qputenv("XDG_RUNTIME_DIR", runtime);
            if (temp.isNull())
                qunsetenv("TMPDIR");
            else
                qputenv("TMPDIR", temp);
        }
    } restore;
    qunsetenv("XDG_RUNTIME_DIR");
    qputenv("TMPDIR", QFile::encodeName(m_dir.path()));
    const passwd *user = getpwuid(geteuid());
    ASSERT_NE(user, nullptr);
    QFile taken(m_dir.filePath(QStringLiteral("runtime-") + QString::fromLocal8Bit(user->pw_name)));
    ASSERT_TRUE(taken.open(QIODevice::WriteOnly));
    taken.close();
    ASSERT_TRUE(QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation).isEmpty())
        << "Qt made a runtime folder after all: this test no longer sets up what it means to";

    InstanceServer squatter; // another user's, on the shared name
    ASSERT_TRUE(
        squatter.listen(m_dir.filePath(QStringLiteral("io.github.rankstep.Rankstep.socket"))));
    QSignalSpy handed(&squatter, &InstanceServer::filesHanded);
    EXPECT_TRUE(instanceSocketName().isEmpty()) << instanceSocketName().toStdString();
    EXPECT_FALSE(handToRunningInstance({QStringLiteral("/home/me/plans.rstb")}, 1000));
    EXPECT_FALSE(handed.wait(1000)) << "the squatter was handed the path";
    InstanceServer window;
    EXPECT_FALSE(window.listen()) << "a window listens nowhere rather than on a shared name";
}

} // namespace
} // namespace rankstep::gui::testing
