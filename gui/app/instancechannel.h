// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QLocalServer;

namespace rankstep::gui {

class MainWindow;

// "Open with Rankstep" while Rankstep runs: the second start hands its files to the window that
// runs (as desktop apps do) instead of opening a second window, whose code would be read-only
// (the progress store is held by the first). A per-user local socket in the user's runtime
// folder ($XDG_RUNTIME_DIR, which only the user may enter).
//
// The protocol, one message each way: the second start sends "rankstep-open 1" and the absolute
// paths, one per line, then an empty line; the window answers "ok" once it has them and then
// opens each as File > Open would (a trace, a demonstration, a notebook, a class folder). At most
// kMaxPaths paths of kMaxBytes in all are read; anything else is dropped unanswered.
class InstanceServer : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxPaths = 64;
    static constexpr qint64 kMaxBytes = 64 * 1024;

    explicit InstanceServer(QObject *parent = nullptr);
    // Listens on `name` (instanceSocketName() by default); a socket left by a window that ended
    // without closing it is replaced, as nobody answered on it. False when another window listens.
    bool listen(const QString &name = {});
    QString serverName() const;

Q_SIGNALS:
    void filesHanded(const QStringList &paths);

private:
    void onConnection();

    QLocalServer *m_server;
};

// The files a later start hands over open in `window` as File > Open would, the window brought
// to the front.
void openHandedFiles(InstanceServer &server, MainWindow &window);

// The socket of this user's running window, in the user's runtime folder; empty when there is
// none that is the user's alone (then no start hands files over, nor listens).
QString instanceSocketName();

// Hands `paths` (made absolute here) to the window listening on `name` (instanceSocketName() by
// default). True when it answered within timeoutMs; false when none runs or it did not answer
// (then the caller opens them itself).
bool handToRunningInstance(const QStringList &paths, int timeoutMs = 3000,
                           const QString &name = {});

} // namespace rankstep::gui
