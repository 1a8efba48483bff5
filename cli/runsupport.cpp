// SPDX-License-Identifier: MIT
#include "runsupport.h"

#include "core/io/costfile.h"

#include "core/io/chrometrace.h"
#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "runchannel.h"
#include "runreport.h"
#include "sandbox.h"
#include "supervisor.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RANKSTEP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define RANKSTEP_SANITIZED 1
#endif
#endif

namespace rankstep::cli {
namespace {

#ifdef RANKSTEP_SANITIZED
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

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
            markFinished(kStopped);
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

// Caps the address space of this process (the child that runs the learner's code), so that code
// allocating gigabytes gets a MemoryError instead of taking the machine down. Sanitizer builds
// reserve terabytes of shadow memory up front and cannot run under such a cap.
void limitMemory(long long megabytes)
{
    if (kSanitized || megabytes <= 0)
        return;
    const rlim_t bytes = rlim_t(megabytes) << 20;
    const rlimit limit{bytes, bytes};
    setrlimit(RLIMIT_AS, &limit);
}

// A PermissionError (or a file too large) in a sandboxed run is most likely the sandbox's doing:
// say so.
void explainRefusal(core::Trace &trace)
{
    if (runFolder().empty() || !trace.error || trace.error->kind != core::ErrorKind::Exception)
        return;
    std::string &message = trace.error->message;
    const std::size_t end = std::min(message.find('\n'), message.size());
    message.insert(end, explainSandboxError(message.substr(0, end)));
}

// --bandwidth GBPS: every link of a real-scale cost model, inside and between nodes, at GBPS
// gigabytes a second each way (what a sweep's bandwidth axis changes).
void setBandwidth(core::CostModel &cost, const std::string &text)
{
    if (!cost.network)
        throw UsageError{"--bandwidth needs a real-scale cost model (--cost " +
                         std::string("gpt2-small-8xa100, for example): under the notebook's ") +
                         "costs a collective takes a fixed time, whatever its bytes"};
    char *end = nullptr;
    const double gigabytes = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(gigabytes) ||
        gigabytes <= 0 || gigabytes > 1e6)
        throw UsageError{
            "--bandwidth takes gigabytes a second, a number above 0 and at most "
            "1000000, not '" +
            text + "'"};
    cost.network->intraNodeBandwidth = gigabytes * 1e9;
    cost.network->interNodeBandwidth = gigabytes * 1e9;
}

} // namespace

void applyRunOptions(const Arguments &args, python::RunRequest &request)
{
    request.maxOperations = args.integer("max-ops", request.maxOperations, 0, 1LL << 40);
    request.timeLimitSeconds = args.seconds("timeout", request.timeLimitSeconds);
    request.echoOutput = !args.has("quiet");
    const long long memory = args.integer("memory-limit", kDefaultMemoryLimitMiB, 0, 1LL << 30);
    if (memory > 0 && memory < kMinMemoryLimitMiB)
        throw UsageError{"--memory-limit " + std::to_string(memory) +
                         " is too little for Python itself to start (it needs about 40 MiB): "
                         "give at least " +
                         std::to_string(kMinMemoryLimitMiB) + ", or 0 for no limit"};
    limitMemory(memory);
    // A cost model other than the notebook's (docs/cost-models.md), sized for this run's layers.
    if (args.has("cost")) {
        auto recipe = io::loadCostRecipe(args.text("cost"));
        if (!recipe)
            throw UsageError{recipe.error().message};
        request.config.cost = io::resolveCost(*recipe, request.config.layers);
    }
    if (args.has("bandwidth"))
        setBandwidth(request.config.cost, args.text("bandwidth"));
}

void refuseOutputsOverInputs(const Arguments &args, const std::vector<std::string> &inputs)
{
    namespace fs = std::filesystem;
    for (const char *option : kOutputOptions) {
        if (!args.has(option))
            continue;
        const fs::path output = args.text(option);
        for (const std::string &input : inputs) {
            std::error_code error;
            const bool same = fs::exists(output, error) ? fs::equivalent(output, input, error)
                                                        : fs::weakly_canonical(output, error) ==
                                                              fs::weakly_canonical(input, error);
            if (same)
                throw UsageError{std::string("--") + option + " would overwrite the input file " +
                                 input + ": give another path for it"};
        }
    }
}

python::RunOutcome runGuarded(python::Runtime &runtime, const python::RunRequest &request)
{
    std::cout.flush();
    HardStop hardStop(request.timeLimitSeconds);
    python::RunOutcome outcome = runtime.run(request);
    explainRefusal(outcome.trace);
    return outcome;
}

void writeTraceFiles(const Arguments &args, const core::Trace &trace, const std::string &file,
                     const std::string &function)
{
    for (const char *option : {"json", "trace-json"})
        if (args.has(option))
            deliverFile(args.text(option), io::traceToJson(trace, {file, function}));
    if (args.has("chrome-trace"))
        deliverFile(args.text("chrome-trace"), io::traceToChromeJson(trace));
    if (args.has("trace-out"))
        deliverFile(args.text("trace-out"), io::traceToBinary(trace, {file, function}));
}

void writeFigures(const Arguments &args, const core::Trace &trace, const FigureCaption &caption)
{
    FigureJob job;
    for (const char *option : {"svg", "png", "state-png", "at"})
        if (args.has(option))
            job.options.emplace_back(option, args.text(option));
    if (job.options.empty() || (job.options.size() == 1 && args.has("at"))) {
        writeFigureFiles(args, trace, caption); // nothing to draw: checks --at alone as before
        return;
    }
    job.title = caption.title;
    job.memoryTarget = caption.memoryTarget;
    job.trace = io::traceToBinary(trace);
    if (!deliverFigures(std::move(job)))
        writeFigureFiles(args, trace, caption);
}

void printRun(const core::Trace &trace)
{
    std::cout << formatFigures(trace);
    std::cerr << formatWarnings(trace);
    if (trace.error)
        std::cerr << formatError(*trace.error);
}

std::string chooseFunction(python::Runtime &runtime, const Arguments &args,
                           const std::string &source, const std::string &file)
{
    if (args.has("function"))
        return args.text("function");
    auto functions = runtime.listFunctions(source, file);
    if (!functions)
        return {}; // the run itself reports why the file does not parse
    if (functions->size() == 1)
        return functions->front().name;
    std::string names;
    for (const auto &f : *functions)
        names += (names.empty() ? "" : ", ") + f.name;
    throw UsageError{"say which function to run with --function NAME" +
                     (names.empty() ? std::string() : " (" + file + " defines " + names + ")")};
}

python::RunRequest runRequest(const Arguments &args, const std::string &file)
{
    python::RunRequest request;
    request.source = readFile(file);
    request.fileName = file;
    request.config.ranks = int(args.integer("ranks", 1, 1, 4096));
    request.config.layers = int(args.integer("layers", 2, 1, 4096));
    request.config.batches = int(args.integer("batches", 4, 1, 1 << 16));
    applyRunOptions(args, request);
    return request;
}

} // namespace rankstep::cli
