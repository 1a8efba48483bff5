// SPDX-License-Identifier: MIT
#pragma once

namespace rankstep::gui {

// One zoom for the whole app, so that every view's text and lines grow together (Ctrl+Plus,
// Ctrl+Minus, Ctrl+0; presentation mode). Views that paint take their fixed sizes through
// zoomed(); widgets that use the application font follow it, as setZoomFactor scales that font.
double zoomFactor(); // 1 is the unzoomed size

// Sets the factor (clamped to [kMinZoom, kMaxZoom]) and scales the application font from the
// font it had before the first zoom; widgets without their own font repaint with it.
void setZoomFactor(double factor);

// A size given for zoom 1 (font points, pen widths in pixels) at the current zoom.
double zoomed(double size);

// The next step up or down from factor on the zoom ladder (1.1, 1.25, 1.5, ...).
double nextZoomIn(double factor);
double nextZoomOut(double factor);

inline constexpr double kMinZoom = 0.5;
inline constexpr double kMaxZoom = 4.0;

} // namespace rankstep::gui
