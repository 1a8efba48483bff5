// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"

#include <QMetaType>

#include <memory>

namespace rankstep::gui {

// A finished run as every view shares it: immutable, so views only read it.
using TracePtr = std::shared_ptr<const core::Trace>;

} // namespace rankstep::gui

Q_DECLARE_METATYPE(rankstep::gui::TracePtr)
