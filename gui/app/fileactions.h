// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QMenu;
class QMimeData;
class QWidget;

namespace rankstep::gui {

class ClassActions;
class DemoActions;
class NotebookImport;
class RecentFiles;
class TraceOpenActions;

// A file or folder handed to the app (its command line, "Open with", a drop, File > Open
// Recent): a folder is graded as a class folder, a notebook or .py imported, a recorded
// demonstration replayed, a trace the runner wrote shown (TraceOpenActions). What a file holds is
// told from its first bytes; the name decides only between a notebook and a .py.
class FileActions : public QObject
{
    Q_OBJECT
public:
    // Adds File > Open Recent and Quit (which closes dialogParent) to fileMenu.
    FileActions(ClassActions &classes, NotebookImport &import, DemoActions &demos,
                TraceOpenActions &traces, QMenu *fileMenu, QWidget *dialogParent);

    RecentFiles &recentFiles() const { return *m_recent; }
    // False, with why in the status bar and a message box, for anything else. A trace opens on
    // a worker; `inTurn`: after the traces already opening (else it replaces them).
    bool openFile(const QString &path, bool inTurn = false);
    // Whether a drag brings local files only (the window accepts those).
    static bool acceptsDrop(const QMimeData &data);
    // A drop opens each file as File > Open Recent would: dropping a notebook imports it.
    void openDropped(const QMimeData &data);

Q_SIGNALS:
    void message(const QString &text); // for the status bar

private:
    ClassActions &m_classes;
    NotebookImport &m_import;
    DemoActions &m_demos;
    TraceOpenActions &m_traces;
    QWidget *m_dialogParent;
    RecentFiles *m_recent;
};

} // namespace rankstep::gui
