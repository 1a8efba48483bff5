// SPDX-License-Identifier: MIT
// The hostile inputs as data, shared by the runner's tests (tests/hostile) and the
// app's (tests/gui): what the learner's file holds, and what rankstep-cli must answer.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace rankstep::hostile {

struct HostileCase {
    std::string name;                 // a test name: "InfiniteLoop"
    std::string input;                // what docs/hostile-input.md calls it: "an infinite loop"
    std::string source;               // the file's bytes; its puzzle function is named `puzzle`
    std::vector<std::string> options; // rankstep-cli options beyond FILE --function --ranks
    int exitCode = 0;
    std::string message; // part of what the learner reads: stderr, or stdout when messageOnStdout
    bool messageOnStdout = false;
    // Sanitizer builds run without the memory cap, and AddressSanitizer reports a segfault itself.
    bool skipUnderSanitizers = false;
};

// True in AddressSanitizer and ThreadSanitizer builds (RANKSTEP_SANITIZE), whose runner differs.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// GoogleTest prints a case by its name.
inline void PrintTo(const HostileCase &c, std::ostream *out)
{
    *out << c.name;
}

const std::vector<HostileCase> &hostileCases();
const HostileCase &hostileCase(const std::string &name);

// The case's source with its puzzle function renamed (a lesson's function, for the app).
std::string sourceWithFunction(const HostileCase &c, const std::string &function);

// lessons/10-basic and lessons/30-ddp of the source tree copied into dir/lessons, with 30-ddp's
// lesson.json cut off in the middle, as a crashed editor leaves it. Returns dir/lessons.
std::string brokenLessonsFolder(const std::filesystem::path &dir);

} // namespace rankstep::hostile
