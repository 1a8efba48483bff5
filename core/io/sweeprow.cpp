// SPDX-License-Identifier: MIT
#include "sweeprow.h"

#include "jsonfields.h"
#include "jsonwriter.h"

#include "core/bubble.h"
#include "core/limits.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rankstep::io {
namespace {

// A real-scale cost model's tick is a microsecond (core/costmodel.h).
constexpr double kTicksPerSecond = 1e6;

std::string statusOf(const core::Trace &trace)
{
    switch (trace.status) {
        case core::RunStatus::Ok:
            return trace.check.passed ? "solved" : "not solved";
        case core::RunStatus::Deadlock:
            return "hung";
        case core::RunStatus::Stopped:
            return "stopped";
        case core::RunStatus::Error:
            break;
    }
    return "error";
}

// "rank 2, line 7: the message's first line".
std::string errorLine(const core::Error &error)
{
    std::string where;
    if (error.rank >= 0)
        where = "rank " + std::to_string(error.rank);
    if (error.line > 0)
        where += (where.empty() ? "" : ", ") + std::string("line ") + std::to_string(error.line);
    const std::string message = error.message.substr(0, error.message.find('\n'));
    return where.empty() ? message : where + ": " + message;
}

std::string decimal(double value, const char *format)
{
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

void timeMember(JsonObject &object, std::string_view key, const SweepRow &row,
                const std::optional<core::SimTime> &time)
{
    if (!time)
        object.null(key);
    else if (row.seconds)
        object.open(key).append(decimal(double(time->ticks()) / kTicksPerSecond, "%.6f"));
    else
        object.time(key, *time);
}

std::optional<core::SimTime> readTimeMember(const Fields &fields, std::string_view key,
                                            bool seconds)
{
    if (fields.isNull(key))
        return std::nullopt;
    if (!seconds)
        return fields.time(key);
    const double value = readNumber(fields.get(key), fields.pathOf(key));
    if (value < 0 || value > 1e12)
        failAt(fields.get(key), fields.pathOf(key), "expected seconds from 0 to 10^12");
    return core::SimTime::fromTicks(std::int64_t(std::llround(value * kTicksPerSecond)));
}

double share(const Fields &fields, std::string_view key)
{
    const double value = readNumber(fields.get(key), fields.pathOf(key));
    if (!(value >= 0 && value <= 1e6))
        failAt(fields.get(key), fields.pathOf(key), "expected a share from 0 to 10^6");
    return value;
}

SweepPipeline readPipeline(const Fields &fields)
{
    SweepPipeline pipeline;
    pipeline.schedule = fields.string("schedule");
    pipeline.stages = fields.integer32("stages", 0, 4096);
    pipeline.microBatches = fields.integer32("micro_batches", 0, 1 << 16);
    pipeline.virtualStages = fields.integer32("virtual_stages", 1, 4096);
    pipeline.measured = share(fields, "bubble_measured");
    pipeline.formula = share(fields, "bubble_formula");
    pipeline.formulaText = fields.string("formula");
    return pipeline;
}

SweepRow read(const JsonValue &root)
{
    const Fields top(root, "");
    SweepRow row;
    row.index = top.integer32("index", 0, 1 << 20);
    // Rows of a sweep of one program, and of versions before comparisons, have neither.
    if (top.has("program") && !top.isNull("program"))
        row.program = top.string("program");
    if (top.has("pipeline") && !top.isNull("pipeline"))
        row.pipeline = readPipeline(top.object("pipeline"));
    row.point.ranks = top.integer32("ranks", 1, core::kMostRanks);
    row.point.layers = top.integer32("layers", 1, 4096);
    row.point.batches = top.integer32("batches", 1, 1 << 16);
    if (!top.isNull("bandwidth"))
        row.point.bandwidth = readNumber(top.get("bandwidth"), "bandwidth");
    // Rows of sweeps before layouts have none: one rank a tensor group and a stage.
    if (top.has("layout")) {
        const Fields layout = top.object("layout");
        row.point.tensor = layout.integer32("tensor", 1, core::kMostRanks);
        row.point.pipeline = layout.integer32("pipeline", 1, core::kMostRanks);
    }
    row.status = top.string("status");
    row.solved = top.boolean("solved");
    const std::string &units = top.string("units");
    if (units != "steps" && units != "seconds")
        failAt(top.get("units"), "units", "expected \"steps\" or \"seconds\"");
    row.seconds = units == "seconds";
    row.timesteps = readTimeMember(top, "timesteps", row.seconds);
    row.endTime = readTimeMember(top, "end_time", row.seconds);
    if (!top.isNull("peak_memory")) {
        row.peakMemory = top.integer("peak_memory");
        row.peakRank = top.integer32("peak_rank", 0, core::kMostRanks - 1);
        row.peakTime = readTimeMember(top, "peak_time", row.seconds).value_or(core::SimTime());
    }
    if (!top.isNull("idle_share"))
        row.idleShare = readNumber(top.get("idle_share"), "idle_share");
    row.error = top.string("error");
    row.wallSeconds = readNumber(top.get("wall_seconds"), "wall_seconds");
    if (!top.isNull("trace"))
        row.trace = top.string("trace");
    if (top.has("device_memory") && !top.isNull("device_memory"))
        row.deviceMemory = top.integer("device_memory");
    return row;
}

} // namespace

SweepRow sweepRowFromTrace(const core::Trace &trace)
{
    SweepRow row;
    row.status = statusOf(trace);
    row.solved = trace.correct();
    row.seconds = trace.config.cost.realScale();
    const core::Figures &f = trace.figures;
    // Figures of a run that did not finish are where it stopped, not results.
    if (trace.status == core::RunStatus::Ok && f.hasEvents) {
        row.timesteps = f.timesteps;
        row.endTime = f.endTime;
        row.peakMemory = f.maxMemory;
        row.peakRank = f.maxMemoryRank;
        row.peakTime = f.maxMemoryTime;
        row.idleShare = core::idleShare(trace);
    }
    if (trace.error)
        row.error = errorLine(*trace.error);
    else if (!trace.check.passed && trace.status == core::RunStatus::Ok)
        row.error = trace.check.message.substr(0, trace.check.message.find('\n'));
    return row;
}

std::string formatSweepTime(const SweepRow &row, core::SimTime time)
{
    return row.seconds ? decimal(double(time.ticks()) / kTicksPerSecond, "%.3f s")
                       : time.toString();
}

double sweepTimeValue(const SweepRow &row, core::SimTime time)
{
    return row.seconds ? double(time.ticks()) / kTicksPerSecond : time.toDouble();
}

std::string sweepRowToJson(const SweepRow &row)
{
    std::string out;
    JsonObject object(out);
    object.integer("index", row.index);
    row.program.empty() ? object.null("program") : object.string("program", row.program);
    object.integer("ranks", row.point.ranks)
        .integer("layers", row.point.layers)
        .integer("batches", row.point.batches);
    // An object, as a trace's "layout" is: "pipeline" alone is a pipeline run's bubble below.
    JsonObject(object.open("layout"))
        .integer("tensor", row.point.tensor)
        .integer("pipeline", row.point.pipeline)
        .close();
    if (row.point.bandwidth > 0)
        object.open("bandwidth").append(decimal(row.point.bandwidth, "%.17g"));
    else
        object.null("bandwidth");
    object.string("status", row.status)
        .boolean("solved", row.solved)
        .string("units", row.seconds ? "seconds" : "steps");
    timeMember(object, "timesteps", row, row.timesteps);
    timeMember(object, "end_time", row, row.endTime);
    if (row.peakMemory) {
        object.integer("peak_memory", *row.peakMemory).integer("peak_rank", row.peakRank);
        timeMember(object, "peak_time", row, row.peakTime);
    } else {
        object.null("peak_memory").null("peak_rank").null("peak_time");
    }
    if (row.idleShare)
        object.open("idle_share").append(decimal(*row.idleShare, "%.6f"));
    else
        object.null("idle_share");
    object.string("error", row.error);
    object.open("wall_seconds").append(decimal(row.wallSeconds, "%.3f"));
    row.trace.empty() ? object.null("trace") : object.string("trace", row.trace);
    if (row.pipeline) {
        const SweepPipeline &p = *row.pipeline;
        JsonObject(object.open("pipeline"))
            .string("schedule", p.schedule)
            .integer("stages", p.stages)
            .integer("micro_batches", p.microBatches)
            .integer("virtual_stages", p.virtualStages)
            .number("bubble_measured", p.measured)
            .number("bubble_formula", p.formula)
            .string("formula", p.formulaText)
            .close();
    } else {
        object.null("pipeline");
    }
    row.deviceMemory ? object.integer("device_memory", *row.deviceMemory)
                     : object.null("device_memory");
    object.close();
    return out;
}

core::Result<SweepRow> sweepRowFromJson(std::string_view line)
{
    core::Result<JsonValue> parsed = parseJson(line);
    if (!parsed)
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read a row of the sweep: " + parsed.error().message};
    try {
        return read(*parsed);
    } catch (const FieldError &error) {
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read a row of the sweep: " + error.message};
    }
}

std::vector<bool> paretoFront(const std::vector<SweepRow> &rows)
{
    std::vector<bool> front(rows.size(), false);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SweepRow &a = rows[i];
        if (!a.finished() || !a.peakMemory)
            continue;
        bool dominated = false;
        for (std::size_t j = 0; j < rows.size() && !dominated; ++j) {
            const SweepRow &b = rows[j];
            if (j == i || !b.finished() || !b.peakMemory)
                continue;
            const bool noWorse = *b.timesteps <= *a.timesteps && *b.peakMemory <= *a.peakMemory;
            const bool better = *b.timesteps < *a.timesteps || *b.peakMemory < *a.peakMemory;
            dominated = noWorse && better;
        }
        front[i] = !dominated;
    }
    return front;
}

} // namespace rankstep::io
