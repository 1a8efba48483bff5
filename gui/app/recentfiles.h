// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QStringList>

#include <functional>

class QMenu;

namespace rankstep::gui {

// File > Open Recent: the notebooks and Python files imported, the demonstrations replayed and
// the class folders opened, newest first, kept in the settings across restarts (at most
// kMostRecent). Choosing one opens it again through `open`; one that is gone is dropped from the
// list with a message.
class RecentFiles : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMostRecent = 10;

    RecentFiles(QMenu *fileMenu, std::function<void(const QString &)> open,
                QObject *parent = nullptr);

    QStringList paths() const; // newest first
    QMenu *menu() const { return m_menu; }

public Q_SLOTS:
    void add(const QString &path);
    void clear();

Q_SIGNALS:
    void message(const QString &text);

private:
    void rebuild();

    QMenu *m_menu;
    std::function<void(const QString &)> m_open;
};

} // namespace rankstep::gui
