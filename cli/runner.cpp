// SPDX-License-Identifier: MIT
#include "runner.h"

#include "arguments.h"
#include "runnerreport.h"
#include "runreport.h"
#include "sandbox.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
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
            std::cerr.flush();
            sendReport({kStopped, {}, {}, {}});
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

// A PermissionError (or a file too large) in a sandboxed run is most likely the sandbox's doing:
// say so.
void explainRefusal(core::Trace &trace)
{
    if (!trace.error || trace.error->kind != core::ErrorKind::Exception)
        return;
    std::string &message = trace.error->message;
    const std::size_t end = std::min(message.find('\n'), message.size());
    message.insert(end, explainSandboxError(message.substr(0, end)));
}

} // namespace

void limitMemory(long long megabytes)
{
    if (kSanitized || megabytes <= 0)
        return;
    const rlim_t bytes = rlim_t(megabytes) << 20;
    const rlimit limit{bytes, bytes};
    setrlimit(RLIMIT_AS, &limit);
}

python::RunOutcome runGuarded(python::Runtime &runtime, const python::RunRequest &request,
                              const std::string &sandboxFolder)
{
    std::cout.flush();
    HardStop hardStop(request.timeLimitSeconds);
    python::RunOutcome outcome = runtime.run(request);
    if (!sandboxFolder.empty())
        explainRefusal(outcome.trace);
    return outcome;
}

std::string chooseFunction(python::Runtime &runtime, const python::RunRequest &request)
{
    auto functions = runtime.listFunctions(request.source, request.fileName);
    if (!functions)
        return {}; // the run itself reports why the file does not parse
    if (functions->size() == 1)
        return functions->front().name;
    std::string names;
    for (const auto &f : *functions)
        names += (names.empty() ? "" : ", ") + f.name;
    throw UsageError{
        "say which function to run with --function NAME" +
        (names.empty() ? std::string() : " (" + request.fileName + " defines " + names + ")")};
}

} // namespace rankstep::cli
