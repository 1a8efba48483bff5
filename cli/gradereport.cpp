// SPDX-License-Identifier: MIT
#include "gradereport.h"

#include "core/io/jsonwriter.h"

#include <algorithm>
#include <array>

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

Cells cellsOf(const GradeRow &row)
{
    return {row.file,
            row.lesson.empty() ? "-" : row.lesson,
            row.status,
            against(text(row.time), text(row.timeTarget)),
            against(text(row.memory), text(row.memoryTarget)),
            row.error};
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
        object.string("file", row.file)
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

} // namespace rankstep::cli
