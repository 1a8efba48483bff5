// SPDX-License-Identifier: MIT
#include "arguments.h"

#include "core/regularfile.h"
#include "core/wholefile.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <sstream>

namespace rankstep::cli {
namespace {

// The first word of CLI11's message after its colon: the option it is about.
std::string firstWordAfterColon(const std::string &message)
{
    const auto colon = message.find(": ");
    std::istringstream words(colon == std::string::npos ? message : message.substr(colon + 2));
    std::string word;
    words >> word;
    return word;
}

} // namespace

// Parsed by CLI11 (Debian's libcli11-dev): `--name value` and `--name=value`, flags, and every
// argument after `--` positional (a file named "--x.py"); an unknown option or a missing value is
// a UsageError (exit 64). Help is the dispatcher's (cli/runcommand.cpp): -h and --help anywhere.
Arguments::Arguments(const std::vector<std::string> &args, const std::vector<std::string> &valued,
                     const std::vector<std::string> &flags)
{
    CLI::App app;
    app.set_help_flag();
    app.allow_extras(false);
    std::map<std::string, std::string> values;
    std::map<std::string, CLI::Option *> options;
    for (const std::string &name : valued)
        options[name] = app.add_option("--" + name, values[name])
                            ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
                            ->allow_extra_args(false);
    for (const std::string &name : flags)
        options[name] = app.add_flag("--" + name)->disable_flag_override(); // no --json=no
    app.add_option("arguments", m_positional);
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 takes them reversed
    try {
        app.parse(reversed);
    } catch (const CLI::ExtrasError &error) { // "The following argument was not expected: --x"
        throw UsageError{"unknown option " + firstWordAfterColon(error.what())};
    } catch (const CLI::ArgumentMismatch &error) {
        const std::string what = error.what();
        // "json was given a disallowed flag override", or "--timeout: 1 required TEXT missing"
        if (what.find("flag override") != std::string::npos)
            throw UsageError{"--" + what.substr(0, what.find(' ')) + " takes no value"};
        throw UsageError{what.substr(0, what.find(':')) + " needs a value"};
    } catch (const CLI::ParseError &error) {
        throw UsageError{error.what()};
    }
    for (const auto &[name, option] : options)
        if (option->count() > 0)
            m_values[name] = values.count(name) ? values[name] : std::string();
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
    if (const auto failed = core::writeWholeFile(path, text))
        throw OutputError{failed->sentence()};
}

} // namespace rankstep::cli
