// SPDX-License-Identifier: MIT
#include "runsupport.h"

#include "core/io/chrometrace.h"
#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "runreport.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <thread>

namespace rankstep::cli {
namespace {

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

} // namespace

void applyRunOptions(const Arguments &args, python::RunRequest &request)
{
    request.maxOperations = args.integer("max-ops", request.maxOperations, 0, 1LL << 40);
    request.timeLimitSeconds = args.seconds("timeout", request.timeLimitSeconds);
    request.echoOutput = !args.has("quiet");
}

python::RunOutcome runGuarded(python::Runtime &runtime, const python::RunRequest &request)
{
    std::cout.flush();
    HardStop hardStop(request.timeLimitSeconds);
    return runtime.run(request);
}

void writeTraceFiles(const Arguments &args, const core::Trace &trace, const std::string &file,
                     const std::string &function)
{
    if (args.has("json"))
        writeFile(args.text("json"), io::traceToJson(trace, {file, function}));
    if (args.has("chrome-trace"))
        writeFile(args.text("chrome-trace"), io::traceToChromeJson(trace));
    if (args.has("trace-out"))
        writeFile(args.text("trace-out"), io::traceToBinary(trace, {file, function}));
}

void printRun(const core::Trace &trace)
{
    std::cout << formatFigures(trace);
    std::cerr << formatWarnings(trace);
    if (trace.error)
        std::cerr << formatError(*trace.error);
}

} // namespace rankstep::cli
