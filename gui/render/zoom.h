// SPDX-License-Identifier: MIT
#pragma once

namespace rankstep::gui {

// The zoom ladder of Ctrl+Plus and Ctrl+Minus (like a browser's: small steps near 1, larger ones
// for slides). The zoom itself is part of the appearance (gui/session/appearance.h); painters
// scale their fixed sizes by it through gui/render/look.h.

// The next step up or down from factor on the ladder (1.1, 1.25, 1.5, ...).
double nextZoomIn(double factor);
double nextZoomOut(double factor);

inline constexpr double kMinZoom = 0.5;
inline constexpr double kMaxZoom = 4.0;

} // namespace rankstep::gui
