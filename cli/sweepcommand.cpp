// SPDX-License-Identifier: MIT
// rankstep-cli sweep: the learner's program at every setting of a grid, the runs in parallel
// child processes (each one an ordinary sandboxed `rankstep-cli run`), a row per setting. The
// sweep runs no learner code itself, so it needs no sandbox of its own (cli/main.cpp).
#include "sweepcommand.h"

#include "arguments.h"
#include "childprocess.h"
#include "csv.h"
#include "runreport.h"
#include "scratchfolder.h"
#include "stopsignals.h"

#include "core/explain/pipelineshape.h"
#include "core/io/costfile.h"
#include "core/io/jsonwriter.h"
#include "core/io/sweeprow.h"
#include "core/io/tracebinary.h"
#include "core/layout.h"
#include "core/limits.h"
#include "core/memoryformat.h"
#include "core/terminaltext.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_set>

namespace rankstep::cli {
namespace {

namespace fs = std::filesystem;
using io::SweepPoint;
using io::SweepRow;

// Seconds a run gets beyond --timeout to start Python and write its trace before it is killed.
constexpr double kGraceSeconds = 5;
// More settings than this is a typing mistake (or a night's work): say so instead of starting.
constexpr std::size_t kMostSettings = 10'000;
constexpr int kMostJobs = 64;

std::string tooManySettings(const std::string &count)
{
    return "the grid has " + count + " settings; a sweep runs at most " +
           std::to_string(kMostSettings);
}

// "2,4,8": whole numbers from `lowest` to `highest`, each once, in the order given. A list of more
// values than a grid may have settings is refused as it is read.
std::vector<int> integers(const Arguments &args, const std::string &name, int fallback, int lowest,
                          int highest)
{
    if (!args.has(name))
        return {fallback};
    const std::string text = args.text(name);
    std::vector<int> values;
    std::unordered_set<int> seen;
    std::istringstream in(text);
    std::string word;
    while (std::getline(in, word, ',')) {
        const bool digits = !word.empty() && word.size() < 10 &&
                            word.find_first_not_of("0123456789") == std::string::npos;
        const long long value = digits ? std::stoll(word) : -1;
        if (value < lowest || value > highest)
            throw UsageError{"--" + name + " takes whole numbers from " + std::to_string(lowest) +
                             " to " + std::to_string(highest) +
                             " separated by commas (2,4,8), not '" + text + "'"};
        if (seen.insert(int(value)).second)
            values.push_back(int(value));
        if (values.size() > kMostSettings)
            throw UsageError{tooManySettings("more than " + std::to_string(kMostSettings)) +
                             " (--" + name + " alone names more values)"};
    }
    if (values.empty() || text.back() == ',')
        throw UsageError{"--" + name + " takes whole numbers separated by commas (2,4,8), not '" +
                         text + "'"};
    return values;
}

// How many settings the lists make, from their lengths alone: nothing is made for a grid that is
// too large (500 values of three lists once took 3 GB and 8 s to refuse, 1000 ran out of memory).
void checkGridSize(std::initializer_list<std::size_t> lengths)
{
    std::size_t settings = 1;
    for (const std::size_t length : lengths) {
        if (length > kMostSettings || settings * length > kMostSettings) {
            unsigned long long count = 1; // the whole product, when it fits in 64 bits
            bool fits = true;
            for (const std::size_t each : lengths)
                fits = fits && !__builtin_mul_overflow(count, each, &count);
            throw UsageError{tooManySettings(fits ? std::to_string(count) : "more than 10^19")};
        }
        settings *= length;
    }
}

// "25,50,450": gigabytes a second; {0} (the cost model's own) when not given.
std::vector<double> bandwidths(const Arguments &args)
{
    if (!args.has("bandwidth"))
        return {0};
    const std::string text = args.text("bandwidth");
    std::vector<double> values;
    std::istringstream in(text);
    std::string word;
    while (std::getline(in, word, ',')) {
        char *end = nullptr;
        const double value = word.empty() ? -1 : std::strtod(word.c_str(), &end);
        if (word.empty() || end != word.c_str() + word.size() || !std::isfinite(value) ||
            value <= 0 || value > 1e6)
            throw UsageError{
                "--bandwidth takes gigabytes a second above 0 and at most 1000000, "
                "separated by commas (25,50,450), not '" +
                text + "'"};
        if (std::find(values.begin(), values.end(), value) == values.end())
            values.push_back(value);
        if (values.size() > kMostSettings)
            throw UsageError{tooManySettings("more than " + std::to_string(kMostSettings)) +
                             " (--bandwidth alone names more values)"};
    }
    if (values.empty() || text.back() == ',')
        throw UsageError{
            "--bandwidth takes gigabytes a second separated by commas (25,50,450), "
            "not '" +
            text + "'"};
    return values;
}

std::string number(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

// One program a sweep runs: FILE or FILE:FUNCTION as it was given.
struct Program {
    std::string file;     // its whole path
    std::string function; // empty: --function, or the file's only function
    std::string label;    // as given, for the rows of a sweep over several programs
};

struct Settings {
    std::vector<Program> programs;
    std::optional<std::int64_t> deviceMemory; // the cost model's device, when it gives one
    std::string program;                      // rankstep-cli itself
    std::vector<std::string> passed;          // options every run gets (--cost, limits)
    std::string function;                     // --function: for the programs that name none
    double timeout = 30;
    fs::path scratch;
    fs::path traces; // --traces: kept here; empty: read and removed
};

std::string traceName(const SweepPoint &point, std::size_t program, std::size_t programs)
{
    std::string name = programs > 1 ? "program-" + std::to_string(program + 1) + "-" : "";
    name += "ranks-" + std::to_string(point.ranks) + "-layers-" + std::to_string(point.layers) +
            "-batches-" + std::to_string(point.batches);
    if (point.bandwidth > 0)
        name += "-bandwidth-" + number(point.bandwidth);
    if (point.tensor > 1 || point.pipeline > 1)
        name += "-tensor-" + std::to_string(point.tensor) + "-pipeline-" +
                std::to_string(point.pipeline);
    return name + ".rstb";
}

// The first line the runner wrote after "rankstep-cli: " (a usage error), or "".
std::string usageSentence(const std::string &stderrText)
{
    const std::string marker = "rankstep-cli: ";
    const std::size_t at = stderrText.find(marker);
    if (at == std::string::npos)
        return {};
    const std::size_t start = at + marker.size();
    return stderrText.substr(start, stderrText.find('\n', start) - start);
}

// The runner's last "Error: ..." line (a process that died: what the supervisor saw), or "".
std::string errorSentence(const std::string &stderrText)
{
    const std::size_t at = stderrText.rfind("Error: ");
    if (at == std::string::npos)
        return {};
    const std::size_t start = at + 7;
    return stderrText.substr(start, stderrText.find('\n', start) - start);
}

struct Outcome {
    SweepRow row;
    std::string usageError; // the command line was refused: the same for every setting
};

// The schedule and bubble of a pipeline run that finished (explain's "pipeline" block).
std::optional<io::SweepPipeline> pipelineOf(const core::Trace &trace)
{
    if (trace.status != core::RunStatus::Ok || !trace.figures.hasEvents)
        return std::nullopt;
    const auto shape = explain::pipelineShape(trace);
    if (!shape)
        return std::nullopt;
    return io::SweepPipeline{explain::scheduleName(shape->schedule),
                             shape->stages,
                             shape->microBatches,
                             shape->virtualStages,
                             shape->measured,
                             shape->formula,
                             explain::formulaText(shape->schedule)};
}

// "FILE" or "FILE:FUNCTION"; a path that exists is a FILE even with a colon in it.
Program programOf(const std::string &text)
{
    Program program;
    program.label = text;
    program.file = text;
    std::error_code error;
    const std::size_t colon = text.rfind(':');
    if (!fs::exists(text, error) && colon != std::string::npos && colon > 0) {
        const std::string function = text.substr(colon + 1);
        const bool identifier = !function.empty() &&
                                std::isdigit((unsigned char)function[0]) == 0 &&
                                function.find_first_not_of(
                                    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789_") == std::string::npos;
        if (!identifier)
            throw UsageError{"'" + text +
                             "': after the colon comes a function name (FILE:FUNCTION)"};
        program.file = text.substr(0, colon);
        program.function = function;
    }
    program.file = fs::absolute(program.file).string();
    readFile(program.file); // an unreadable FILE is refused before any run
    return program;
}

Outcome runPoint(const Settings &settings, std::size_t programIndex, const SweepPoint &point,
                 int index)
{
    const Program &program = settings.programs[programIndex];
    // A layout that cannot lay these ranks out is this setting's error, not the sweep's: other
    // rank counts of the grid may take it.
    const std::string problem =
        core::layoutProblem(point.ranks, core::Layout{point.tensor, 1, point.pipeline, 1});
    if (!problem.empty()) {
        Outcome refused;
        refused.row.status = "error";
        refused.row.error = problem;
        refused.row.index = index;
        refused.row.program = settings.programs.size() > 1 ? program.label : std::string();
        refused.row.point = point;
        refused.row.deviceMemory = settings.deviceMemory;
        return refused;
    }
    const fs::path trace =
        settings.traces.empty()
            ? settings.scratch / (std::to_string(index) + ".rstb")
            : settings.traces / traceName(point, programIndex, settings.programs.size());
    std::error_code gone;
    fs::remove(trace, gone); // only what this run's supervisor writes may be read below
    std::vector<std::string> args = {"run",         program.file,
                                     "--ranks",     std::to_string(point.ranks),
                                     "--layers",    std::to_string(point.layers),
                                     "--batches",   std::to_string(point.batches),
                                     "--quiet",     "--no-report",
                                     "--trace-out", trace.string()};
    args.insert(args.end(), settings.passed.begin(), settings.passed.end());
    const std::string function = program.function.empty() ? settings.function : program.function;
    if (!function.empty())
        args.insert(args.end(), {"--function", function});
    if (point.bandwidth > 0)
        args.insert(args.end(), {"--bandwidth", number(point.bandwidth)});
    if (point.tensor > 1)
        args.insert(args.end(), {"--tensor", std::to_string(point.tensor)});
    if (point.pipeline > 1)
        args.insert(args.end(), {"--pipeline", std::to_string(point.pipeline)});
    const std::string errors = (settings.scratch / (std::to_string(index) + ".err")).string();
    const ChildOutcome child = runChild(settings.program, args, settings.timeout + kGraceSeconds,
                                        errors, &StopSignals::flag());
    fs::remove(errors, gone);

    Outcome outcome;
    SweepRow &row = outcome.row;
    std::optional<std::int64_t> device = settings.deviceMemory;
    auto bytes = core::readRegularFile(trace.string(), core::kMaxTraceFileBytes);
    auto decoded = bytes ? io::traceFromBinary(*bytes) : core::Result<core::Trace>(bytes.error());
    if (decoded) {
        // No function of that name, several to choose from: the same for every setting.
        if (decoded->error && decoded->error->kind == core::ErrorKind::Usage)
            outcome.usageError = decoded->error->message;
        row = io::sweepRowFromTrace(*decoded);
        row.pipeline = pipelineOf(*decoded);
        // The device's memory the run kept in its trace, which its memory chart and explain
        // compare its peak with; the cost model's figure only for a run that left no trace.
        device = decoded->config.cost.deviceMemory > 0
                     ? std::optional<std::int64_t>(decoded->config.cost.deviceMemory)
                     : std::nullopt;
        if (!settings.traces.empty())
            row.trace = trace.string();
    } else {
        fs::remove(trace, gone);
        using End = ChildOutcome::End;
        if (child.end == End::Exited && child.code == kUsage)
            outcome.usageError = usageSentence(child.stderrText);
        const bool stopped = child.end == End::TimedOut || child.end == End::Stopped ||
                             (child.end == End::Exited && child.code == kStopped);
        row.status = stopped ? "stopped" : "crashed";
        if (child.end == End::Exited && child.code == kCannotWrite) // a full disk, not the code
            row.error = "not run: " + usageSentence(child.stderrText);
        else
            row.error = child.end == End::Stopped ? "stopped with the sweep"
                        : stopped                 ? "stopped after " + number(settings.timeout) +
                                        " s: still running (infinite loop?)"
                        : child.end == End::NotStarted ? "cannot start " + settings.program
                                                       : errorSentence(child.stderrText);
        if (row.error.empty())
            row.error = child.end == End::Signaled
                            ? "the run crashed (signal " + std::to_string(child.code) + ")"
                            : "the run ended without a trace (exit code " +
                                  std::to_string(child.code) + ")";
    }
    if (settings.traces.empty())
        fs::remove(trace, gone);
    row.index = index;
    if (settings.programs.size() > 1) {
        row.program = program.label;
        if (!outcome.usageError.empty()) // which program the mistake is in
            outcome.usageError = program.label + ": " + outcome.usageError;
    }
    row.point = point;
    row.deviceMemory = device;
    row.wallSeconds = child.seconds;
    return outcome;
}

enum class Format { Table, Csv, Json, JsonLines };

// The table's fixed columns (the error comes last, as long as it is).
constexpr int kWidths[] = {5, 6, 7, 8, 10, 11, 11, 13, 16, 6};

std::string cell(const std::string &text, int width, bool right)
{
    const int pad = std::max(0, width - int(text.size()));
    return right ? std::string(std::size_t(pad), ' ') + text
                 : text + std::string(std::size_t(pad), ' ');
}

std::string percent(double share)
{
    char text[16];
    std::snprintf(text, sizeof text, "%.1f%%", share * 100);
    return text;
}

// A row's result in words for people, as the app's What if tab says it: a sweep runs a file at
// settings that are not a lesson's, so the right final weights are "correct"; "solved" is a
// lesson's verdict at its own setting and targets (`rankstep-cli lesson`). The CSV, JSON and
// JSON lines keep the status as it is (what the app reads).
std::string resultWords(const std::string &status)
{
    if (status == "solved")
        return "correct";
    if (status == "not solved")
        return "not correct";
    return status;
}

// What the table shows beyond the grid: a bandwidth column; with several programs, the program
// first (programWidth characters) and the pipeline bubble beside its formula last.
struct TableShape {
    bool bandwidth = false;
    bool layout = false;  // TENSOR and PIPELINE columns
    int programWidth = 0; // 0: one program, no column
};

// A program as the table names it: its function, or the file as it was given (several
// solution.py are told apart by their folders).
std::string shortLabel(const Program &program)
{
    return program.function.empty() ? program.label : program.function;
}

constexpr int kBubbleWidth = 6;
constexpr int kFormulaWidth = 26;

std::string bubbleCells(const std::optional<io::SweepPipeline> &pipeline)
{
    if (!pipeline)
        return cell("-", kBubbleWidth, true) + "  " + cell("-", kFormulaWidth, false);
    return cell(percent(pipeline->measured), kBubbleWidth, true) + "  " +
           cell(percent(pipeline->formula) + " " + pipeline->formulaText, kFormulaWidth, false);
}

std::string tableHeader(const TableShape &shape, bool seconds)
{
    const bool bandwidth = shape.bandwidth;
    std::string line =
        shape.programWidth > 0 ? cell("PROGRAM", shape.programWidth, false) + "  " : std::string();
    line += cell("RANKS", kWidths[0], true) + "  " + cell("LAYERS", kWidths[1], true) + "  " +
            cell("BATCHES", kWidths[2], true) + "  ";
    if (shape.layout)
        line += cell("TENSOR", 6, true) + "  " + cell("PIPELINE", 8, true) + "  ";
    if (bandwidth)
        line += cell("GB/S", kWidths[3], true) + "  ";
    line += cell("RESULT", kWidths[4], false) + "  " +
            cell(seconds ? "TIME" : "TIMESTEPS", kWidths[5], true) + "  " +
            cell("END", kWidths[6], true) + "  " + cell("PEAK MEMORY", kWidths[7], true) + "  " +
            cell("AT RANK, TIME", kWidths[8], false) + "  " + cell("IDLE", kWidths[9], true) + "  ";
    if (shape.programWidth > 0)
        line += cell("BUBBLE", kBubbleWidth, true) + "  " + cell("FORMULA", kFormulaWidth, false) +
                "  ";
    return line + "ERROR\n";
}

std::string memoryText(const SweepRow &row)
{
    if (!row.peakMemory)
        return "-";
    // A star: over the device's memory (the summary says how much that is).
    return (row.seconds ? core::formatMemory(*row.peakMemory) : std::to_string(*row.peakMemory)) +
           (row.overDeviceMemory() ? "*" : "");
}

std::string tableRow(const SweepRow &row, const TableShape &shape, const std::string &program)
{
    const bool bandwidth = shape.bandwidth;
    const SweepPoint &p = row.point;
    std::string line =
        shape.programWidth > 0 ? cell(program, shape.programWidth, false) + "  " : std::string();
    line += cell(std::to_string(p.ranks), kWidths[0], true) + "  " +
            cell(std::to_string(p.layers), kWidths[1], true) + "  " +
            cell(std::to_string(p.batches), kWidths[2], true) + "  ";
    if (shape.layout)
        line += cell(std::to_string(p.tensor), 6, true) + "  " +
                cell(std::to_string(p.pipeline), 8, true) + "  ";
    if (bandwidth)
        line += cell(number(p.bandwidth), kWidths[3], true) + "  ";
    const auto time = [&row](const std::optional<core::SimTime> &t) {
        return t ? io::formatSweepTime(row, *t) : std::string("-");
    };
    const std::string at = row.peakMemory ? std::to_string(row.peakRank) + ", " +
                                                io::formatSweepTime(row, row.peakTime)
                                          : "-";
    line += cell(resultWords(row.status), kWidths[4], false) + "  " +
            cell(time(row.timesteps), kWidths[5], true) + "  " +
            cell(time(row.endTime), kWidths[6], true) + "  " +
            cell(memoryText(row), kWidths[7], true) + "  " + cell(at, kWidths[8], false) + "  " +
            cell(row.idleShare ? percent(*row.idleShare) : "-", kWidths[9], true);
    if (shape.programWidth > 0)
        line += "  " + bubbleCells(row.pipeline);
    if (!row.error.empty()) // the learner's exception: as text (core/terminaltext.h)
        line += "  " + core::terminalLine(row.error);
    // No trailing spaces on a row without an error.
    line.erase(line.find_last_not_of(' ') + 1);
    return line + "\n";
}

std::string csvHeader()
{
    return "ranks,layers,batches,bandwidth_gb_per_s,status,solved,units,timesteps,end_time,"
           "peak_memory,peak_rank,peak_time,idle_share,wall_seconds,error,program,schedule,"
           "bubble_measured,bubble_formula,tensor,pipeline,device_memory\n";
}

std::string csvRow(const SweepRow &row)
{
    const auto time = [&row](const std::optional<core::SimTime> &t) {
        return t ? number(io::sweepTimeValue(row, *t)) : std::string();
    };
    char idle[32] = "";
    if (row.idleShare)
        std::snprintf(idle, sizeof idle, "%.6f", *row.idleShare);
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.3f", row.wallSeconds);
    const SweepPoint &p = row.point;
    return std::to_string(p.ranks) + "," + std::to_string(p.layers) + "," +
           std::to_string(p.batches) + "," + (p.bandwidth > 0 ? number(p.bandwidth) : "") + "," +
           row.status + "," + (row.solved ? "true" : "false") + "," +
           (row.seconds ? "seconds" : "steps") + "," + time(row.timesteps) + "," +
           time(row.endTime) + "," + (row.peakMemory ? std::to_string(*row.peakMemory) : "") + "," +
           (row.peakMemory ? std::to_string(row.peakRank) : "") + "," +
           (row.peakMemory ? time(row.peakTime) : "") + "," + idle + "," + wall + "," +
           csvField(row.error) + "," + csvField(row.program) + "," +
           (row.pipeline ? row.pipeline->schedule + "," + number(row.pipeline->measured) + "," +
                               number(row.pipeline->formula)
                         : std::string(",,")) +
           "," + std::to_string(p.tensor) + "," + std::to_string(p.pipeline) + "," +
           (row.deviceMemory ? std::to_string(*row.deviceMemory) : "") + "\n";
}

// Prints rows as they finish: in the grid's order, a row as soon as every row before it is
// there (--jsonl: at once).
class Printer
{
public:
    // labels: each row's program as the table names it, by the row's index.
    Printer(Format format, TableShape shape, std::vector<std::string> labels)
        : m_format(format), m_rows(labels.size()), m_shape(shape), m_labels(std::move(labels))
    {}

    void add(SweepRow row)
    {
        const std::lock_guard lock(m_mutex);
        const std::size_t index = std::size_t(row.index);
        if (m_format == Format::JsonLines) {
            std::cout << io::sweepRowToJson(row) << std::endl;
        }
        m_rows[index] = std::move(row);
        while (m_printed < m_rows.size() && m_rows[m_printed]) {
            const SweepRow &next = *m_rows[m_printed++];
            if (m_format == Format::Table)
                std::cout << tableRow(next, m_shape, m_labels[m_printed - 1]) << std::flush;
            else if (m_format == Format::Csv)
                std::cout << csvRow(next) << std::flush;
        }
    }

    std::vector<SweepRow> rows() const
    {
        std::vector<SweepRow> done;
        for (const auto &row : m_rows)
            if (row)
                done.push_back(*row);
        return done;
    }

    // The rows that finished after one that did not (a stopped sweep): printed at its end.
    void flushTheRest()
    {
        for (; m_printed < m_rows.size(); ++m_printed) {
            if (!m_rows[m_printed])
                continue;
            if (m_format == Format::Table)
                std::cout << tableRow(*m_rows[m_printed], m_shape, m_labels[m_printed]);
            else if (m_format == Format::Csv)
                std::cout << csvRow(*m_rows[m_printed]);
        }
    }

private:
    std::mutex m_mutex;
    Format m_format;
    std::vector<std::optional<SweepRow>> m_rows;
    std::size_t m_printed = 0;
    TableShape m_shape;
    std::vector<std::string> m_labels;
};

std::string jsonDocument(const std::vector<SweepRow> &rows, const std::vector<Program> &programs,
                         const std::string &cost, std::size_t settings, double seconds,
                         bool stopped)
{
    std::string out = "{\"format\": \"rankstep-sweep\", \"version\": 1, \"file\": ";
    io::appendJsonString(out, programs.front().file);
    if (programs.size() > 1) { // a comparison: every program, as the rows name them
        out += ", \"programs\": [";
        for (std::size_t i = 0; i < programs.size(); ++i) {
            out += i == 0 ? "" : ", ";
            io::appendJsonString(out, programs[i].label);
        }
        out += "]";
    }
    out += ", \"cost\": ";
    io::appendJsonString(out, cost);
    out += ", \"settings\": " + std::to_string(settings) +
           ", \"run\": " + std::to_string(rows.size()) +
           ", \"stopped\": " + (stopped ? "true" : "false");
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.3f", seconds);
    out += std::string(", \"wall_seconds\": ") + wall + ",\n \"rows\": [";
    for (std::size_t i = 0; i < rows.size(); ++i)
        out += (i == 0 ? "\n  " : ",\n  ") + io::sweepRowToJson(rows[i]);
    out += "\n ],\n \"pareto\": [";
    const std::vector<bool> front = io::paretoFront(rows);
    bool first = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!front[i])
            continue;
        out += (first ? "" : ", ") + std::to_string(rows[i].index);
        first = false;
    }
    return out + "]}\n";
}

std::string summary(const std::vector<SweepRow> &rows, std::size_t settings, double seconds,
                    int jobs)
{
    std::map<std::string, int> counts; // by the words the table says
    for (const SweepRow &row : rows)
        ++counts[resultWords(row.status)];
    std::string text = std::to_string(rows.size()) + " of " + std::to_string(settings) +
                       " settings in " + number(std::round(seconds * 10) / 10) + " s, " +
                       std::to_string(jobs) + " at a time";
    if (seconds > 0 && !rows.empty())
        text += " (" + number(std::round(double(rows.size()) / seconds * 10) / 10) +
                " settings a second)";
    std::string said;
    for (const auto &[status, count] : counts)
        said += (said.empty() ? ": " : ", ") + std::to_string(count) + " " + status;
    std::string graded;
    if (counts.count("correct") != 0 || counts.count("not correct") != 0)
        graded =
            "Correct: the right final weights at that setting. A lesson is graded at its\n"
            "own setting and targets only (rankstep-cli lesson).\n";
    int over = 0;
    for (const SweepRow &row : rows)
        over += row.overDeviceMemory() ? 1 : 0;
    if (over > 0)
        graded += "* " + std::to_string(over) + " of them do not fit the device's " +
                  core::formatMemory(*rows.front().deviceMemory) + ": a rank's peak is above it.\n";
    return text + said + ".\n" + graded;
}

} // namespace

std::string sweepHelpText()
{
    return R"(Usage: rankstep-cli sweep FILE[:FUNCTION]... [--function F] [--ranks LIST] [--layers LIST]
                          [--batches LIST | --batches-per-rank LIST]
                          [--bandwidth LIST] [--tensor LIST] [--pipeline LIST]
                          [--cost PRESET|FILE]
                          [--jobs N] [--csv | --json | --jsonl] [--traces DIR]

Runs FILE once for every setting of the grid the lists make (LIST: numbers separated by commas,
2,4,8; a missing list is run's default: 1 rank, 2 layers, 4 batches) and prints a row per
setting: its result (correct: the right final weights at that setting; a lesson is graded at its
own setting and targets only, by `rankstep-cli lesson`), Timesteps, end time, peak memory and
where, and the ranks' idle share. CSV and JSON keep the run's status (solved, not solved, ...).
Every run is an ordinary `rankstep-cli run` in a child process of its own, sandboxed, up to
--jobs of them at a time (default: every core); a setting whose run fails says why in its row
and the others go on. Ctrl+C (SIGINT or SIGTERM) stops the sweep at once: its runs are ended,
the rows so far printed, exit code 4.

Several programs (FILE:FUNCTION, or FILE for its only function) are compared: each runs at every
setting, its rows together, the table names each row's program, and a pipeline run's bubble
(the idle share of the ideal time) stands beside its schedule's formula, for example 1F1B,
interleaved 1F1B and zero-bubble over micro-batches (docs/sweeps.md):
  rankstep-cli sweep lessons/92-one_f_one_b/solution.py lessons/95-interleaved_1f1b/solution.py \
      lessons/96-zero_bubble/solution.py --ranks 4 --layers 8 --batches 4,8,12,16 --cost uniform

Options:
  --function NAME      the function to run where FILE names none (default: the file's only
                       function)
  --ranks, --layers, --batches LIST
                       the settings to run (each from 1 to run's limits)
  --batches-per-rank LIST
                       instead of --batches: K batches a rank, B = K x R (data parallelism
                       gives each rank its own batches)
  --bandwidth LIST     gigabytes a second on every link, inside and between nodes; needs a
                       real-scale --cost (docs/cost-models.md)
  --tensor, --pipeline LIST
                       layouts: tensor and pipeline degrees (default 1), the ranks' rest
                       data parallel; a degree that does not divide the ranks is that row's
                       error (docs/simulation.md, "Layouts")
  --cost PRESET|FILE   the cost model of every run (run --help)
  --jobs N             runs at a time, 1 to 64 (default: the number of cores)
  --timeout S          stop a run after S seconds (default 30); --max-ops, --memory-limit as run
  --csv                rows as CSV (RFC 4180) with a header line
  --json               one JSON document at the end: the rows and which are on the Pareto front
                       of Timesteps against peak memory (docs/sweeps.md)
  --jsonl              a JSON object per row as each finishes (what the app reads); a row
                       names its program and, for a pipeline run, its bubble and formula
  --traces DIR         keep each setting's binary trace in DIR (made if missing), named by its
                       setting; the app and `rankstep-cli compare` open them

It exits 0 once every setting ran (whatever the results), 4 when stopped, 64 for bad usage.
)";
}

int sweepCommand(const std::vector<std::string> &rest)
{
    if (std::find(rest.begin(), rest.end(), "--help") != rest.end() ||
        std::find(rest.begin(), rest.end(), "-h") != rest.end()) {
        std::cout << sweepHelpText();
        return kSolved;
    }
    const Arguments args(
        rest,
        {"function", "ranks", "layers", "batches", "batches-per-rank", "bandwidth", "tensor",
         "pipeline", "cost", "jobs", "timeout", "max-ops", "memory-limit", "traces"},
        {"csv", "json", "jsonl"});
    if (args.positional().empty())
        throw UsageError{"sweep takes a FILE (or several FILE:FUNCTION to compare)"};
    const int formats = int(args.has("csv")) + int(args.has("json")) + int(args.has("jsonl"));
    if (formats > 1)
        throw UsageError{"sweep prints one format: --csv, --json or --jsonl"};
    const Format format = args.has("csv")     ? Format::Csv
                          : args.has("json")  ? Format::Json
                          : args.has("jsonl") ? Format::JsonLines
                                              : Format::Table;
    Settings settings;
    for (const std::string &text : args.positional())
        settings.programs.push_back(programOf(text));
    const std::vector<int> ranks = integers(args, "ranks", 1, 1, core::kMostRanks);
    const std::vector<int> layers = integers(args, "layers", 2, 1, 4096);
    // --batches-per-rank K: B = K x R, what data-parallel programs need (a batch or K a rank).
    const bool perRank = args.has("batches-per-rank");
    if (perRank && args.has("batches"))
        throw UsageError{"sweep takes --batches or --batches-per-rank, not both"};
    const std::vector<int> batches = perRank ? integers(args, "batches-per-rank", 1, 1, 1 << 16)
                                             : integers(args, "batches", 4, 1, 1 << 16);
    const std::vector<double> links = bandwidths(args);
    // Layouts (docs/simulation.md, "Layouts"): data parallelism is the ranks' rest.
    const std::vector<int> tensors = integers(args, "tensor", 1, 1, core::kMostRanks);
    const std::vector<int> pipelines = integers(args, "pipeline", 1, 1, core::kMostRanks);
    bool realScale = false;
    std::string costName = "notebook";
    if (args.has("cost")) {
        auto recipe = io::loadCostRecipe(args.text("cost"));
        if (!recipe)
            throw UsageError{recipe.error().message};
        realScale = !recipe->fixed.has_value();
        // As a run under it keeps it in its trace (io::resolveCost: at least a byte).
        if (const std::int64_t device = io::resolveCost(*recipe, 1).deviceMemory; device > 0)
            settings.deviceMemory = device;
        costName = recipe->name;
        // A file by its whole path (the runs start elsewhere), a preset by its name.
        const std::string cost = args.text("cost");
        std::error_code error;
        settings.passed.insert(
            settings.passed.end(),
            {"--cost", fs::exists(cost, error) ? fs::absolute(cost).string() : cost});
    }
    if (args.has("bandwidth") && !realScale)
        throw UsageError{
            "--bandwidth needs a real-scale cost model (--cost gpt2-small-8xa100, "
            "for example): under the notebook's costs a collective takes a fixed "
            "time, whatever its bytes"};
    settings.timeout = args.seconds("timeout", 30);
    if (settings.timeout <= 0)
        throw UsageError{"sweep needs a time limit per run: --timeout must be more than 0"};
    settings.passed.insert(settings.passed.end(), {"--timeout", number(settings.timeout)});
    if (args.has("function"))
        settings.function = args.text("function");
    for (const char *option : {"max-ops", "memory-limit"})
        if (args.has(option))
            settings.passed.insert(settings.passed.end(),
                                   {std::string("--") + option, args.text(option)});
    if (args.has("traces")) {
        settings.traces = fs::absolute(args.text("traces"));
        std::error_code error;
        fs::create_directories(settings.traces, error);
        if (!fs::is_directory(settings.traces, error))
            throw UsageError{"--traces: cannot make the folder '" + args.text("traces") + "'"};
    }

    const std::size_t programCount = settings.programs.size();
    checkGridSize({programCount, ranks.size(), layers.size(), batches.size(), links.size(),
                   tensors.size(), pipelines.size()});
    std::vector<SweepPoint> points;
    for (int r : ranks)
        for (int l : layers)
            for (int b : batches)
                for (double bw : links)
                    for (int t : tensors)
                        for (int p : pipelines) {
                            const long long count = perRank ? (long long)b * r : b;
                            if (count > (1 << 16))
                                throw UsageError{"--batches-per-rank " + std::to_string(b) +
                                                 " at " + std::to_string(r) + " ranks makes " +
                                                 std::to_string(count) +
                                                 " batches; a run has at most 65536"};
                            points.push_back({r, l, int(count), bw, t, p});
                        }
    // The programs outermost: each one's rows together, in the order given.
    std::vector<std::pair<std::size_t, SweepPoint>> grid;
    std::vector<std::string> labels;
    TableShape shape;
    shape.bandwidth = args.has("bandwidth");
    shape.layout = args.has("tensor") || args.has("pipeline");
    for (std::size_t program = 0; program < programCount; ++program) {
        const std::string label = shortLabel(settings.programs[program]);
        if (programCount > 1)
            shape.programWidth = std::max(shape.programWidth, int(label.size()));
        for (const SweepPoint &point : points) {
            grid.emplace_back(program, point);
            labels.push_back(label);
        }
    }
    const int cores = int(std::max(1U, std::thread::hardware_concurrency()));
    const int jobs = std::min(int(args.integer("jobs", cores, 1, kMostJobs)), int(grid.size()));
    settings.program = currentExecutable();
    const ScratchFolder scratch("rankstep-sweep");
    settings.scratch = scratch.path;

    if (format == Format::Table)
        std::cout << tableHeader(shape, realScale) << std::flush;
    else if (format == Format::Csv)
        std::cout << csvHeader() << std::flush;
    Printer printer(format, shape, labels);
    const StopSignals signals;
    std::atomic<std::size_t> next{0};
    std::mutex refusalMutex;
    std::string refusal;
    std::atomic<bool> refused{false};
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (int j = 0; j < jobs; ++j)
        workers.emplace_back([&] {
            for (;;) {
                const std::size_t i = next++;
                if (i >= grid.size() || StopSignals::requested() || refused.load())
                    return;
                Outcome outcome = runPoint(settings, grid[i].first, grid[i].second, int(i));
                if (!outcome.usageError.empty()) {
                    const std::lock_guard lock(refusalMutex);
                    refusal = outcome.usageError;
                    refused.store(true);
                    return;
                }
                if (outcome.row.error == "stopped with the sweep")
                    return; // not a result: the sweep was stopped under it
                printer.add(std::move(outcome.row));
            }
        });
    for (std::thread &worker : workers)
        worker.join();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (refused.load())
        throw UsageError{refusal};
    const bool stopped = StopSignals::requested();
    printer.flushTheRest();
    const std::vector<SweepRow> rows = printer.rows();
    if (format == Format::Json)
        std::cout << jsonDocument(rows, settings.programs, costName, grid.size(), seconds, stopped);
    const std::string said = summary(rows, grid.size(), seconds, jobs);
    (format == Format::Table ? std::cout << "\n" : std::cerr) << said;
    if (stopped) {
        std::cerr << "Stopped: " << rows.size() << " of " << grid.size() << " settings ran.\n";
        return kStopped;
    }
    return kSolved;
}

} // namespace rankstep::cli
