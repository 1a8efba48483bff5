// SPDX-License-Identifier: MIT
// The tolerant Python scanner of core/lessons/pythonsource: which names a top-level line assigns,
// checked against the regular expression it replaced on short lines, and lines of up to 200,000
// characters (valid Python) that overflowed the stack of libstdc++'s regex matcher.
#include "core/lessons/pythonsource.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <regex>
#include <string>
#include <vector>

namespace rankstep::lessons {
namespace {

using Kind = TopLevelStatement::Kind;

// What the scanner used to compute with std::regex: usable on short lines only.
std::vector<std::string> namesByRegex(const std::string &line)
{
    static const std::regex assignment(
        R"(^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::[^=]*)?=(?!=))");
    static const std::regex name(R"([A-Za-z_]\w*)");
    std::vector<std::string> names;
    std::smatch match;
    if (!std::regex_search(line, match, assignment))
        return names;
    const std::string group = match[1].str();
    for (auto it = std::sregex_iterator(group.begin(), group.end(), name);
         it != std::sregex_iterator(); ++it)
        names.push_back(it->str());
    return names;
}

TopLevelStatement onlyStatement(const std::string &source)
{
    const auto statements = topLevelStatements(source);
    EXPECT_EQ(statements.size(), 1U) << source.substr(0, 200);
    return statements.empty() ? TopLevelStatement{} : statements.front();
}

TEST(PythonSource, FindsTheSameAssignedNamesAsTheRegexItReplaced)
{
    const std::string alphabet = "ab_1 ,:=\t\v\"x(";
    std::mt19937 random(14);
    std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
    std::uniform_int_distribution<int> length(1, 14);
    int assignments = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string line = "a"; // a statement starts at column 0
        for (int n = length(random); n > 0; --n)
            line += alphabet[pick(random)];
        const std::vector<std::string> expected = namesByRegex(line);
        const TopLevelStatement statement = onlyStatement(line + "\n");
        ASSERT_EQ(statement.targets, expected) << "line: '" << line << "'";
        EXPECT_EQ(statement.kind == Kind::Assignment, !expected.empty()) << line;
        assignments += expected.empty() ? 0 : 1;
    }
    EXPECT_GT(assignments, 1000) << "the random lines must cover assignments too";
}

TEST(PythonSource, ReadsTheAssignmentFormsByName)
{
    EXPECT_EQ(onlyStatement("a, b_2 = 1, 2\n").targets, (std::vector<std::string>{"a", "b_2"}));
    EXPECT_EQ(onlyStatement("x: int = 3\n").targets, std::vector<std::string>{"x"});
    EXPECT_EQ(onlyStatement("x: int\n").kind, Kind::Other);
    EXPECT_EQ(onlyStatement("x == 3\n").kind, Kind::Other);
    EXPECT_EQ(onlyStatement("x: int == 3\n").kind, Kind::Other);
    EXPECT_EQ(onlyStatement("a, = 1\n").kind, Kind::Other);
    EXPECT_EQ(onlyStatement("f(x=1)\n").kind, Kind::Other);
}

// A def that Python reads as text (in a string of any kind, or a comment) defines nothing: a
// solution kept only inside a """ string is not the learner's function.
TEST(PythonSource, ADefInsideAStringOrCommentIsTextNotAFunction)
{
    const std::string solution = "async def ddp(model):\n    return model\n";
    for (const std::string &source :
         {"NOTES = \"\"\"\n" + solution + "\"\"\"\n", "x = 1\nr'''\n" + solution + "'''\n",
          "f\"\"\"{1}\n" + solution + "\"\"\"\n", "s = 'a\\\n" + solution.substr(0, 10) + "'\n"}) {
        const ScannedSource scanned = scanSource(source);
        EXPECT_FALSE(scanned.problem) << source;
        const std::vector<std::string> functions = definedFunctions(source);
        EXPECT_EQ(std::count(functions.begin(), functions.end(), "ddp"), 0) << source;
        EXPECT_FALSE(topLevelStatements(source).empty()) << source;
    }
    // Nor does an IPython shell or magic line of a notebook cell.
    EXPECT_EQ(definedFunctions("!echo it's\n    %time f(\"\ndef helper():\n    pass\n"),
              std::vector<std::string>{"helper"});
    // A comment opens no string: the def after it is a function.
    EXPECT_EQ(definedFunctions("# \"\"\"\ndef helper():\n    return '#'\n"),
              std::vector<std::string>{"helper"});
}

// Python reads identifiers NFKC-normalized (PEP 3131): `async def ｄｄｐ` defines ddp, and a tab
// may follow def.
TEST(PythonSource, NamesAreReadAsPythonReadsThem)
{
    EXPECT_EQ(
        definedFunctions("async def \xEF\xBD\x84\xEF\xBD\x84\xEF\xBD\x90(model):\n    pass\n"),
        std::vector<std::string>{"ddp"});
    EXPECT_EQ(definedFunctions("def\tddp(model):\n    pass\nasync  def  fsdp(m): pass\n"),
              (std::vector<std::string>{"ddp", "fsdp"}));
    EXPECT_EQ(onlyStatement("class \xEF\xBC\xA1:\n    pass\n").name, "A");
    EXPECT_EQ(pythonNormalized("\xEF\xBD\x88"
                               "elper"),
              "helper");
    EXPECT_TRUE(definedFunctions("define = 1\ndefault(x)\nclassic = 2\n").empty());
}

// What Python's tokenizer refuses compiles to nothing: no function is defined, and the problem
// is said in Python's words at Python's line; the statements are still found for an import.
TEST(PythonSource, WhatPythonRefusesDefinesNothingAndSaysWhy)
{
    const std::string solution = "async def ddp(model):\n    return model\n";
    const struct {
        std::string source;
        int line;
        std::string message;
    } cases[] = {
        {"\"\"\"\n" + solution, 1,
         "unterminated triple-quoted string literal (detected at line 3)"},
        {"def a():\n    x = (1,\n\n" + solution, 2, "'(' was never closed"},
        {"x = 'abc\n" + solution, 1, "unterminated string literal (detected at line 1)"},
        {"x = 1)\n" + solution, 1, "unmatched ')'"},
    };
    for (const auto &c : cases) {
        const ScannedSource scanned = scanSource(c.source);
        ASSERT_TRUE(scanned.problem) << c.source;
        EXPECT_EQ(scanned.problem->line, c.line) << c.source;
        EXPECT_EQ(scanned.problem->message, c.message) << c.source;
        EXPECT_TRUE(definedFunctions(c.source).empty()) << c.source;
        EXPECT_EQ(scanned.statements.back().name, "ddp") << c.source;
    }
}

// Lines of 30,000 to 200,000 characters crashed rankstep-cli grade and the app's import.
TEST(PythonSource, ScansLinesOfHundredsOfThousandsOfCharacters)
{
    for (const std::size_t size : {30000U, 40000U, 150000U, 200000U}) {
        const std::string text(size, 'a');
        EXPECT_EQ(onlyStatement("x = \"" + text + "\"\n").targets, std::vector<std::string>{"x"});
        EXPECT_EQ(onlyStatement("x: \"" + text + "\"\n").kind, Kind::Other);
        EXPECT_EQ(onlyStatement("x: \"" + text + "\" = 1\n").targets,
                  std::vector<std::string>{"x"});
        const auto named = onlyStatement(text + " = 1\n");
        ASSERT_EQ(named.targets.size(), 1U);
        EXPECT_EQ(named.targets.front().size(), size);
        std::string many = "a";
        while (many.size() < size)
            many += ", a";
        EXPECT_EQ(onlyStatement(many + " = t\n").targets.size(), (many.size() + 2) / 3);
        EXPECT_EQ(onlyStatement(many + "\n").kind, Kind::Other);
    }
}

} // namespace
} // namespace rankstep::lessons
