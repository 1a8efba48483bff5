// SPDX-License-Identifier: MIT
#include "pictures.h"

#include "lesson.h"

#include <algorithm>

namespace rankstep::lessons {
namespace {

bool isNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

void addMissing(const Lesson &lesson, const std::string &text, const std::string &file,
                std::vector<std::string> &problems)
{
    for (const PictureReference &picture : pictureReferences(text))
        if (!lesson.pictures.contains(picture.name))
            problems.push_back(lesson.folder + "/" + file + ": shows " + picture.name +
                               ", which is not in the folder");
}

} // namespace

bool isPictureFileName(const std::string &name)
{
    const std::string suffix = ".svg";
    if (name.size() <= suffix.size() || name.compare(name.size() - 4, 4, suffix) != 0)
        return false;
    std::string stem = name.substr(0, name.size() - suffix.size());
    const auto dot = stem.find('.');
    if (dot != std::string::npos) { // a language: two lower-case letters
        const std::string language = stem.substr(dot + 1);
        if (language.size() != 2 || !std::all_of(language.begin(), language.end(),
                                                 [](char c) { return c >= 'a' && c <= 'z'; }))
            return false;
        stem.resize(dot);
    }
    return !stem.empty() && std::all_of(stem.begin(), stem.end(), isNameChar);
}

std::vector<PictureReference> pictureReferences(const std::string &markdown)
{
    std::vector<PictureReference> found;
    for (std::size_t at = markdown.find("!["); at != std::string::npos;
         at = markdown.find("![", at + 2)) {
        const std::size_t altEnd = markdown.find(']', at + 2);
        if (altEnd == std::string::npos || altEnd + 1 >= markdown.size() ||
            markdown[altEnd + 1] != '(')
            continue;
        const std::size_t close = markdown.find(')', altEnd + 2);
        if (close == std::string::npos)
            continue;
        std::string target = markdown.substr(altEnd + 2, close - altEnd - 2);
        target.resize(std::min(target.size(), target.find_first_of(" \t\n")));
        if (target.empty())
            continue;
        found.push_back({markdown.substr(at + 2, altEnd - at - 2), target, at, close + 1 - at});
    }
    return found;
}

std::vector<std::string> missingPictures(const Lesson &lesson)
{
    std::vector<std::string> problems;
    addMissing(lesson, lesson.text, "text.md", problems);
    for (const auto &[language, words] : lesson.translations)
        addMissing(lesson, words.text, "text." + language + ".md", problems);
    return problems;
}

} // namespace rankstep::lessons
