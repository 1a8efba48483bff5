// SPDX-License-Identifier: MIT
// Reading a learner's notebook or Python file and cutting out each puzzle function with what it
// needs. Tolerant on purpose: a notebook is a scratch pad, and one broken cell must not cost the
// learner the others.
#include "puzzleimport.h"

#include "pythonsource.h"

#include "core/regularfile.h"

#include "core/io/jsonparser.h"
#include "core/io/utf8.h"

#include <algorithm>
#include <map>
#include <set>

namespace rankstep::lessons {
namespace {

using Kind = TopLevelStatement::Kind;

core::Error notANotebook(const std::string &why)
{
    return core::Error(core::ErrorKind::Usage, -1, 0, "this is not a Jupyter notebook: " + why);
}

// A cell's "source": one string, or a list of strings that join into it.
core::Result<std::string> cellSource(const io::JsonValue &cell, int number)
{
    const io::JsonValue *source = cell.find("source");
    if (source && source->type == io::JsonValue::Type::String)
        return source->text;
    if (!source || !source->isArray())
        return notANotebook("cell " + std::to_string(number) + " has no source text");
    std::string text;
    for (const io::JsonValue &part : source->items) {
        if (part.type != io::JsonValue::Type::String)
            return notANotebook("cell " + std::to_string(number) +
                                "'s source holds something other than text");
        text += part.text;
    }
    return text;
}

// Statements of every cell, tagged with their cell.
struct Located {
    int cell = 0;
    TopLevelStatement statement;
    const std::optional<SourceProblem> *problem = nullptr; // its cell's
};

bool canTravel(const TopLevelStatement &statement)
{
    // Top-level awaits and calls (run the puzzle, draw it) stay behind: they would run, or fail
    // to compile, outside the notebook. Definitions, imports and plain constants go along.
    switch (statement.kind) {
        case Kind::Function:
        case Kind::Class:
        case Kind::Import:
            return true;
        case Kind::Assignment:
            return statement.text.find('(') == std::string::npos &&
                   !mentionsName(statement.text, "await");
        case Kind::Other:
            return false;
    }
    return false;
}

bool defines(const TopLevelStatement &statement, std::string_view text)
{
    if (!statement.name.empty() && mentionsName(text, statement.name))
        return true;
    return std::any_of(statement.targets.begin(), statement.targets.end(),
                       [&](const std::string &target) { return mentionsName(text, target); });
}

// The indices of the helpers `all[puzzle]` uses, directly or through other helpers.
std::set<std::size_t> helpersOf(const std::vector<Located> &all, std::size_t puzzle,
                                const std::set<std::size_t> &candidates)
{
    std::set<std::size_t> included;
    // The text of everything included so far, its names as Python reads them (ｈelper is helper).
    std::string reach = pythonNormalized(all[puzzle].statement.text);
    for (bool grew = true; grew;) {
        grew = false;
        for (std::size_t index : candidates) {
            if (index == puzzle || included.count(index) || !defines(all[index].statement, reach))
                continue;
            included.insert(index);
            reach += pythonNormalized(all[index].statement.text);
            grew = true;
        }
    }
    return included;
}

ImportedFunction assemble(const std::vector<Located> &all, std::size_t puzzle,
                          const std::set<std::size_t> &helpers)
{
    std::string imports;
    std::set<std::string> seen;
    for (const Located &item : all)
        if (item.statement.kind == Kind::Import && seen.insert(item.statement.text).second)
            imports += item.statement.text;
    std::string code = mentionsName(imports, "lib") ? imports : "from lib import *\n" + imports;
    for (std::size_t index : helpers)
        code += "\n\n" + all[index].statement.text;
    code += "\n\n";
    ImportedFunction function;
    function.codeLine = int(std::count(code.begin(), code.end(), '\n')) + 1;
    function.code = code + all[puzzle].statement.text;
    function.function = all[puzzle].statement.name;
    function.cell = all[puzzle].cell;
    function.line = all[puzzle].statement.firstLine;
    return function;
}

} // namespace

core::Result<std::vector<SourceCell>> readNotebookCells(std::string_view json)
{
    auto document = io::parseJson(json);
    if (!document)
        return notANotebook(document.error().message);
    const io::JsonValue *cells = document->find("cells");
    if (!cells || !cells->isArray())
        return notANotebook(
            document->isObject() && document->find("worksheets")
                ? "it is in the old nbformat 3; save it again with Jupyter 4 or later"
                : "the JSON has no \"cells\" list");
    std::vector<SourceCell> result;
    for (std::size_t i = 0; i < cells->items.size(); ++i) {
        const io::JsonValue &cell = cells->items[i];
        const int number = int(i) + 1;
        const io::JsonValue *type = cell.find("cell_type");
        if (!type || type->type != io::JsonValue::Type::String)
            return notANotebook("cell " + std::to_string(number) + " has no cell_type");
        if (type->text != "code")
            continue;
        auto source = cellSource(cell, number);
        if (!source)
            return source.error();
        if (source->rfind("%%", 0) != 0)
            result.push_back({number, std::move(*source)});
    }
    return result;
}

core::Result<std::vector<SourceCell>> readPuzzleSource(std::string_view fileName,
                                                       std::string_view content)
{
    if (fileName.size() >= 6 && fileName.substr(fileName.size() - 6) == ".ipynb")
        return readNotebookCells(content);
    if (content.substr(0, 3) == "\xEF\xBB\xBF")
        content.remove_prefix(3);
    for (std::size_t at = 0; at < content.size();) {
        const std::size_t length = io::utf8SequenceLength(content, at);
        if (length == 0 || content[at] == '\0')
            return core::Error(
                core::ErrorKind::Usage, -1, 0,
                "this is not a Python file: byte " + std::to_string(at + 1) + " is not UTF-8 text");
        at += length;
    }
    return std::vector<SourceCell>{{0, std::string(content)}};
}

PuzzleImport matchPuzzleFunctions(const std::vector<SourceCell> &cells,
                                  const std::vector<Lesson> &lessons)
{
    std::vector<Located> all;
    std::vector<std::optional<SourceProblem>> problems(cells.size());
    for (std::size_t c = 0; c < cells.size(); ++c) {
        ScannedSource scanned = scanSource(cells[c].source);
        problems[c] = std::move(scanned.problem);
        for (TopLevelStatement &statement : scanned.statements)
            all.push_back({cells[c].cell, std::move(statement), &problems[c]});
    }
    // The statement that binds each name last: a def, a class or an assignment after a def
    // leaves the name bound to that, as running the file or notebook would.
    std::map<std::string, std::size_t> lastDefinition;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const TopLevelStatement &s = all[i].statement;
        if (s.kind == Kind::Function || s.kind == Kind::Class)
            lastDefinition[s.name] = i;
        for (const std::string &target : s.targets)
            lastDefinition[target] = i;
    }
    std::set<std::string> puzzleNames;
    for (const Lesson &lesson : lessons)
        if (!lesson.isTorch()) // a PyTorch lesson's train(run) is no notebook puzzle
            puzzleNames.insert(lesson.function);
    std::set<std::size_t> candidates; // helpers that may travel with a puzzle function
    for (std::size_t i = 0; i < all.size(); ++i) {
        const TopLevelStatement &s = all[i].statement;
        const bool shadowed = s.kind == Kind::Function && lastDefinition[s.name] != i;
        if (canTravel(s) && s.kind != Kind::Import && !shadowed && !puzzleNames.count(s.name))
            candidates.insert(i);
    }
    PuzzleImport result;
    std::set<std::string> found;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const TopLevelStatement &s = all[i].statement;
        if (s.kind != Kind::Function || lastDefinition[s.name] != i)
            continue;
        const auto lesson = std::find_if(lessons.begin(), lessons.end(), [&](const Lesson &l) {
            return !l.isTorch() && l.function == s.name;
        });
        if (lesson == lessons.end()) {
            result.unmatchedFunctions.push_back(s.name);
            continue;
        }
        found.insert(s.name);
        ImportedFunction function = assemble(all, i, helpersOf(all, i, candidates));
        function.lessonId = lesson->id;
        function.problem = *all[i].problem;
        result.found.push_back(std::move(function));
    }
    for (const Lesson &lesson : lessons)
        if (!lesson.isTorch() && !found.count(lesson.function))
            result.missingLessons.push_back(lesson.id);
    return result;
}

core::Result<PuzzleImport> importPuzzleSource(std::string_view fileName, std::string_view content,
                                              const std::vector<Lesson> &lessons)
{
    auto cells = readPuzzleSource(fileName, content);
    if (!cells)
        return cells.error();
    return matchPuzzleFunctions(*cells, lessons);
}

core::Result<PuzzleImport> importPuzzleFile(const std::string &path,
                                            const std::vector<Lesson> &lessons)
{
    auto content = core::readRegularFile(path, core::kMaxCodeFileBytes);
    if (!content)
        return content.error();
    return importPuzzleSource(path, *content, lessons);
}

} // namespace rankstep::lessons
