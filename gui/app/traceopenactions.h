// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace rankstep::gui {

class CodeEditor;
class CodeKeeper;
class RunSession;
struct OpenedRun;

// What opening a run from a file touches in the window: the run on screen, the code beside it,
// and the window's own doings (a lesson opened by its function, code shown read-only, a running
// simulation stopped, the views shared out again).
struct TraceOpenTarget {
    RunSession &session;
    CodeEditor &editor;
    CodeKeeper &keeper;
    QWidget &window;                                           // the dialogs' parent and its title
    std::function<bool(const QString &function)> openLessonOf; // a lesson whose puzzle it is
    std::function<void(const QString &code, const QString &why)> showCode;
    std::function<void()> stopRun;
    std::function<void()> arrange;
};

// File > Open Trace… (Ctrl+O), `rankstep --open FILE`, and a trace dropped or handed over by
// "Open with": any trace the runner wrote (binary or JSON), a real run's report, or a Chrome
// trace of `real --profile`, shown read-only in every view as if it had just run
// (gui/session/traceopener.h reads it). A file that cannot be read gets one sentence in a dialog
// and the status bar, and the window keeps what it showed.
class TraceOpenActions : public QObject
{
    Q_OBJECT
public:
    TraceOpenActions(TraceOpenTarget target, QMenu *fileMenu, QObject *parent = nullptr);

    QAction *action() const { return m_action; }
    // False, with why in the dialog and the status bar (and in *why when given).
    bool open(const QString &path, QString *why = nullptr);

Q_SIGNALS:
    void message(const QString &text); // for the status bar
    void opened(const QString &path);  // File > Open Recent keeps it

private:
    void chooseFile();
    void show(const OpenedRun &run, const QString &path);
    bool keepEdits();

    TraceOpenTarget m_target;
    QAction *m_action;
};

} // namespace rankstep::gui
