// SPDX-License-Identifier: MIT
#pragma once

#include "demoplayer.h"
#include "demorecorder.h"

#include <QObject>
#include <QPointer>

class QAction;
class QMenu;
class QShortcut;
class QWidget;

namespace rankstep::gui {

class DemoBar;
class StepBar;

// File > Record a Demonstration and File > Replay a Demonstration (docs/demonstrations.md): the
// recorder and the player, the bar that shows them, and the clicker's PageDown and PageUp, which
// step the recording while it is replayed. A recording that is stopped but not saved (the save
// dialog cancelled, another lesson opened) stays on the bar with Save and Discard: nothing
// recorded is lost without being asked.
class DemoActions : public QObject
{
    Q_OBJECT
public:
    DemoActions(const DemoStage &stage, DemoBar &bar, StepBar &stepBar, QMenu *fileMenu,
                QWidget *window);

    DemoRecorder &recorder() const { return *m_recorder; }
    DemoPlayer &player() const { return *m_player; }
    QAction *recordAction() const { return m_record; }
    QAction *replayAction() const { return m_replay; }
    // The recording stopped and not saved yet; empty steps when there is none.
    const io::Demonstration &unsaved() const { return m_unsaved; }

    // Writes the stopped recording; false with why (the recording is kept).
    bool saveUnsaved(const QString &path, QString *why);
    // Before the window closes: a recording under way or not saved yet is offered to be saved
    // (Save, Discard, Cancel); false when the window should stay.
    bool confirmClose();
    // Replays the file from step `first` (from 0); false with why, nothing changed on screen.
    bool replay(const QString &path, int first, QString *why);

public Q_SLOTS:
    void startRecording();
    // Stops the recording and keeps it on the bar, unsaved.
    void stopRecording();
    // Stops the recording and asks where to save it (the menu, the bar's Stop Recording).
    void stopAndAskToSave();
    void askToSaveUnsaved();
    void discardUnsaved();
    void askToReplay();

    // What the window tells: a run started (its code and cost model) and finished, a lesson was
    // opened, and something on screen changed ("step", "tab", "view", ...).
    void onRunStarted(const QString &code, const QString &cost);
    void onRunFinished();
    void onLessonOpened(const QString &lessonId);
    void noteChange(const QString &change);

Q_SIGNALS:
    void message(const QString &text);  // for the status bar
    void replayed(const QString &path); // a file replayed (File > Open Recent keeps it)

private:
    void updateBar();
    void updateActions();
    QString folder() const;
    void rememberFolder(const QString &file);

    DemoStage m_stage;
    DemoBar &m_bar;
    StepBar &m_stepBar;
    QPointer<QWidget> m_window;
    DemoRecorder *m_recorder;
    DemoPlayer *m_player;
    QAction *m_record = nullptr;
    QAction *m_replay = nullptr;
    QShortcut *m_pageDown = nullptr;
    QShortcut *m_pageUp = nullptr;
    io::Demonstration m_unsaved;
    // The code of the run on screen (the last run that put a trace there), recording or not.
    QString m_lastRunCode, m_lastRunCost;
    TracePtr m_lastRunTrace;
    QString m_pendingCode, m_pendingCost; // of the run under way
    TracePtr m_pendingBefore;
    bool m_openingForReplay = false;
};

} // namespace rankstep::gui
