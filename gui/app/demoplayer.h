// SPDX-License-Identifier: MIT
#pragma once

#include "demostage.h"

#include <QObject>
#include <QTimer>

#include <vector>

namespace rankstep::gui {

// Replays a recorded demonstration (docs/demonstrations.md) step by step, forwards and back, or
// on its own at a pace. A step whose run has not been made yet runs its code first (the code is
// shown read-only, never saved as the learner's, and its runs are never graded); runs are kept,
// so going back never runs again. Ending the replay opens the lesson again with the learner's
// own code.
class DemoPlayer : public QObject
{
    Q_OBJECT
public:
    explicit DemoPlayer(DemoStage stage, QObject *parent = nullptr);

    // Reads the file and starts at step `first`. False, with why in a sentence, for a file that
    // cannot be read, is broken or newer, or names a lesson or cost model this build lacks; the
    // window is then left as it was.
    bool open(const QString &path, int first, QString *why);
    bool start(io::Demonstration demo, int first, QString *why);

    bool isActive() const { return m_active; }
    bool isPlaying() const { return m_playing; }
    bool isWaiting() const { return m_waitingRun >= 0; } // for a run of the code
    double pace() const { return m_paceSeconds; }
    int count() const { return int(m_demo.steps.size()); }
    int current() const { return m_current; } // the step shown or being prepared
    int shownStep() const { return m_shown; } // the step on screen, -1 while preparing
    const io::Demonstration &demonstration() const { return m_demo; }

public Q_SLOTS:
    void goTo(int step); // clamped to the steps
    void next() { goTo(m_current + 1); }
    void previous() { goTo(m_current - 1); }
    void setPlaying(bool playing);
    void setPace(double seconds);
    void finish(); // ends the replay
    // MainWindow::runFinished: the run this player started has ended.
    void onRunFinished();

Q_SIGNALS:
    void stepShown(int step);
    void waitingForRun(int step);
    void activeChanged(bool active);
    void playingChanged(bool playing);

private:
    void prepare();
    void show(int step);
    QString readOnlyWhy(int run) const;

    DemoStage m_stage;
    io::Demonstration m_demo;
    bool m_active = false;
    int m_current = 0;
    int m_shown = -1;
    int m_shownRun = -2; // the run whose code and trace are on screen; -2 nothing yet
    int m_waitingRun = -1;
    TracePtr m_before;              // on screen when the run waited for started
    QString m_costBefore;           // Run > Cost Model before the replay, chosen again after it
    std::vector<TracePtr> m_traces; // per run, once made (null: it made none)
    std::vector<bool> m_made;
    bool m_playing = false;
    double m_paceSeconds = 4;
    QTimer m_pace;
};

} // namespace rankstep::gui
