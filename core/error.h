// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace rankstep::core {

enum class ErrorKind {
    Check,     // a puzzle rule was broken (wrong layer, missing batches, ...)
    Exception, // the learner's code raised
    Syntax,    // the learner's code does not parse
    Deadlock,  // no rank can make progress
    Mismatch,  // ranks called different collectives at the same position
    Stopped,   // stopped on request or by a budget
    Usage,     // the run itself was set up wrongly
    Internal,  // a bug of ours
};

// Stable lower-case name used in traces and JSON: "check", "exception", ...
const char *errorKindName(ErrorKind kind);

// An error as a value: where (rank, learner's source line; -1 / 0 when not known) and what.
struct Error {
    Error() = default;
    Error(ErrorKind kind_, int rank_, int line_, std::string message_)
        : kind(kind_), rank(rank_), line(line_), message(std::move(message_))
    {}

    ErrorKind kind = ErrorKind::Internal;
    int rank = -1;
    int line = 0;
    std::string message;
    int column = 0;        // syntax errors: 1-based column, else 0
    std::string traceback; // Python exceptions: the learner's frames, innermost last
};

// Either a value or an Error. A minimal stand-in for std::expected (C++23).
template <typename T>
class Result
{
public:
    Result(T value) : m_state(std::move(value)) {}     // NOLINT(google-explicit-constructor)
    Result(Error error) : m_state(std::move(error)) {} // NOLINT(google-explicit-constructor)

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }
    T &value() { return std::get<T>(m_state); }
    const T &value() const { return std::get<T>(m_state); }
    T &operator*() { return value(); }
    const T &operator*() const { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    const Error &error() const { return std::get<Error>(m_state); }

private:
    std::variant<T, Error> m_state;
};

struct Done {};
using Status = Result<Done>;
inline Status okStatus()
{
    return Done{};
}

} // namespace rankstep::core
