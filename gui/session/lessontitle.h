// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <QString>

namespace rankstep::gui {

// A lesson's title in the language of the user interface: the built-in lessons' titles are
// translated in the context "LessonTitle" (gui/app/CMakeLists.txt hands lupdate every
// lesson.json's title); a title with no translation (an author's own lesson) stays as written.
QString lessonTitle(const lessons::Lesson &lesson);

} // namespace rankstep::gui
