// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::lessons {

// One top-level statement of a Python file or notebook cell, found by a tolerant scanner (no
// parser): code that does not compile still splits into statements, so one broken function cannot
// hide the others.
struct TopLevelStatement {
    enum class Kind : std::uint8_t {
        Function,   // def / async def, with its decorators
        Class,      // class, with its decorators
        Import,     // import ... / from ... import ...
        Assignment, // NAME = ..., NAME: T = ..., A, B = ...
        Other,      // calls, awaits, IPython magics, anything else
    };

    Kind kind = Kind::Other;
    std::string name;                 // Function, Class: the name defined
    std::vector<std::string> targets; // Assignment: the names assigned
    int firstLine = 1; // 1-based, inclusive; comment lines right above a def included
    int lastLine = 1;  // the last line that is not blank or a comment
    std::string text;  // the lines firstLine..lastLine, each ending in '\n'
};

// The top-level statements of `source` in order. Strings (triple-quoted too), brackets and
// backslash continuations are followed; a line starting a def or class at column 0 always starts
// a statement, so an unclosed bracket or string cannot swallow the definitions after it.
std::vector<TopLevelStatement> topLevelStatements(std::string_view source);

// True when `word` occurs in `text` as a whole identifier (not part of a longer name).
bool mentionsName(std::string_view text, std::string_view word);

} // namespace rankstep::lessons
