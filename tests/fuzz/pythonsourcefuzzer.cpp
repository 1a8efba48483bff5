// SPDX-License-Identifier: MIT
// libFuzzer target over the tolerant Python scanner (core/lessons/pythonsource): any bytes split
// into ordered top-level statements whose lines lie in the input, in time linear in its length
// (the std::regex it replaced overflowed the stack on lines of 30,000 characters).
#include "fuzzcheck.h"

#include "core/lessons/pythonsource.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using rankstep::fuzz::require;
    using Kind = rankstep::lessons::TopLevelStatement::Kind;
    const std::string_view source(reinterpret_cast<const char *>(data), size);
    int previousLast = 0;
    for (const auto &statement : rankstep::lessons::topLevelStatements(source)) {
        require(statement.firstLine > previousLast, "statements are in order and do not overlap");
        require(statement.firstLine <= statement.lastLine, "a statement has lines");
        require(std::size_t(statement.lastLine) <= size, "its lines lie in the input");
        require(!statement.text.empty() && statement.text.back() == '\n', "its text ends a line");
        if (statement.kind == Kind::Function || statement.kind == Kind::Class)
            require(statement.name.empty() ||
                        rankstep::lessons::mentionsName(
                            rankstep::lessons::pythonNormalized(statement.text), statement.name),
                    "a definition mentions its own name (as Python reads names)");
        for (const std::string &target : statement.targets)
            require(!target.empty() && rankstep::lessons::mentionsName(statement.text, target),
                    "an assignment mentions the names it assigns");
        previousLast = statement.lastLine;
    }
    return 0;
}
