// SPDX-License-Identifier: MIT
// Internal to the Python runtime: what a learner's exception says, made in C++ from the exception
// object itself. Nothing the learner's code can patch takes part (builtins, traceback, linecache,
// sys.modules); the only learner code it runs is the exception's own __str__, whose failure is
// said in words; every text taken from the learner is cut to a bounded size, saying how much was
// cut. A learner who patches the traceback module or raises a 300 MB message gets an error of
// theirs, never "Rankstep failed inside".
#pragma once

#include "session.h"

#include <cstddef>
#include <string>

namespace rankstep::python {

// The most characters of one text taken from a learner's exception (its message, a note, a
// source line, the repr of what a rank awaited).
inline constexpr std::size_t kMostMessageCharacters = 10000;
// The most characters of a traceback, the message included.
inline constexpr std::size_t kMostTracebackCharacters = 65536;

struct LearnerException {
    int line = 0;          // the innermost line of the learner's file, 0 if none
    std::string message;   // "ValueError: the shard is empty", as traceback.format_exception_only
    std::string traceback; // the learner's frames only, then the message
};

// `source` is the learner's file named `fileName`, for the lines a traceback quotes.
LearnerException describeLearnerException(PyObject *exception, const std::string &fileName,
                                          const std::string &source);

struct LearnerSyntaxError {
    int line = 0;
    int column = 0;
    std::string message; // "SyntaxError: '[' was never closed (line 2, column 25)\n    text"
};
LearnerSyntaxError describeSyntaxError(PyObject *exception);

// UTF-8 of a str, at most `most` characters, then a note of how many more there were.
std::string boundedText(PyObject *text, std::size_t most = kMostMessageCharacters);
// str(value), bounded, or `failed` when its __str__ raises (the learner's code: it may raise
// anything, or loop until the time limit's stop).
std::string boundedStr(PyObject *value, const char *failed = "<exception str() failed>");
// repr(value), bounded; a repr that fails says so.
std::string boundedRepr(PyObject *value, std::size_t most = kMostMessageCharacters);

// The line the innermost of the learner's coroutines is suspended at, 0 if none.
int suspendedLine(PyObject *coroutine, const std::string &fileName);

} // namespace rankstep::python
