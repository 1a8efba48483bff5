// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"

#include <QColor>

namespace rankstep::gui {

// The colors of the source documents' diagrams, shared by every view so a layer or an operation
// looks the same in the timeline, the memory chart and the state view.
class Palette
{
public:
    enum class Scheme { Standard, ColorBlindSafe };

    // The palette of a scheme (painters get theirs through gui/render/look.h).
    static const Palette &of(Scheme scheme);
    Scheme scheme() const { return m_scheme; }

    // Layer l of a model of `layers` on the notebook's scale of layers + 1 steps: layer 0 (and
    // the input) green, the output (l == layers) red; every view and figure colors layers with
    // it. The color-blind-safe scheme spans dark blue to orange over the same steps.
    QColor layer(int layer, int layers) const;
    // The notebook's scale itself: Color("green").range_to("red", layers + 1)[layer].
    static QColor notebookLayer(int layer, int layers);
    // The color of a timeline block for an event. The standard scheme paints as the notebook's
    // draw() does, on white: forward in the layer's color, backward the layer's color at 20%
    // opacity, update Color("yellow") at 50%, all-reduce, all-gather and scatter-reduce the
    // layer's color at 50%, pass (and receive) Color("grey") at 50%; the loss, which the notebook
    // does not draw, red. The color-blind-safe scheme differs on purpose: backward at 50%,
    // communication dark gray and hatched (hatchesCommunication), so that it never depends on
    // telling faded layer colors apart (docs/colors.md).
    QColor event(const core::Event &event, int layers) const;
    // Whether the timeline and the legend draw communication hatched on the background (the
    // color-blind-safe scheme) instead of filled in its color (the notebook's, standard).
    bool hatchesCommunication() const { return m_scheme == Scheme::ColorBlindSafe; }
    // The state view's mark of an updated weight (golden: an outline in the notebook's pale
    // yellow would not read on a layer's color); the timeline's update blocks are event()'s.
    QColor update() const { return m_update; }
    QColor message() const { return m_message; }
    QColor loss() const { return m_loss; }
    QColor input() const { return m_input; }  // input activations and loaded weights
    QColor rank(int rank) const;              // a distinct color per rank (editor markers, chart)
    QColor maximum() const { return m_loss; } // the run's maximum memory marker

    // Mixes color toward white by amount (0: unchanged, 1: white).
    static QColor faded(const QColor &color, double amount);
    // Mixes color toward background by amount: faded() that also reads on a dark theme.
    static QColor toward(const QColor &color, const QColor &background, double amount);
    // Black or white, whichever reads better on background.
    static QColor textOn(const QColor &background);

private:
    explicit Palette(Scheme scheme);
    Scheme m_scheme;
    QColor m_update, m_message, m_loss, m_input;
};

// A device's memory (a cost file's "memory_bytes"): its line on the memory chart and in the What if
// tab, and what does not fit it. An orange apart from the maximum's red and the ranks' colors,
// that reads on the light and the dark look and in both schemes (docs/colors.md).
inline const QColor kDeviceMemory(0xef, 0x6c, 0x00);

} // namespace rankstep::gui
