// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rankstep::testsupport {

// The whole file as bytes ("" when it cannot be read).
std::string readFileText(const std::filesystem::path &path);

// A directory of its own under the system's temporary directory, removed with the object.
class TempDir
{
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    const std::filesystem::path &path() const { return m_path; }
    // Writes `text` to `name` (directories created as needed); returns the full path.
    std::string write(const std::string &name, const std::string &text) const;
    std::string read(const std::string &name) const;

private:
    std::filesystem::path m_path;
};

struct ProcessResult {
    int exitCode = -1; // -1: the process did not exit normally
    std::string out;
    std::string err;
};

// Runs `program` with `args` and waits; stdout and stderr go through files in `dir`.
ProcessResult runProgram(const std::string &program, const std::vector<std::string> &args,
                         const TempDir &dir);

} // namespace rankstep::testsupport
