// SPDX-License-Identifier: MIT
#include "lessontitle.h"

#include <QCoreApplication>

namespace rankstep::gui {

QString lessonTitle(const lessons::Lesson &lesson)
{
    return QCoreApplication::translate("LessonTitle", lesson.title.c_str());
}

QString interfaceLanguage()
{
    // Translated as the translation's own language code ("de"); English has no translation.
    return QCoreApplication::translate("Language", "en",
                                       "the language code of this translation: de, fr, ...");
}

QString lessonText(const lessons::Lesson &lesson)
{
    return QString::fromStdString(lessons::lessonText(lesson, interfaceLanguage().toStdString()));
}

const std::vector<std::string> &lessonHints(const lessons::Lesson &lesson)
{
    return lessons::lessonHints(lesson, interfaceLanguage().toStdString());
}

} // namespace rankstep::gui
