// SPDX-License-Identifier: MIT
#pragma once

#include "palette.h"

namespace rankstep::gui {

// How the painters draw beyond the widget palette: the color scheme and the zoom, as one value
// handed to every painter. gui/session/appearance.h keeps the app's current one and says when it
// changes; figures for slides use the default (standard colors, zoom 1) unless asked otherwise.
struct Look {
    Palette::Scheme scheme = Palette::Scheme::Standard;
    double zoom = 1.0; // 1 is the unzoomed size

    const Palette &colors() const { return Palette::of(scheme); }
    // A size given for zoom 1 (font points, pen widths in pixels) at this zoom.
    double scaled(double size) const { return size * zoom; }

    bool operator==(const Look &) const = default;
};

} // namespace rankstep::gui
