// SPDX-License-Identifier: MIT
#pragma once

#include "look.h"

#include <QWidget>

namespace rankstep::gui {

class Appearance;
class RunSession;
class StateRankPicker;

// The strip between the step bar and the timeline: the legend (legendpainter.h) of the run's
// model, and for a run of many ranks the rank picker that chooses what every view shows (the
// session's shownRanks). Wraps onto a second line when the window is narrow.
class LegendBar : public QWidget
{
    Q_OBJECT

public:
    LegendBar(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    StateRankPicker *rankPicker() const { return m_picker; }
    int layers() const { return m_layers; }
    // Where the legend is drawn, in this widget (left of the picker).
    QRect legendRect() const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void onTraceChanged();
    void updatePicker();
    int legendWidth(int width) const;

    RunSession &m_session;
    Appearance &m_appearance;
    Look m_look;
    int m_layers = 2;
    bool m_splitBackward = false; // the run has a backward's halves: the legend names them
    bool m_allToAll = false;      // the run has an alltoall: the legend names it
    StateRankPicker *m_picker;
};

} // namespace rankstep::gui
