// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QToolButton;

namespace rankstep::gui {

// The bar above the step bar while a demonstration is recorded or replayed
// (docs/demonstrations.md). Recording: a red dot with the count of steps, the caption of the
// step on screen (typed here, kept with that step) and Stop Recording. Replaying: Back, the
// step's number, Next, Play with its pace, End Replay, and the step's caption below them in
// large type for the room. A recording stopped but not saved: Save and Discard. Hidden otherwise.
// It shows what it is told and says what was clicked; gui/app/demoactions.h drives it.
class DemoBar : public QWidget
{
    Q_OBJECT
public:
    explicit DemoBar(QWidget *parent = nullptr);

    // newStep: the step on screen is a new one, so its caption starts empty.
    void showRecording(int steps, bool newStep);
    // A recording stopped but not saved yet: Save and Discard.
    void showUnsaved(int steps);
    // step from 0; what: why the step was taken ("a step of the run", "the tab"), may be empty.
    void showReplay(int step, int count, const QString &caption, const QString &what);
    // The step waits for its run of the code.
    void showWaiting(int step, int count);
    void setPlaying(bool playing);
    void setPace(double seconds);
    void hideBar();

    QLineEdit *captionEdit() const { return m_captionEdit; }
    QLabel *caption() const { return m_caption; }
    QLabel *status() const { return m_status; }
    QToolButton *playButton() const { return m_play; }

Q_SIGNALS:
    void captionEdited(const QString &text);
    void stopRecordingClicked();
    void saveClicked();
    void discardClicked();
    void previousClicked();
    void nextClicked();
    void playToggled(bool play);
    void paceChanged(double seconds);
    void endReplayClicked();
    void shownChanged(bool shown); // the window gives the views below room for it

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    QWidget *buildRecording();
    QWidget *buildReplay();
    QWidget *buildUnsaved();
    void updateCaptionFont();

    QStackedWidget *m_pages = nullptr;
    QLabel *m_recording = nullptr;
    QLineEdit *m_captionEdit = nullptr;
    QLabel *m_status = nullptr;
    QToolButton *m_back = nullptr;
    QToolButton *m_next = nullptr;
    QToolButton *m_play = nullptr;
    QDoubleSpinBox *m_pace = nullptr;
    QLabel *m_caption = nullptr;
    QLabel *m_unsaved = nullptr;
};

} // namespace rankstep::gui
