// SPDX-License-Identifier: MIT
// The app's own temporary folders are named after its pid, so that those of an app killed with
// SIGKILL are found and removed by the next one, and nothing else is.
#include "apptempfolder.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <sys/wait.h>
#include <unistd.h>

namespace rankstep::gui {
namespace {

// A pid that belonged to a process which has ended.
pid_t endedPid()
{
    const pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, nullptr, 0);
    return child;
}

TEST(AppTempFolder, TheTemplateCarriesThisProcesssPid)
{
    EXPECT_TRUE(appTempFolderTemplate().contains(
        QStringLiteral("/Rankstep-app-%1-").arg(QCoreApplication::applicationPid())));
}

TEST(AppTempFolder, FoldersOfEndedProcessesAreRemovedAndNothingElse)
{
    QTemporaryDir root;
    ASSERT_TRUE(root.isValid());
    QDir dir(root.path());
    const QString dead = QStringLiteral("Rankstep-app-%1-abcdef").arg(endedPid());
    const QString alive =
        QStringLiteral("Rankstep-app-%1-abcdef").arg(QCoreApplication::applicationPid());
    const QString other = QStringLiteral("Rankstep-run-%1-abcdef").arg(endedPid());
    for (const QString &name : {dead, alive, other})
        ASSERT_TRUE(dir.mkpath(name + QStringLiteral("/inner")));
    // A link named like a stale folder is never followed into what it points at.
    QTemporaryDir target;
    QFile keep(target.filePath(QStringLiteral("keep.txt")));
    ASSERT_TRUE(keep.open(QIODevice::WriteOnly));
    keep.close();
    const QString link = QStringLiteral("Rankstep-app-%1-link").arg(endedPid());
    ASSERT_TRUE(QFile::link(target.path(), dir.filePath(link)));

    EXPECT_EQ(removeStaleAppTempFolders(root.path()), 1);
    EXPECT_FALSE(dir.exists(dead));
    EXPECT_TRUE(dir.exists(alive));
    EXPECT_TRUE(dir.exists(other));
    EXPECT_TRUE(QFile::exists(target.filePath(QStringLiteral("keep.txt"))));
}

} // namespace
} // namespace rankstep::gui
