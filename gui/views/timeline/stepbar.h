// SPDX-License-Identifier: MIT
#pragma once

#include "describable.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QShortcut;
class QSlider;
class QToolButton;

namespace rankstep::gui {

class Appearance;
class RunSession;
class StepController;

// The controls for stepping through a finished run: Home, Back, Play/Pause, Next and End, the
// step mode, the play speed, a scrubber over the whole run and where the cursor stands. A run
// with draw() marks also gets the list of its snapshots, each named by its line: picking one
// goes there, and the list shows the one the cursor stands at.
//
// Keys, anywhere in the window: F10 steps forward and Shift+F10 back in the current mode;
// PageDown and PageUp do the same (what presentation clickers send); Home and End go to the
// start and the end of the run. PageUp, PageDown, Home and End give way to the focused widget
// when it uses them itself (the code editor, the lesson text, lists, spin boxes and sliders; Home
// and End in the timeline, which pan it): its ShortcutOverride is accepted, so they never steal
// navigation from someone typing. Space plays and pauses while the Play button has the focus (the
// bar hands its focus to that button), so it never takes a space from the editor.
class StepBar
    : public QWidget
    , public Describable
{
    Q_OBJECT
public:
    StepBar(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    // Describable: the time its counter names; the counter's full text when it had to shorten it.
    QString describedName() const override { return QStringLiteral("stepbar"); }
    std::optional<core::SimTime> shownTime() const override;
    QStringList elidedTexts() const override;

    QToolButton *playButton() const { return m_play; }
    QSlider *scrubber() const { return m_scrubber; }
    QComboBox *modeBox() const { return m_mode; }
    QComboBox *snapshotBox() const { return m_snapshots; }
    QLabel *positionLabel() const { return m_label; }
    // shortWords: in the shorter words the label takes where the whole does not fit (the same
    // text where it has none).
    QString positionText(bool shortWords = false) const;
    // While a recorded demonstration is replayed (gui/app/demoactions.h), PageDown and PageUp
    // step the recording, not the run, whichever widget has the focus: the bar's own keys for
    // them are off.
    void setClickerForRecording(bool recording);
    bool clickerForRecording() const { return m_clickerForRecording; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildButtons();
    void buildSettings(); // step mode, speed, scrubber and position
    void buildShortcuts();
    QToolButton *addButton(const QString &text, const QString &toolTip,
                           void (StepController::*slot)());
    void onCursorChanged();
    void onTraceChanged(); // fills the snapshot list
    void keepSnapshotsStepping();
    void showSnapshotMode();
    // The snapshot box at the cursor: the snapshot stood at, else the last one passed.
    void showPassedSnapshot();
    void onPlayingChanged(bool playing);
    void onScrubberMoved(int value);

    // The learner stepped by snapshot and the run shown has none: it steps by time until a run
    // that has some, which steps by snapshot again.
    bool m_snapshotsWanted = false;
    RunSession &m_session;
    StepController *m_controller;
    Appearance &m_appearance;
    QToolButton *m_home = nullptr;
    QToolButton *m_back = nullptr;
    QToolButton *m_play = nullptr;
    QToolButton *m_next = nullptr;
    QToolButton *m_end = nullptr;
    QComboBox *m_mode = nullptr;
    QComboBox *m_snapshots = nullptr;
    QDoubleSpinBox *m_speed = nullptr;
    QSlider *m_scrubber = nullptr;
    QLabel *m_label = nullptr;
    bool m_updatingScrubber = false; // the cursor moved the scrubber: do not move it back
    QShortcut *m_pageDown = nullptr;
    QShortcut *m_pageUp = nullptr;
    bool m_clickerForRecording = false;
};

} // namespace rankstep::gui
