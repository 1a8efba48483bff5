// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

namespace rankstep::lessons {

// The lessons built into the program (lessons/ at build time), validated then.
const LessonFiles &builtinLessonFiles();

} // namespace rankstep::lessons
