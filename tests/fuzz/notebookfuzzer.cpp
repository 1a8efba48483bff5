// SPDX-License-Identifier: MIT
// libFuzzer target over notebook and Python file import (core/lessons/puzzleimport) with the
// built-in lessons: any bytes give the puzzle functions found or an error, never a crash. Byte 0
// chooses the file name: even ".ipynb", odd ".py".
#include "fuzzcheck.h"

#include "core/lessons/builtin.h"
#include "core/lessons/puzzleimport.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace rankstep;
    using fuzz::require;
    if (size == 0)
        return 0;
    static const auto lessons = lessons::loadLessons(lessons::builtinLessonFiles());
    require(lessons.ok(), "the built-in lessons load");
    const std::string_view name = data[0] % 2 == 0 ? "fuzz.ipynb" : "fuzz.py";
    const std::string_view content(reinterpret_cast<const char *>(data) + 1, size - 1);
    const auto imported = lessons::importPuzzleSource(name, content, *lessons);
    if (!imported) {
        require(!imported.error().message.empty(), "a refused file has a message");
        return 0;
    }
    for (const lessons::ImportedFunction &function : imported->found) {
        require(lessons::findLesson(*lessons, function.lessonId) != nullptr,
                "a found function belongs to a lesson");
        require(!function.code.empty(), "a found function has code");
    }
    return 0;
}
