// SPDX-License-Identifier: MIT
#include "pythonsource.h"

namespace rankstep::lessons {
namespace {

// What a line leaves open for the next one: a triple-quoted string, brackets, a backslash.
struct LexState {
    char triple = 0; // the quote character of an open ''' or """ string, else 0
    int depth = 0;   // open ( [ {
    bool continued = false;
};

bool isIdentifierChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (static_cast<unsigned char>(c) >= 0x80);
}

void scanLine(std::string_view line, LexState &state)
{
    state.continued = false;
    char quote = 0; // an open single-line string
    std::size_t i = 0;
    while (i < line.size()) {
        const char c = line[i];
        if (state.triple || quote) {
            const char open = state.triple ? state.triple : quote;
            if (c == '\\') {
                i += 2;
            } else if (c == open && state.triple && line.substr(i, 3) == std::string(3, open)) {
                state.triple = 0;
                i += 3;
            } else {
                quote = (c == open && !state.triple) ? 0 : quote;
                ++i;
            }
            continue;
        }
        if (c == '#')
            break;
        if (c == '"' || c == '\'') {
            const bool isTriple = line.substr(i, 3) == std::string(3, c);
            (isTriple ? state.triple : quote) = c;
            i += isTriple ? 3 : 1;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            ++state.depth;
        else if ((c == ')' || c == ']' || c == '}') && state.depth > 0)
            --state.depth;
        else if (c == '\\' && i + 1 == line.size())
            state.continued = true;
        ++i;
    }
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool startsDefinition(std::string_view line)
{
    return startsWith(line, "def ") || startsWith(line, "async def ") || startsWith(line, "class ");
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

// The line ranges of the top-level statements, decorators still separate.
std::vector<std::pair<int, int>> statementRanges(const std::vector<std::string_view> &lines)
{
    std::vector<std::pair<int, int>> ranges;
    LexState state;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        bool atStart = !state.triple && state.depth == 0 && !state.continued;
        if (!atStart && startsDefinition(line)) {
            state = {}; // an unclosed bracket or string above: the def still starts anew
            atStart = true;
        }
        const int number = int(i) + 1;
        if (atStart && isCode(line) && line[0] != ' ' && line[0] != '\t')
            ranges.emplace_back(number, number);
        else if (!ranges.empty() && (isCode(line) || (!atStart && !isBlank(line))))
            ranges.back().second = number;
        scanLine(line, state);
    }
    return ranges;
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
    const bool isAsync = startsWith(head, "async def ");
    if (isAsync || startsWith(head, "def ") || startsWith(head, "class ")) {
        statement.kind = startsWith(head, "class ") ? Kind::Class : Kind::Function;
        std::string_view rest = head.substr(head.find(' ') + 1);
        if (isAsync)
            rest = rest.substr(4);
        std::size_t end = 0;
        while (end < rest.size() && isIdentifierChar(rest[end]))
            ++end;
        statement.name = std::string(rest.substr(0, end));
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

} // namespace

std::vector<TopLevelStatement> topLevelStatements(std::string_view source)
{
    const std::vector<std::string_view> lines = splitLines(source);
    std::vector<TopLevelStatement> statements;
    int previousEnd = 0;
    int decoratorStart = 0; // the first line of decorators waiting for their def or class
    for (const auto &[first, last] : statementRanges(lines)) {
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
