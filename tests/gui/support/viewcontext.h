// SPDX-License-Identifier: MIT
// What a view is built with (gui/session): a session of its own and an appearance, for tests that
// drive one view alone.
#pragma once

#include "appearance.h"
#include "runsession.h"

#include <memory>

namespace rankstep::gui::testing {

struct ViewContext {
    RunSession session;
    Appearance appearance;
};

// One context for views that outlive the function making them (never destroyed: it outlives
// every view of the test program).
inline ViewContext &sharedContext()
{
    static auto *context = new ViewContext;
    return *context;
}

// A view of type View built with the shared context.
template <typename View>
std::unique_ptr<View> makeView()
{
    ViewContext &context = sharedContext();
    return std::make_unique<View>(context.session, context.appearance);
}

} // namespace rankstep::gui::testing
