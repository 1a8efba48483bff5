// SPDX-License-Identifier: MIT
#pragma once

#include "core/objects.h"
#include "palette.h"

#include <QBrush>
#include <QColor>
#include <QPixmap>
#include <QString>

namespace rankstep::gui {

// Memory by kind in the state panels' look, the app's one scheme (docs/colors.md), not a scheme of
// its own: each kind as the panels' key draws it, a middle layer's color of the notebook's scale
// (gradients faded) under the kind's pattern (statepainter.h kindPattern: weights plain,
// optimizer states striped, activations dotted, gradients hatched each their own way), so that no
// kind depends on telling colors apart.
QColor kindColor(core::ObjectKind kind,
                 const Palette &palette = Palette::of(Palette::Scheme::Standard));
// kindColor under the kind's pattern, as a brush that tiles an area.
QBrush kindBrush(core::ObjectKind kind,
                 const Palette &palette = Palette::of(Palette::Scheme::Standard));
// A key's swatch of the kind, `side` pixels square, outlined.
QPixmap kindSwatch(core::ObjectKind kind, int side,
                   const Palette &palette = Palette::of(Palette::Scheme::Standard));
// The swatch as an inline image for rich text.
QString kindSwatchHtml(core::ObjectKind kind, int side,
                       const Palette &palette = Palette::of(Palette::Scheme::Standard));
// "weights", "optimizer states", "activations", "activation gradients", "weight gradients"
QString kindPlural(core::ObjectKind kind);

} // namespace rankstep::gui
