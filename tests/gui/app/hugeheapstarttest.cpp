// SPDX-License-Identifier: MIT
// The app runs with its malloc heap on huge pages (core/hugeheap.h): started without the setting,
// it starts itself again with it, and the rankstep-cli it starts gets the user's GLIBC_TUNABLES.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace rankstep::gui::testing {
namespace {

bool hugePagesOnRequest()
{
    QFile enabled(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"));
    return enabled.open(QIODevice::ReadOnly) && enabled.readAll().contains("[madvise]");
}

// The lines of a file that the stand-in wrote ("NAME=value").
QList<QByteArray> linesOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().split('\n');
}

TEST(HugeHeapStart, TheAppRunsWithItsHeapOnHugePagesAndItsChildrenWithTheUsersSettings)
{
    if (!hugePagesOnRequest())
        GTEST_SKIP() << "transparent huge pages are not `madvise` here: the app keeps its start";
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    // A stand-in for rankstep-cli: it copies the environment the app was last started with (its
    // /proc entry; glibc cuts GLIBC_TUNABLES there at each colon) and writes down its own.
    const QString cli = home.filePath(QStringLiteral("cli-standin"));
    {
        QFile script(cli);
        ASSERT_TRUE(script.open(QIODevice::WriteOnly));
        script.write(
            "#!/bin/sh\ncat /proc/$PPID/environ > \"$HOME/app.env\"\n"
            "env > \"$HOME/cli.env\"\nexit 70\n");
        script.close();
        ASSERT_TRUE(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    }
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    for (const char *name : {"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"})
        env.insert(QString::fromLatin1(name), home.filePath(QString::fromLatin1(name)));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("RANKSTEP_CLI"), cli);
    const QByteArray users = "glibc.malloc.arena_max=4:glibc.malloc.tcache_count=8";
    env.insert(QStringLiteral("GLIBC_TUNABLES"), QString::fromLatin1(users));
    app.setProcessEnvironment(env);
    app.start(
        QStringLiteral(RANKSTEP_APP),
        {QStringLiteral("--lesson"), QStringLiteral("ddp"), QStringLiteral("--code"),
         QStringLiteral(RANKSTEP_SOURCE_DIR "/lessons/30-ddp/solution.py"), QStringLiteral("--run"),
         QStringLiteral("--screenshot"), home.filePath(QStringLiteral("shot.png"))});
    const bool ended = app.waitForFinished(60000);
    if (!ended)
        app.kill();
    ASSERT_TRUE(ended) << "the scripted run did not end";

    const QList<QByteArray> cliEnv = linesOf(home.filePath(QStringLiteral("cli.env")));
    ASSERT_FALSE(cliEnv.isEmpty())
        << "the app started no rankstep-cli: " << app.readAllStandardError().constData();
    QFile appEnv(home.filePath(QStringLiteral("app.env")));
    ASSERT_TRUE(appEnv.open(QIODevice::ReadOnly));
    EXPECT_TRUE(appEnv.readAll().contains("glibc.malloc.hugetlb=1"));
    EXPECT_TRUE(cliEnv.contains("GLIBC_TUNABLES=" + users)) << cliEnv.join('\n').constData();
    for (const QByteArray &line : cliEnv)
        EXPECT_FALSE(line.startsWith("RANKSTEP_GLIBC_TUNABLES_BEFORE")) << line.constData();
}

} // namespace
} // namespace rankstep::gui::testing
