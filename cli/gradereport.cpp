// SPDX-License-Identifier: MIT
#include "gradereport.h"

#include "csv.h"

#include "core/io/jsonwriter.h"
#include "core/terminaltext.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

namespace rankstep::cli {
namespace {

constexpr std::size_t kColumns = 6;
using Cells = std::array<std::string, kColumns>;

std::string against(const std::optional<std::string> &value,
                    const std::optional<std::string> &target)
{
    if (!value)
        return "-";
    std::string text = *value;
    if (target)
        text.append(" / ").append(*target);
    return text;
}

std::optional<std::string> text(const std::optional<std::int64_t> &value)
{
    return value ? std::optional<std::string>(std::to_string(*value)) : std::nullopt;
}

std::optional<std::string> text(const std::optional<core::SimTime> &value)
{
    return value ? std::optional<std::string>(value->toString()) : std::nullopt;
}

// Every cell a learner's files or code decided (the file's name, the error) as one line of text
// without a control, so no row can erase, hide or forge another (core::terminalLine).
Cells cellsOf(const GradeRow &row)
{
    return {core::terminalLine(row.file),
            row.lesson.empty() ? "-" : core::terminalLine(row.lesson),
            row.status,
            against(text(row.time), text(row.timeTarget)),
            against(text(row.memory), text(row.memoryTarget)),
            core::terminalLine(row.error)};
}

// Display width: UTF-8 continuation bytes take no column.
std::size_t width(const std::string &text)
{
    return std::size_t(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::string line(const Cells &cells, const std::array<std::size_t, kColumns> &widths)
{
    std::string out;
    for (std::size_t i = 0; i < kColumns; ++i) {
        out += cells[i];
        if (i + 1 < kColumns && !cells[i + 1].empty())
            out += std::string(widths[i] - width(cells[i]) + 2, ' ');
        else if (i + 1 < kColumns)
            break;
    }
    return out + "\n";
}

void optionalInteger(io::JsonObject &object, std::string_view key,
                     const std::optional<std::int64_t> &value)
{
    value ? object.integer(key, *value) : object.null(key);
}

void optionalTime(io::JsonObject &object, std::string_view key,
                  const std::optional<core::SimTime> &value)
{
    value ? object.time(key, *value) : object.null(key);
}

} // namespace

std::string formatGradeTable(const std::vector<GradeRow> &rows)
{
    const Cells header = {"FILE", "LESSON", "RESULT", "TIME / TARGET", "MEMORY / TARGET", "ERROR"};
    std::vector<Cells> all{header};
    for (const GradeRow &row : rows)
        all.push_back(cellsOf(row));
    std::array<std::size_t, kColumns> widths{};
    for (const Cells &cells : all)
        for (std::size_t i = 0; i < kColumns; ++i)
            widths[i] = std::max(widths[i], width(cells[i]));
    std::string out;
    for (const Cells &cells : all)
        out += line(cells, widths);
    const auto graded = std::count_if(rows.begin(), rows.end(),
                                      [](const GradeRow &r) { return !r.lesson.empty(); });
    const auto solved =
        std::count_if(rows.begin(), rows.end(), [](const GradeRow &r) { return r.solved; });
    out.append("\n").append(std::to_string(solved)).append(" of ").append(std::to_string(graded));
    out.append(" puzzle functions solved.\n");
    return out;
}

std::string formatGradeJson(const std::vector<GradeRow> &rows)
{
    std::string out = "{\"results\": [";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const GradeRow &row = rows[i];
        out += i == 0 ? "\n  " : ",\n  ";
        io::JsonObject object(out);
        object.string("learner", row.learner)
            .string("file", row.file)
            .string("lesson", row.lesson)
            .string("function", row.function);
        object.string("status", row.status).boolean("solved", row.solved);
        optionalTime(object, "time", row.time);
        optionalTime(object, "time_target", row.timeTarget);
        optionalInteger(object, "memory", row.memory);
        optionalInteger(object, "memory_target", row.memoryTarget);
        object.string("error", row.error).integer("milliseconds", std::int64_t(row.seconds * 1000));
        object.close();
    }
    const auto solved =
        std::count_if(rows.begin(), rows.end(), [](const GradeRow &r) { return r.solved; });
    out += "\n], \"solved\": " + std::to_string(solved) + "}\n";
    return out;
}

std::string formatGradeCsv(const std::vector<GradeRow> &rows)
{
    std::string out =
        "learner,file,lesson,function,status,solved,time,time_target,memory,"
        "memory_target,mistake,error,milliseconds\n";
    const auto time = [](const std::optional<core::SimTime> &t) {
        return t ? t->toString() : std::string();
    };
    const auto bytes = [](const std::optional<std::int64_t> &b) {
        return b ? std::to_string(*b) : std::string();
    };
    for (const GradeRow &row : rows)
        out += csvField(row.learner) + "," + csvField(row.file) + "," + csvField(row.lesson) + "," +
               csvField(row.function) + "," + row.status + "," + (row.solved ? "true" : "false") +
               "," + time(row.time) + "," + time(row.timeTarget) + "," + bytes(row.memory) + "," +
               bytes(row.memoryTarget) + "," + csvField(mistakeKind(row)) + "," +
               csvField(row.error) + "," + std::to_string(std::int64_t(row.seconds * 1000)) + "\n";
    return out;
}

namespace {

bool has(const std::string &text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

// "NameError" from "rank 0, line 7: NameError: name 'x' is not defined", else "".
std::string exceptionName(const std::string &error)
{
    const std::size_t colon = error.find("Error: ");
    if (colon == std::string::npos)
        return {};
    std::size_t start = colon;
    while (start > 0 && std::isalnum(static_cast<unsigned char>(error[start - 1])))
        --start;
    return error.substr(start, colon + 5 - start);
}

} // namespace

std::string mistakeKind(const GradeRow &row)
{
    const std::string &e = row.error;
    if (row.solved)
        return {};
    if (row.status == "stopped")
        return "endless loop (time limit)";
    if (row.status == "hung")
        return has(e, "without calling") ? "a rank skipped a collective"
                                         : "hang (ranks wait on each other)";
    if (row.status == "crashed")
        return "crashed the process";
    if (row.status == "not solved") {
        if (has(e, "Maximum Memory") && has(e, "Timesteps"))
            return "time and memory above the targets";
        if (has(e, "Maximum Memory"))
            return "memory above the target";
        if (has(e, "Timesteps"))
            return "time above the target";
        if (has(e, "never updated"))
            return "layers never updated";
        return "wrong final weights";
    }
    if (row.status == "error") {
        if (has(e, "SyntaxError") || has(e, "IndentationError"))
            return "syntax error";
        if (has(e, "update(layer") && has(e, "but an update needs"))
            return "update before allreduce";
        if (has(e, "does not exist"))
            return "a batch, layer or shard that does not exist";
        if (has(e, "is not in ") || has(e, "KeyError"))
            return "uses an object it deleted or never stored";
        if (const std::string name = exceptionName(e); !name.empty())
            return name;
        return "puzzle rule broken";
    }
    return row.status; // no puzzle, unreadable
}

namespace {

// The reason in "cannot read 'PATH': permission denied", or the whole sentence.
std::string readReason(const std::string &error)
{
    const std::size_t quote = error.rfind("': ");
    return quote == std::string::npos ? error : error.substr(quote + 3);
}

// A learner whose file or folder could not be read may have had any lesson there: the cells
// nothing graded say why, not "missing". They name no file: there is nothing a viewer (the app's
// roster) may open, least of all through a link that leaves the class folder.
void markUnreadable(Roster &roster, const std::vector<GradeRow> &rows,
                    const std::map<std::string, std::size_t> &index)
{
    for (const GradeRow &row : rows) {
        if (row.status != "unreadable")
            continue;
        Roster::Learner &learner = roster.learners[index.at(row.learner)];
        for (std::size_t i = 0; i < learner.cells.size(); ++i)
            if (learner.cells[i] == "missing") {
                learner.cells[i] = "unreadable: " + readReason(row.error);
                learner.errors[i] = row.error;
            }
    }
}

} // namespace

Roster makeRoster(const std::vector<GradeRow> &rows, const std::vector<std::string> &lessonOrder)
{
    Roster roster;
    std::set<std::string> graded;
    for (const GradeRow &row : rows)
        if (!row.lesson.empty())
            graded.insert(row.lesson);
    for (const std::string &lesson : lessonOrder)
        if (graded.count(lesson))
            roster.lessons.push_back(lesson);
    std::map<std::string, std::size_t> index;
    std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> mistakes;
    for (const GradeRow &row : rows) {
        auto [it, fresh] = index.try_emplace(row.learner, roster.learners.size());
        if (fresh)
            roster.learners.push_back({row.learner,
                                       std::vector<std::string>(roster.lessons.size(), "missing"),
                                       std::vector<std::string>(roster.lessons.size()),
                                       std::vector<std::string>(roster.lessons.size())});
        if (row.lesson.empty())
            continue;
        const std::size_t column =
            std::size_t(std::find(roster.lessons.begin(), roster.lessons.end(), row.lesson) -
                        roster.lessons.begin());
        std::string &cell = roster.learners[it->second].cells[column];
        // A learner with the lesson twice (two files): solved wins, then the first mistake.
        if (cell == "solved" || (cell != "missing" && !row.solved))
            continue;
        const std::string kind = mistakeKind(row);
        cell = row.solved ? "solved" : "not solved: " + kind;
        roster.learners[it->second].files[column] = row.file;
        roster.learners[it->second].errors[column] = row.error;
        if (!row.solved) {
            mistakes[kind].first.insert(row.learner);
            mistakes[kind].second.insert(row.lesson);
        }
    }
    markUnreadable(roster, rows, index);
    for (const auto &[kind, who] : mistakes) {
        Roster::Mistake mistake{kind, int(who.first.size()), {}};
        for (const std::string &lesson : roster.lessons)
            if (who.second.count(lesson))
                mistake.lessons.push_back(lesson);
        roster.mistakes.push_back(std::move(mistake));
    }
    std::stable_sort(
        roster.mistakes.begin(), roster.mistakes.end(),
        [](const Roster::Mistake &a, const Roster::Mistake &b) { return a.learners > b.learners; });
    return roster;
}

std::string formatRosterTable(const Roster &roster)
{
    std::vector<std::vector<std::string>> lines;
    lines.push_back({"LEARNER"});
    for (const std::string &lesson : roster.lessons)
        lines.back().push_back(core::terminalLine(lesson));
    for (const Roster::Learner &learner : roster.learners) {
        lines.push_back({core::terminalLine(learner.name)});
        for (const std::string &cell : learner.cells)
            lines.back().push_back(core::terminalLine(cell));
    }
    std::vector<std::size_t> widths(roster.lessons.size() + 1, 0);
    for (const auto &cells : lines)
        for (std::size_t i = 0; i < cells.size(); ++i)
            widths[i] = std::max(widths[i], width(cells[i]));
    std::string out;
    for (const auto &cells : lines) {
        std::string line;
        for (std::size_t i = 0; i < cells.size(); ++i)
            line +=
                cells[i] + (i + 1 < cells.size() ? std::string(widths[i] - width(cells[i]) + 2, ' ')
                                                 : std::string());
        out += line + "\n";
    }
    if (!roster.mistakes.empty())
        out += "\nCommon mistakes:\n";
    for (const Roster::Mistake &mistake : roster.mistakes) {
        std::string where;
        for (const std::string &lesson : mistake.lessons)
            where += (where.empty() ? "" : ", ") + lesson;
        out += "  " + std::to_string(mistake.learners) +
               (mistake.learners == 1 ? " learner: " : " learners: ") +
               core::terminalLine(mistake.kind + " (" + where + ")") + "\n";
    }
    return out;
}

std::string formatRosterCsv(const Roster &roster)
{
    std::string out = "learner";
    // append(), not "," + field: g++ 12 warns falsely (-Wrestrict) on that operator+.
    for (const std::string &lesson : roster.lessons)
        out.append(",").append(csvField(lesson));
    out += "\n";
    for (const Roster::Learner &learner : roster.learners) {
        out += csvField(learner.name);
        for (const std::string &cell : learner.cells)
            out.append(",").append(csvField(cell));
        out += "\n";
    }
    return out;
}

std::string formatRosterJson(const Roster &roster)
{
    std::string out = "{\"lessons\": [";
    for (std::size_t i = 0; i < roster.lessons.size(); ++i) {
        out += i == 0 ? "" : ", ";
        io::appendJsonString(out, roster.lessons[i]);
    }
    out += "],\n \"learners\": [";
    for (std::size_t l = 0; l < roster.learners.size(); ++l) {
        const Roster::Learner &learner = roster.learners[l];
        out += l == 0 ? "\n  " : ",\n  ";
        io::JsonObject object(out);
        object.string("learner", learner.name);
        io::JsonObject cells(object.open("lessons"));
        for (std::size_t i = 0; i < learner.cells.size(); ++i)
            cells.string(roster.lessons[i], learner.cells[i]);
        cells.close();
        // Where each graded cell came from and its error, for a viewer that opens it (the app's
        // class roster); missing cells have neither.
        io::JsonObject files(object.open("files"));
        for (std::size_t i = 0; i < learner.files.size(); ++i)
            if (!learner.files[i].empty())
                files.string(roster.lessons[i], learner.files[i]);
        files.close();
        io::JsonObject errors(object.open("errors"));
        for (std::size_t i = 0; i < learner.errors.size(); ++i)
            if (!learner.errors[i].empty())
                errors.string(roster.lessons[i], learner.errors[i]);
        errors.close();
        object.close();
    }
    out += "\n ],\n \"common_mistakes\": [";
    for (std::size_t m = 0; m < roster.mistakes.size(); ++m) {
        const Roster::Mistake &mistake = roster.mistakes[m];
        out += m == 0 ? "\n  " : ",\n  ";
        io::JsonObject object(out);
        object.string("kind", mistake.kind).integer("learners", mistake.learners);
        std::string &lessons = object.open("lessons");
        lessons += "[";
        for (std::size_t i = 0; i < mistake.lessons.size(); ++i) {
            lessons += i == 0 ? "" : ", ";
            io::appendJsonString(lessons, mistake.lessons[i]);
        }
        lessons += "]";
        object.close();
    }
    return out + "\n ]}\n";
}

} // namespace rankstep::cli
