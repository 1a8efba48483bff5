// SPDX-License-Identifier: MIT
#include "pythonsource.h"

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <optional>

namespace rankstep::lessons {
namespace {

// What a line leaves open for the next one: a string, brackets, a backslash.
struct LexState {
    char triple = 0;    // the quote character of an open ''' or """ string, else 0
    char quote = 0;     // a ' or " string a backslash carries onto the next line, else 0
    int stringLine = 0; // the line the open string started on
    std::vector<std::pair<char, int>> brackets; // open ( [ { and their lines
    bool continued = false;
    std::optional<SourceProblem> problem; // the first thing Python's tokenizer refuses
};

bool isIdentifierChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (static_cast<unsigned char>(c) >= 0x80);
}

void refuse(LexState &state, int line, std::string message)
{
    if (!state.problem)
        state.problem = SourceProblem{line, std::move(message)};
}

// Reads one line as Python's tokenizer does: strings (a prefix is letters before the quote; a
// raw string too ends only at a quote no backslash escapes), comments, brackets, a backslash at
// the end. `number` is the line's, for the problems it finds.
void scanLine(std::string_view line, int number, LexState &state)
{
    state.continued = false;
    std::size_t i = 0;
    while (i < line.size()) {
        const char c = line[i];
        if (state.triple || state.quote) {
            const char open = state.triple ? state.triple : state.quote;
            if (c == '\\') {
                if (i + 1 == line.size())
                    return; // a backslash at the end: the string goes on in the next line
                i += 2;
            } else if (c == open && state.triple && line.substr(i, 3) == std::string(3, open)) {
                state.triple = 0;
                i += 3;
            } else {
                if (c == open && !state.triple)
                    state.quote = 0;
                ++i;
            }
            continue;
        }
        if (c == '#')
            break;
        if (c == '"' || c == '\'') {
            const bool isTriple = line.substr(i, 3) == std::string(3, c);
            (isTriple ? state.triple : state.quote) = c;
            state.stringLine = number;
            i += isTriple ? 3 : 1;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            state.brackets.emplace_back(c, number);
        } else if (c == ')' || c == ']' || c == '}') {
            if (state.brackets.empty())
                refuse(state, number, std::string("unmatched '") + c + "'");
            else
                state.brackets.pop_back();
        } else if (c == '\\' && i + 1 == line.size()) {
            state.continued = true;
        }
        ++i;
    }
    if (state.quote) { // a ' or " string ends in its line
        refuse(state, state.stringLine,
               "unterminated string literal (detected at line " + std::to_string(number) + ")");
        state.quote = 0;
    }
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool isInlineSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\f';
}

// After `keyword` and the blanks that must follow it (def\tname is a def too), or npos.
std::size_t afterKeyword(std::string_view line, std::size_t at, std::string_view keyword)
{
    if (line.substr(at, keyword.size()) != keyword || at + keyword.size() >= line.size() ||
        !isInlineSpace(line[at + keyword.size()]))
        return std::string_view::npos;
    at += keyword.size();
    while (at < line.size() && isInlineSpace(line[at]))
        ++at;
    return at;
}

// A top-level def, async def or class in `line`: where its name starts (else npos), and which.
std::size_t definitionName(std::string_view line, bool &isClass)
{
    constexpr auto none = std::string_view::npos;
    const std::size_t async = afterKeyword(line, 0, "async");
    const std::size_t def = afterKeyword(line, async == none ? 0 : async, "def");
    const std::size_t cls = async == none ? afterKeyword(line, 0, "class") : none;
    isClass = def == none && cls != none;
    return def != none ? def : cls;
}

bool startsDefinition(std::string_view line)
{
    bool isClass = false;
    return definitionName(line, isClass) != std::string_view::npos;
}

bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\f") == std::string_view::npos;
}

bool isCode(std::string_view line)
{
    const std::size_t first = line.find_first_not_of(" \t\f");
    return first != std::string_view::npos && line[first] != '#';
}

// Lines as CPython reads them: "\n", "\r\n" and a lone "\r" (old Mac files) each end one.
std::vector<std::string_view> splitLines(std::string_view source)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < source.size()) {
        std::size_t end = source.find_first_of("\r\n", start);
        if (end == std::string_view::npos)
            end = source.size();
        lines.push_back(source.substr(start, end - start));
        start = end + (source.substr(end, 2) == "\r\n" ? 2 : 1);
    }
    return lines;
}

// The line ranges of the top-level statements, decorators still separate. `tolerant`: a line
// starting a def or class at column 0 starts a statement even inside an open string or bracket
// (for source Python refuses to read, so that one broken function cannot hide the others).
std::vector<std::pair<int, int>> statementRanges(const std::vector<std::string_view> &lines,
                                                 bool tolerant, LexState &state)
{
    std::vector<std::pair<int, int>> ranges;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        const int number = int(i) + 1;
        bool atStart = !state.triple && !state.quote && state.brackets.empty() && !state.continued;
        if (tolerant && !atStart && startsDefinition(line)) {
            state.triple = state.quote = 0; // an unclosed bracket or string above: starts anew
            state.brackets.clear();
            state.continued = false;
            atStart = true;
        }
        if (atStart && isCode(line) && line[0] != ' ' && line[0] != '\t')
            ranges.emplace_back(number, number);
        else if (!ranges.empty() && (isCode(line) || (!atStart && !isBlank(line))))
            ranges.back().second = number;
        // An IPython shell or magic line (!pip install, %time f(it's)) is no Python to tokenize.
        const std::size_t first = line.find_first_not_of(" \t\f");
        if (!atStart || first == std::string_view::npos ||
            (line[first] != '!' && line[first] != '%'))
            scanLine(line, number, state);
    }
    return ranges;
}

// Python's words for what is still open at the end of the source, if anything.
void refuseOpenAtEnd(LexState &state, int lines)
{
    if (state.triple)
        refuse(state, state.stringLine,
               "unterminated triple-quoted string literal (detected at line " +
                   std::to_string(lines) + ")");
    else if (!state.brackets.empty())
        refuse(state, state.brackets.back().second,
               std::string("'") + state.brackets.back().first + "' was never closed");
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool isWordChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The ASCII name starting at `at`, advancing `at` past it; empty when none starts there.
std::string_view nameAt(std::string_view text, std::size_t &at)
{
    const std::size_t start = at;
    if (at < text.size() && isWordChar(text[at]) && !(text[at] >= '0' && text[at] <= '9'))
        while (at < text.size() && isWordChar(text[at]))
            ++at;
    return text.substr(start, at - start);
}

std::size_t skipSpace(std::string_view text, std::size_t at)
{
    while (at < text.size() && isSpace(text[at]))
        ++at;
    return at;
}

// The names a line assigns (`A = ...`, `A, B = ...`, `A: T = ...`), empty when it assigns none.
// One pass, no regex: libstdc++'s matcher recursed per character and overflowed the stack on
// lines of some 30,000 characters.
std::vector<std::string> assignedNames(std::string_view head)
{
    std::vector<std::string> names;
    std::size_t at = 0;
    for (std::string_view name = nameAt(head, at); !name.empty();) {
        names.emplace_back(name);
        std::size_t next = skipSpace(head, at);
        if (next >= head.size() || head[next] != ',')
            break;
        next = skipSpace(head, next + 1);
        name = nameAt(head, next);
        if (!name.empty())
            at = next;
    }
    if (names.empty())
        return {};
    at = skipSpace(head, at);
    if (at < head.size() && head[at] == ':') // an annotation runs to the first '='
        at = head.find('=', at);
    const bool assigns =
        at < head.size() && head[at] == '=' && (at + 1 == head.size() || head[at + 1] != '=');
    return assigns ? names : std::vector<std::string>{};
}

void classify(TopLevelStatement &statement, std::string_view head)
{
    using Kind = TopLevelStatement::Kind;
    bool isClass = false;
    if (const std::size_t at = definitionName(head, isClass); at != std::string_view::npos) {
        statement.kind = isClass ? Kind::Class : Kind::Function;
        std::size_t end = at;
        while (end < head.size() && isIdentifierChar(head[end]))
            ++end;
        statement.name = pythonNormalized(head.substr(at, end - at));
        return;
    }
    if (startsWith(head, "import ") || startsWith(head, "from ")) {
        statement.kind = Kind::Import;
        return;
    }
    statement.targets = assignedNames(head);
    if (!statement.targets.empty())
        statement.kind = Kind::Assignment;
}

// The statements in `ranges` of `lines`.
std::vector<TopLevelStatement> statementsOf(const std::vector<std::string_view> &lines,
                                            const std::vector<std::pair<int, int>> &ranges)
{
    std::vector<TopLevelStatement> statements;
    int previousEnd = 0;
    int decoratorStart = 0; // the first line of decorators waiting for their def or class
    for (const auto &[first, last] : ranges) {
        const std::string_view head = lines[std::size_t(first) - 1];
        if (head[0] == '@') {
            decoratorStart = decoratorStart ? decoratorStart : first;
            continue;
        }
        TopLevelStatement statement;
        classify(statement, head);
        statement.firstLine = decoratorStart ? decoratorStart : first;
        decoratorStart = 0;
        if (statement.kind == TopLevelStatement::Kind::Function ||
            statement.kind == TopLevelStatement::Kind::Class) {
            // The comment right above a definition belongs to it.
            while (statement.firstLine - 1 > previousEnd &&
                   startsWith(lines[std::size_t(statement.firstLine) - 2], "#"))
                --statement.firstLine;
        }
        statement.lastLine = last;
        for (int n = statement.firstLine; n <= last; ++n)
            statement.text.append(lines[std::size_t(n) - 1]).push_back('\n');
        previousEnd = last;
        statements.push_back(std::move(statement));
    }
    return statements;
}

} // namespace

std::string pythonNormalized(std::string_view text)
{
    if (std::all_of(text.begin(), text.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
        return std::string(text);
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2 *nfkc = icu::Normalizer2::getNFKCInstance(status);
    if (U_FAILURE(status))
        return std::string(text);
    const icu::UnicodeString normalized = nfkc->normalize(
        icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), int32_t(text.size()))), status);
    std::string out;
    return U_FAILURE(status) ? std::string(text) : normalized.toUTF8String(out);
}

ScannedSource scanSource(std::string_view source)
{
    const std::vector<std::string_view> lines = splitLines(source);
    // As Python reads it first: a def inside a string is text, not a function.
    LexState strict;
    std::vector<std::pair<int, int>> ranges = statementRanges(lines, false, strict);
    refuseOpenAtEnd(strict, int(lines.size()));
    ScannedSource scanned;
    scanned.problem = strict.problem;
    if (scanned.problem) { // Python refuses it all; still find what the learner meant to define
        LexState tolerant;
        ranges = statementRanges(lines, true, tolerant);
    }
    scanned.statements = statementsOf(lines, ranges);
    return scanned;
}

std::vector<TopLevelStatement> topLevelStatements(std::string_view source)
{
    return scanSource(source).statements;
}

std::vector<std::string> definedFunctions(std::string_view source)
{
    ScannedSource scanned = scanSource(source);
    std::vector<std::string> names;
    if (scanned.problem)
        return names;
    for (const TopLevelStatement &statement : scanned.statements)
        if (statement.kind == TopLevelStatement::Kind::Function &&
            std::find(names.begin(), names.end(), statement.name) == names.end())
            names.push_back(statement.name);
    return names;
}

bool mentionsName(std::string_view text, std::string_view word)
{
    if (word.empty())
        return false;
    for (std::size_t at = text.find(word); at != std::string_view::npos;
         at = text.find(word, at + 1)) {
        const bool before = at > 0 && isIdentifierChar(text[at - 1]);
        const std::size_t end = at + word.size();
        const bool after = end < text.size() && isIdentifierChar(text[end]);
        if (!before && !after)
            return true;
    }
    return false;
}

} // namespace rankstep::lessons
