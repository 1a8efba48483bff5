// SPDX-License-Identifier: MIT
#pragma once

#include "core/regularfile.h"

#include <map>
#include <string>
#include <vector>

namespace rankstep::cli {

struct UsageError {
    std::string message;
};

// An output file that could not be written (a full disk, /dev/full, no permission): the sentence
// names the file and the OS's reason. rankstep-cli exits with kCannotWrite (runreport.h).
struct OutputError {
    std::string message;
};

// `--name value` and `--name=value` options plus positional arguments.
class Arguments
{
public:
    Arguments(const std::vector<std::string> &args, const std::vector<std::string> &valued,
              const std::vector<std::string> &flags);
    bool has(const std::string &name) const { return m_values.count(name) > 0; }
    std::string text(const std::string &name, const std::string &fallback = {}) const
    {
        auto it = m_values.find(name);
        return it == m_values.end() ? fallback : it->second;
    }
    long long integer(const std::string &name, long long fallback, long long lowest,
                      long long highest) const;
    double seconds(const std::string &name, double fallback) const;
    const std::vector<std::string> &positional() const { return m_positional; }

private:
    std::map<std::string, std::string> m_values;
    std::vector<std::string> m_positional;
};

// The whole file, after core::readRegularFile's checks (a regular file of at most maxBytes);
// anything else is a UsageError naming the path.
std::string readFile(const std::string &path, std::size_t maxBytes = core::kMaxCodeFileBytes);
// Writes the whole file or nothing (core::writeWholeFile: a temporary file beside it, every write
// checked, then renamed over it); an OutputError naming the file and the reason when it fails.
void writeFile(const std::string &path, const std::string &text);

} // namespace rankstep::cli
