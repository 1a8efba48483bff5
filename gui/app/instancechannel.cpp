// SPDX-License-Identifier: MIT
#include "instancechannel.h"

#include "mainwindow.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLoggingCategory>
#include <QPointer>
#include <QStandardPaths>
#include <QTimer>

namespace rankstep::gui {
namespace {

Q_LOGGING_CATEGORY(lcInstance, "rankstep.instance")

constexpr QByteArrayView kHello = "rankstep-open 1\n";
constexpr QByteArrayView kAnswer = "ok\n";
constexpr int kServerWaitMs = 5000; // a sender that says nothing is dropped after this

} // namespace

QString instanceSocketName()
{
    // Qt gives no runtime folder when the one it would use is not the user's alone (another user
    // made /tmp/runtime-USER first, say). A shared folder such as /tmp is no place for the name:
    // whoever listens there first would be handed the paths a start opens, and answer in place
    // of the window, so that nothing opens. Then every start opens its own window.
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (folder.isEmpty())
        return {};
    return QDir(folder).filePath(QStringLiteral("io.github.rankstep.Rankstep.socket"));
}

InstanceServer::InstanceServer(QObject *parent) : QObject(parent), m_server(new QLocalServer(this))
{
    // No socket options: with them Qt binds elsewhere and renames the socket over the name,
    // taking it from a window that listens. The runtime folder is the user's alone (0700).
    connect(m_server, &QLocalServer::newConnection, this, &InstanceServer::onConnection);
}

bool InstanceServer::listen(const QString &name)
{
    const QString socket = name.isEmpty() ? instanceSocketName() : name;
    if (socket.isEmpty())
        return false;
    if (m_server->listen(socket))
        return true;
    if (m_server->serverError() != QAbstractSocket::AddressInUseError)
        return false;
    QLocalSocket probe; // a window that answers keeps its socket
    probe.connectToServer(socket);
    if (probe.waitForConnected(500))
        return false;
    QLocalServer::removeServer(socket); // left by a window that crashed
    return m_server->listen(socket);
}

QString InstanceServer::serverName() const
{
    return m_server->fullServerName();
}

void InstanceServer::onConnection()
{
    while (QLocalSocket *next = m_server->nextPendingConnection()) {
        QPointer<QLocalSocket> socket(next);
        connect(next, &QLocalSocket::disconnected, next, &QObject::deleteLater);
        QTimer::singleShot(kServerWaitMs, next, [socket] {
            if (socket)
                socket->abort();
        });
        connect(next, &QLocalSocket::readyRead, this, [this, socket] {
            if (!socket)
                return;
            const QByteArray seen = socket->peek(kMaxBytes + 1);
            if (seen.size() > kMaxBytes || !seen.startsWith(kHello)) {
                qCDebug(lcInstance) << "dropped a sender that did not speak the protocol";
                socket->abort();
                return;
            }
            if (!seen.endsWith("\n\n"))
                return; // more to come
            const QList<QByteArray> lines = socket->readAll().split('\n');
            QStringList paths;
            for (qsizetype i = 1; i < lines.size() && paths.size() < kMaxPaths; ++i) {
                const QString path = QString::fromUtf8(lines[i]);
                if (!path.isEmpty() && QDir::isAbsolutePath(path))
                    paths << path;
            }
            socket->write(kAnswer.data(), kAnswer.size());
            socket->flush();
            socket->disconnectFromServer();
            if (!paths.isEmpty())
                Q_EMIT filesHanded(paths);
        });
    }
}

void openHandedFiles(InstanceServer &server, MainWindow &window)
{
    QObject::connect(&server, &InstanceServer::filesHanded, &window,
                     [&window](const QStringList &paths) {
                         window.raise();
                         window.activateWindow();
                         for (const QString &path : paths)
                             window.openFile(path);
                     });
}

bool handToRunningInstance(const QStringList &paths, int timeoutMs, const QString &name)
{
    const QString server = name.isEmpty() ? instanceSocketName() : name;
    if (server.isEmpty())
        return false;
    QLocalSocket socket;
    socket.connectToServer(server);
    const QDeadlineTimer deadline(timeoutMs);
    if (!socket.waitForConnected(int(deadline.remainingTime()))) {
        qCDebug(lcInstance) << "no window listens on" << socket.serverName()
                            << socket.errorString();
        return false;
    }
    QByteArray message(kHello.data(), kHello.size());
    for (const QString &path : paths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        if (absolute.contains(QLatin1Char('\n')))
            return false; // a name with a line break: this start opens it itself
        message += absolute.toUtf8() + '\n';
    }
    message += '\n';
    socket.write(message);
    QByteArray answer;
    while (!answer.contains('\n') && deadline.remainingTime() > 0) {
        if (socket.bytesToWrite() > 0)
            socket.waitForBytesWritten(int(deadline.remainingTime()));
        else if (!socket.waitForReadyRead(int(deadline.remainingTime())))
            break;
        answer += socket.readAll();
    }
    const bool answered = answer.startsWith(QByteArray(kAnswer.data(), kAnswer.size()));
    if (!answered)
        qCDebug(lcInstance) << "the window did not answer:" << socket.errorString();
    return answered;
}

} // namespace rankstep::gui
