// SPDX-License-Identifier: MIT
#include "arguments.h"

#include "core/regularfile.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

namespace rankstep::cli {

Arguments::Arguments(const std::vector<std::string> &args, const std::vector<std::string> &valued,
                     const std::vector<std::string> &flags)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg.rfind("--", 0) != 0 || arg == "--") {
            m_positional.push_back(arg);
            continue;
        }
        const auto eq = arg.find('=');
        const std::string name =
            arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        if (std::find(flags.begin(), flags.end(), name) != flags.end() && eq == std::string::npos) {
            m_values[name] = "";
        } else if (std::find(valued.begin(), valued.end(), name) != valued.end()) {
            if (eq != std::string::npos)
                m_values[name] = arg.substr(eq + 1);
            else if (i + 1 < args.size())
                m_values[name] = args[++i];
            else
                throw UsageError{"--" + name + " needs a value"};
        } else {
            throw UsageError{"unknown option " + arg};
        }
    }
}

long long Arguments::integer(const std::string &name, long long fallback, long long lowest,
                             long long highest) const
{
    if (!has(name))
        return fallback;
    const std::string value = text(name);
    long long parsed = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (ec != std::errc() || end != value.data() + value.size() || parsed < lowest ||
        parsed > highest)
        throw UsageError{"--" + name + " takes a whole number from " + std::to_string(lowest) +
                         " to " + std::to_string(highest) + ", not '" + value + "'"};
    return parsed;
}
double Arguments::seconds(const std::string &name, double fallback) const
{
    if (!has(name))
        return fallback;
    std::istringstream in(text(name));
    double value = -1;
    in >> value;
    if (!in || !in.eof() || value < 0)
        throw UsageError{"--" + name + " takes a number of seconds (0 for no limit), not '" +
                         text(name) + "'"};
    return value;
}

std::string readFile(const std::string &path, std::size_t maxBytes)
{
    auto text = core::readRegularFile(path, maxBytes);
    if (!text)
        throw UsageError{text.error().message};
    return std::move(*text);
}

void writeFile(const std::string &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        throw UsageError{"cannot write " + path};
}

} // namespace rankstep::cli
