// SPDX-License-Identifier: MIT
#pragma once

#include "arguments.h"

#include <filesystem>
#include <string>

#include <stdlib.h> // mkdtemp

namespace rankstep::cli {

// A temporary folder for the code and trace files of a command's child runs, removed with it.
struct ScratchFolder {
    explicit ScratchFolder(const std::string &prefix)
    {
        namespace fs = std::filesystem;
        std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
        if (!mkdtemp(pattern.data()))
            throw UsageError{"cannot make a temporary folder in " +
                             fs::temp_directory_path().string()};
        path = pattern;
    }
    ScratchFolder(const ScratchFolder &) = delete;
    ScratchFolder &operator=(const ScratchFolder &) = delete;
    ~ScratchFolder()
    {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    std::filesystem::path path;
};

} // namespace rankstep::cli
