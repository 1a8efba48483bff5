// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <QString>

namespace rankstep::gui {

// A lesson's title in the language of the user interface: the built-in lessons' titles are
// translated in the context "LessonTitle" (gui/app/CMakeLists.txt hands lupdate every
// lesson.json's title); a title with no translation (an author's own lesson) stays as written.
QString lessonTitle(const lessons::Lesson &lesson);

// The language the window speaks: "de" while the German translation is installed, else "en".
QString interfaceLanguage();

// The lesson's text and hints in that language where the lesson has them (text.de.md,
// hints.de.md), else the English ones.
QString lessonText(const lessons::Lesson &lesson);
const std::vector<std::string> &lessonHints(const lessons::Lesson &lesson);

} // namespace rankstep::gui
