// SPDX-License-Identifier: MIT
#include "runcommand.h"

#include "core/io/chrometrace.h"
#include "core/io/tracejson.h"
#include "core/python/runtime.h"
#include "runreport.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

namespace rankstep::cli {
namespace {

struct UsageError
{
    std::string message;
};

// `--name value` and `--name=value` options plus positional arguments.
class Arguments
{
public:
    Arguments(const std::vector<std::string> &args, const std::vector<std::string> &valued,
              const std::vector<std::string> &flags)
    {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string &arg = args[i];
            if (arg.rfind("--", 0) != 0 || arg == "--") {
                m_positional.push_back(arg);
                continue;
            }
            const auto eq = arg.find('=');
            const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
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
    bool has(const std::string &name) const { return m_values.count(name) > 0; }
    std::string text(const std::string &name, const std::string &fallback = {}) const
    {
        auto it = m_values.find(name);
        return it == m_values.end() ? fallback : it->second;
    }
    long long integer(const std::string &name, long long fallback, long long lowest,
                      long long highest) const
    {
        if (!has(name))
            return fallback;
        const std::string value = text(name);
        long long parsed = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
        if (ec != std::errc() || end != value.data() + value.size() || parsed < lowest || parsed > highest)
            throw UsageError{"--" + name + " takes a whole number from " + std::to_string(lowest)
                             + " to " + std::to_string(highest) + ", not '" + value + "'"};
        return parsed;
    }
    double seconds(const std::string &name, double fallback) const
    {
        if (!has(name))
            return fallback;
        std::istringstream in(text(name));
        double value = -1;
        in >> value;
        if (!in || !in.eof() || value < 0)
            throw UsageError{"--" + name + " takes a number of seconds (0 for no limit), not '"
                             + text(name) + "'"};
        return value;
    }
    const std::vector<std::string> &positional() const { return m_positional; }

private:
    std::map<std::string, std::string> m_values;
    std::vector<std::string> m_positional;
};

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw UsageError{"cannot read " + path};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeFile(const std::string &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        throw UsageError{"cannot write " + path};
}

// The function to run: --function, or the file's only top-level function.
std::string chooseFunction(python::Runtime &runtime, const Arguments &args,
                           const std::string &source, const std::string &file)
{
    if (args.has("function"))
        return args.text("function");
    auto functions = runtime.listFunctions(source, file);
    if (functions && functions->size() == 1)
        return functions->front().name;
    std::string names;
    if (functions)
        for (const auto &f : *functions)
            names += (names.empty() ? "" : ", ") + f.name;
    throw UsageError{"say which function to run with --function NAME"
                     + (names.empty() ? std::string() : " (" + file + " defines " + names + ")")};
}

// The last resort for code that swallows every interruption (a loop around `except
// BaseException`): once the time limit and a grace period have passed, end the process.
class HardStop
{
public:
    explicit HardStop(double seconds)
    {
        if (seconds <= 0)
            return;
        const auto limit = std::chrono::milliseconds(std::int64_t(seconds * 1000) + 3000);
        m_thread = std::thread([this, limit] {
            std::unique_lock lock(m_mutex);
            if (m_wake.wait_for(lock, limit, [this] { return m_done; }))
                return;
            std::cerr << "Error: the code could not be interrupted at its time limit (it catches "
                         "every exception, or is stuck in one long call), so rankstep-cli ended.\n";
            std::_Exit(kStopped);
        });
    }
    HardStop(const HardStop &) = delete;
    HardStop &operator=(const HardStop &) = delete;
    ~HardStop()
    {
        if (!m_thread.joinable())
            return;
        {
            std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    std::thread m_thread;
};

int runCommand(const std::vector<std::string> &rest)
{
    const Arguments args(rest,
                         {"function", "ranks", "layers", "batches", "json", "chrome-trace",
                          "max-ops", "timeout"},
                         {"quiet"});
    if (args.positional().size() != 1)
        throw UsageError{"run takes exactly one FILE"};
    const std::string file = args.positional().front();
    python::RunRequest request;
    request.source = readFile(file);
    request.fileName = file;
    request.config.ranks = int(args.integer("ranks", 1, 1, 4096));
    request.config.layers = int(args.integer("layers", 2, 1, 4096));
    request.config.batches = int(args.integer("batches", 4, 1, 1 << 16));
    request.maxOperations = args.integer("max-ops", request.maxOperations, 0, 1LL << 40);
    request.timeLimitSeconds = args.seconds("timeout", request.timeLimitSeconds);
    request.echoOutput = !args.has("quiet");

    python::Runtime runtime;
    request.function = chooseFunction(runtime, args, request.source, file);
    std::cout.flush();
    python::RunOutcome outcome;
    {
        HardStop hardStop(request.timeLimitSeconds);
        outcome = runtime.run(request);
    }
    const core::Trace &trace = outcome.trace;

    if (args.has("json"))
        writeFile(args.text("json"), io::traceToJson(trace, {file, request.function}));
    if (args.has("chrome-trace"))
        writeFile(args.text("chrome-trace"), io::traceToChromeJson(trace));

    std::cout << formatFigures(trace);
    std::cerr << formatWarnings(trace);
    if (trace.error)
        std::cerr << formatError(*trace.error);
    else
        std::cout << (trace.check.passed ? "Correct!" : "Not correct yet:\n" + trace.check.message)
                  << "\n";
    return exitCodeFor(trace);
}

} // namespace

std::string helpText()
{
    return R"(Usage: rankstep-cli run FILE [options]

Runs a puzzle function from FILE on every simulated rank and prints the figures the way the
puzzle notebook does:
  Timesteps: 16.5
  Maximum Memory: 2621440 at GPU: 0 time: 8
followed by the end time and the check ("Correct!" or what is wrong).

Options:
  --function NAME      the function to run (default: the file's only function)
  --ranks R            number of ranks (GPUs), default 1
  --layers L           number of layers, default 2
  --batches B          number of batches, default 4
  --json OUT           write the whole trace as JSON (docs/trace-format.md)
  --chrome-trace OUT   write a trace that Perfetto and chrome://tracing open: a track per
                       rank, arrows from each pass_to to its receive, memory per rank
  --max-ops N          stop after N operations (default 5000000, 0 = no limit)
  --timeout S          stop after S seconds of wall-clock time (default 30, 0 = no limit)
  --quiet              do not echo what the code prints
  --help               this text

Exit codes:
  0   the run finished and the check passed
  1   the run finished but the check failed
  2   the code raised an exception, did not parse, or broke a puzzle rule
  3   the ranks hung: a deadlock or a collective mismatch (each rank's wait is printed)
  4   the run was stopped: time limit, operation budget, or a stop request
  64  bad usage: unknown option, unreadable file, no such function
  70  an internal error of Rankstep
)";
}

int dispatch(const std::vector<std::string> &args)
{
    try {
        if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            std::cout << helpText();
            return args.empty() ? kUsage : kSolved;
        }
        if (args[0] == "--version") {
            std::cout << "rankstep-cli 0.1.0\n";
            return kSolved;
        }
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        if (std::find(rest.begin(), rest.end(), "--help") != rest.end()) {
            std::cout << helpText();
            return kSolved;
        }
        if (args[0] == "run")
            return runCommand(rest);
        throw UsageError{"unknown command '" + args[0] + "'"};
    } catch (const UsageError &e) {
        std::cerr << "rankstep-cli: " << e.message << "\nTry 'rankstep-cli --help'.\n";
        return kUsage;
    } catch (const std::exception &e) {
        std::cerr << "rankstep-cli: internal error: " << e.what() << "\n";
        return kInternal;
    }
}

} // namespace rankstep::cli
