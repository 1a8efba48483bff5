// SPDX-License-Identifier: MIT
#pragma once

#include "core/replay/state.h"
#include "core/trace.h"
#include "describable.h"
#include "statechanges.h"
#include "stategeometry.h"
#include "statepainter.h"
#include "statepanels.h"
#include "statetravel.h"

#include <QRegion>
#include <QWidget>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QVariantAnimation;

namespace rankstep::gui {

class Appearance;
class RunSession;
class StateRankPicker;

// What every rank holds at the cursor: one panel per shown rank (up to 16 at once) with the model
// drawn as stacked layers, input at the bottom, in the notebook's layer colors (statepainter.h
// objectColor): weights and activations their layer's color, gradients faded, updated weights
// edged yellow; each kind in a pattern of its own and labelled, a key of the patterns above the
// panels. A panel too small to label its objects shows a summary of its kinds instead (how many,
// how many bytes). A function of the trace and one RunState: changes between two states fade in
// and out; objects that arrived by communication get a gray outline. Hovering an object tells its
// name, value and size; clicking a panel selects its rank. "Show large" (or a click on a
// summary, or a double click) focuses the selected rank: its panel large beside an overview of
// the others. Follows the session (trace, state at the cursor, selected rank) and the appearance
// (colors, zoom).
class StateView
    : public QWidget
    , public Describable
{
    Q_OBJECT

public:
    struct Hit {
        int rank = 0;
        core::MapKind map = core::MapKind::Weights;
        std::size_t index = 0; // into the rank's map
    };

    StateView(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    // The session's run, which the states come from (its layers and maximum memory).
    const std::shared_ptr<const core::Trace> &trace() const { return m_trace; }
    // Every rank's state at the cursor; it points into the trace set before. What changed fades
    // in and out, unless more changed than the eye can follow (a jump): then it shows at once.
    void setState(const replay::RunState &state);
    const replay::RunState &state() const { return m_state; }
    void setSelectedRank(int rank);
    int selectedRank() const { return m_selected; }
    // Which ranks get a panel (empty: the first 16): the session's shown ranks, which the
    // timeline and the memory chart show too.
    void setVisibleRanks(std::vector<int> ranks);
    std::vector<int> visibleRanks() const;
    // Above the panels while the run has more ranks than panels: which ranks every view shows
    // (as the legend bar's picker).
    StateRankPicker *rankPicker() const { return m_picker; }
    bool isAnimating() const;
    // Off: a new state shows at once, without fades or travels (screenshots, scripted steps).
    void setAnimated(bool animated) { m_animated = animated; }
    bool isAnimated() const { return m_animated; }
    // The objects the last step brought by communication, flying from their senders' panels
    // while the animation runs (empty when it is over).
    const std::vector<Travel> &travels() const { return m_travels; }
    // How an entry of the current state is drawn now: fading and growing in while new since
    // the state before, outlined gray when it came by communication.
    ObjectLook lookOf(int rank, core::MapKind map, std::size_t index) const;

    // The rank shown large beside the others, -1 while every panel is alike. The focused rank is
    // the session's selected rank (the first shown one while none is selected).
    int focusedRank() const;
    bool isFocusing() const { return m_focus; }
    void setFocusing(bool focus);
    QComboBox *focusBox() const { return m_focusBox; }
    // Whether the rank's panel shows a summary of its kinds: too small to label its objects.
    bool showsSummary(int rank) const;

    QRectF panelRectOf(int rank) const; // empty when the rank has no panel
    QRectF gridArea() const;            // where the panels go: below the key and the focus box
    // The panels whose objects fade between the last two states: all a frame of the animation
    // repaints (the other panels do not move).
    QRegion animatedRegion() const;
    int rankAt(QPointF position) const; // -1 away from any panel
    std::optional<Hit> objectAt(QPointF position) const;
    QString toolTipAt(QPointF position) const; // object, else panel; empty outside panels

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    QString describedName() const override { return QStringLiteral("state"); }
    std::optional<core::SimTime> shownTime() const override;
    QStringList elidedTexts() const override { return m_elided.texts(); }

Q_SIGNALS:
    void rankSelected(int rank);
    void animationFinished();

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void onTraceChanged(); // clears the state
    void takeState(const replay::RunState &state);
    void retakeState();
    QRectF headerArea() const; // the key and the focus box, with the picker when shown
    QRectF keyArea() const;
    int keyLines() const; // below the picker, or below the focus box where it leaves no room
    int headerHeight(int keyLines) const;
    int keyBesideLines() const;
    std::vector<PanelSlot> panelSlots() const;
    std::optional<PanelSlot> slotOf(int rank) const;
    void updateTravels();
    void updatePicker();
    void updateFocusBox();
    void placeHeader();
    void onFocusChosen(int index);

    RunSession &m_session;
    Appearance &m_appearance;
    Look m_look;
    std::shared_ptr<const core::Trace> m_trace;
    bool m_keysValues = false; // the trace holds keys and values: the key names them
    replay::RunState m_state, m_previous;
    int m_selected = -1;
    QVariantAnimation *m_animation;
    double m_progress = 1.0;
    StateChanges m_changes; // from m_previous to m_state
    std::vector<Travel> m_travels;
    bool m_animated = true;
    StateRankPicker *m_picker;
    QComboBox *m_focusBox;
    bool m_focus = false;
    StatePanelCache m_cache; // what a paint reuses
    ElidedTexts m_elided;    // at the last paint
};

} // namespace rankstep::gui
