// SPDX-License-Identifier: MIT
#include "apptempfolder.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>

namespace rankstep::gui {
namespace {

const QString kPrefix = QStringLiteral("Rankstep-app-");

// The pid in "Rankstep-app-<pid>-XXXXXX", or 0.
qint64 ownerPid(const QString &name)
{
    const qsizetype dash = name.indexOf(QLatin1Char('-'), kPrefix.size());
    if (!name.startsWith(kPrefix) || dash < 0)
        return 0;
    bool ok = false;
    const qint64 pid = name.mid(kPrefix.size(), dash - kPrefix.size()).toLongLong(&ok);
    return ok && pid > 0 ? pid : 0;
}

bool processIsGone(qint64 pid)
{
    return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

} // namespace

QString appTempFolderTemplate()
{
    return QDir::tempPath() + QLatin1Char('/') + kPrefix +
           QString::number(QCoreApplication::applicationPid()) + QStringLiteral("-XXXXXX");
}

int removeStaleAppTempFolders(const QString &tempRoot)
{
    const QDir root(tempRoot.isEmpty() ? QDir::tempPath() : tempRoot);
    int removed = 0;
    const auto entries =
        root.entryInfoList({kPrefix + QLatin1Char('*')}, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QFileInfo &entry : entries) {
        struct stat status {};
        // Only real folders of this user; a link is never followed.
        if (::lstat(QFile::encodeName(entry.filePath()).constData(), &status) != 0 ||
            !S_ISDIR(status.st_mode) || status.st_uid != ::getuid())
            continue;
        const qint64 pid = ownerPid(entry.fileName());
        if (pid == 0 || !processIsGone(pid))
            continue;
        if (QDir(entry.filePath()).removeRecursively())
            ++removed;
    }
    return removed;
}

} // namespace rankstep::gui
