// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::lessons {

// One top-level statement of a Python file or notebook cell, found by a scanner that reads strings,
// comments and brackets as Python's tokenizer does (no parser): code that does not compile still
// splits into statements, so one broken function cannot hide the others.
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

// What Python's tokenizer refuses in a source (an unclosed string or bracket, an unmatched one),
// in its words: then the source compiles to nothing, so it defines no function.
struct SourceProblem {
    int line = 1;        // 1-based: where the string or bracket opened
    std::string message; // "'(' was never closed", "unterminated triple-quoted string literal
                         // (detected at line 9)"
};

struct ScannedSource {
    std::vector<TopLevelStatement> statements;
    std::optional<SourceProblem> problem;
};

// The top-level statements of `source` in order, found as Python reads them: strings of every
// kind (a def inside a """ string is text), comments, brackets, backslash continuations, names
// NFKC-normalized (pythonNormalized). When Python refuses the source (`problem`), a line starting
// a def or class at column 0 starts a statement even inside the open string or bracket, so that
// an import still finds what the learner meant to define; none of it compiles.
ScannedSource scanSource(std::string_view source);
// scanSource(source).statements.
std::vector<TopLevelStatement> topLevelStatements(std::string_view source);

// The names of the functions running `source` would define at its top level, in order, each once
// and NFKC-normalized: none when Python refuses the source. With scanSource, the one way Rankstep
// finds a learner's functions (grade and the app's import cut them out, run picks the only one),
// with no Python run on the learner's code. `lesson` runs the whole file, where Python defines
// these too (and what the code makes only as it runs: a def inside an if, an assignment).
std::vector<std::string> definedFunctions(std::string_view source);

// `text` with its non-ASCII characters NFKC-normalized, as Python reads identifiers (PEP 3131):
// `async def ｄｄｐ` defines ddp.
std::string pythonNormalized(std::string_view text);

// True when `word` occurs in `text` as a whole identifier (not part of a longer name).
bool mentionsName(std::string_view text, std::string_view word);

} // namespace rankstep::lessons
