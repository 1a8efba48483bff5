// SPDX-License-Identifier: MIT
#pragma once

#include "core/objects.h"

#include <QColor>
#include <QString>

namespace rankstep::gui {

// One color per object kind for memory by kind (the Okabe-Ito colors, told apart with every
// common color vision deficiency): weights blue, optimizer states sky blue, activations orange,
// activation gradients vermillion, weight gradients green.
QColor kindColor(core::ObjectKind kind);
// "weights", "optimizer states", "activations", "activation gradients", "weight gradients"
QString kindPlural(core::ObjectKind kind);

} // namespace rankstep::gui
