// SPDX-License-Identifier: MIT
// rankstep-lessoncheck DIR: validates a lessons folder; the build runs it over lessons/.
#include "lessonvalidation.h"

#include <iostream>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "Usage: rankstep-lessoncheck LESSONS_DIR\n";
        return 64;
    }
    const auto problems = rankstep::cli::validateLessonFolder(argv[1]);
    for (const std::string &problem : problems)
        std::cerr << argv[1] << "/" << problem << "\n";
    return problems.empty() ? 0 : 1;
}
