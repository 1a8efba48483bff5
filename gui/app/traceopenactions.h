// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QAction;
class QMenu;
class QWidget;

namespace rankstep::gui {

class CodeEditor;
class CodeKeeper;
class ProgressLine;
class RunSession;
class TraceLoader;
struct OpenedRun;
struct PreparedRun;

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
// (gui/session/traceopener.h reads it). The file is read, and everything the views and the
// cursor need is made, on a worker (gui/session/traceloader.h) while the window stays usable and
// the progress line says how far it is; Cancel, or another file opened, drops it and the window
// keeps what it showed. A file that cannot be read gets one sentence in a dialog and the status
// bar, and the window keeps what it showed.
class TraceOpenActions : public QObject
{
    Q_OBJECT
public:
    TraceOpenActions(TraceOpenTarget target, QMenu *fileMenu, QObject *parent = nullptr);
    ~TraceOpenActions() override;

    QAction *action() const { return m_action; }
    // Starts opening `path` (one in progress is dropped); what it comes to follows: the run
    // shown (opened) or why not in a dialog and the status bar (failed).
    void open(const QString &path);
    // The same after the opens already asked for (`rankstep --open A --open B`: B after A).
    void openInTurn(const QString &path);
    void cancel(); // the open in progress and those waiting; the window keeps what it showed
    TraceLoader &loader() const { return *m_loader; }
    // The line the window shows while a file opens: what it does, a bar and Cancel (the window
    // places and shows it, following loader()'s busyChanged).
    ProgressLine *progressLine() const;

Q_SIGNALS:
    void message(const QString &text); // for the status bar
    void opened(const QString &path);  // File > Open Recent keeps it
    void failed(const QString &why);

private:
    void chooseFile();
    void onLoaded(const std::shared_ptr<PreparedRun> &run, const QString &path);
    void onFailed(const QString &why);
    void onTraceChanged();
    void openNext(); // from m_waiting, or the session is told that no open goes on
    void show(PreparedRun &run, const QString &path);
    bool keepEdits();

    TraceOpenTarget m_target;
    QAction *m_action;
    TraceLoader *m_loader;
    QPointer<ProgressLine> m_progress; // the status bar's child once the window placed it
    QStringList m_waiting;             // opens asked for in turn
    bool m_showing = false;            // the run being installed: its traceChanged is no other run
};

} // namespace rankstep::gui
