// SPDX-License-Identifier: MIT
#include "recentfiles.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QTimer>

namespace rankstep::gui {
namespace {

const QString kKey = QStringLiteral("recent/files");

} // namespace

RecentFiles::RecentFiles(QMenu *fileMenu, std::function<void(const QString &)> open,
                         QObject *parent)
    : QObject(parent), m_menu(fileMenu->addMenu(tr("Open &Recent"))), m_open(std::move(open))
{
    m_menu->setObjectName(QStringLiteral("recentMenu"));
    rebuild();
}

QStringList RecentFiles::paths() const
{
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = paths();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMostRecent)
        list.removeLast();
    QSettings().setValue(kKey, list);
    // Later: this may run inside the click on one of the menu's own actions, which rebuild()
    // deletes.
    QTimer::singleShot(0, this, &RecentFiles::rebuild);
}

void RecentFiles::clear()
{
    QSettings().remove(kKey);
    QTimer::singleShot(0, this, &RecentFiles::rebuild);
}

void RecentFiles::rebuild()
{
    m_menu->clear();
    const QStringList list = paths();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = list[i];
        // &1 to &9 (then 0): the menu's own keys, as desktop apps number them.
        const QString number = i < 9 ? QStringLiteral("&%1").arg(i + 1) : QStringLiteral("1&0");
        QAction *action =
            m_menu->addAction(QStringLiteral("%1  %2").arg(number, QDir::toNativeSeparators(path)));
        action->setObjectName(QStringLiteral("recent%1").arg(i));
        connect(action, &QAction::triggered, this, [this, path] {
            if (!QFileInfo::exists(path)) {
                QStringList left = paths();
                left.removeAll(path);
                QSettings().setValue(kKey, left);
                QTimer::singleShot(0, this, &RecentFiles::rebuild);
                Q_EMIT message(tr("%1 is no longer there; it was taken off the list.")
                                   .arg(QDir::toNativeSeparators(path)));
                return;
            }
            m_open(path);
        });
    }
    if (!list.isEmpty())
        m_menu->addSeparator();
    QAction *clearAction = m_menu->addAction(tr("&Clear the List"), this, &RecentFiles::clear);
    clearAction->setObjectName(QStringLiteral("clearRecentAction"));
    clearAction->setEnabled(!list.isEmpty());
    m_menu->setEnabled(true);
}

} // namespace rankstep::gui
