// SPDX-License-Identifier: MIT
#include "lessontitle.h"

#include <QCoreApplication>

namespace rankstep::gui {

QString lessonTitle(const lessons::Lesson &lesson)
{
    return QCoreApplication::translate("LessonTitle", lesson.title.c_str());
}

} // namespace rankstep::gui
