// SPDX-License-Identifier: MIT
#include "realreport.h"

#include "jsonfields.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace rankstep::io {
namespace {

double number(const Fields &fields, std::string_view key)
{
    const JsonValue &value = fields.get(key);
    if (value.type != JsonValue::Type::Number)
        failAt(value, fields.pathOf(key), "expected a number");
    const double result = std::strtod(value.text.c_str(), nullptr);
    if (!std::isfinite(result) || result < 0)
        failAt(value, fields.pathOf(key), "expected a number of at least 0");
    return result;
}

bool isCommunication(const std::string &op)
{
    return op == "allreduce" || op == "allgather" || op == "scatterreduce" || op == "pass_to" ||
           op == "receive";
}

RealReport read(const JsonValue &root)
{
    const Fields top(root, "");
    if (top.string("format") != "rankstep-trace" || !top.has("clock") ||
        top.string("clock") != "seconds")
        failAt(root, "format", "expected the report of `rankstep-cli real --json`");
    RealReport report;
    const Fields config = top.object("config");
    report.ranks = config.integer32("ranks", 1, 4096);
    report.layers = config.integer32("layers", 1, 4096);
    report.batches = config.integer32("batches", 1, 1 << 16);
    report.hidden = config.integer32("hidden", 1, 1 << 16);
    report.length = config.integer32("length", 1, 1 << 16);
    const Fields result = top.object("result");
    report.weightsMatch = result.boolean("weights_match");
    report.maxAbsDiff = number(result, "max_abs_diff");
    report.wallSeconds = number(result, "wall_seconds");
    if (!result.isNull("first_wrong_layer"))
        report.firstWrongLayer = result.integer32("first_wrong_layer", 0, report.layers - 1);
    const std::vector<JsonValue> &layers = result.array("layers");
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const Fields row(layers[i], result.pathOf("layers") + "[" + std::to_string(i) + "]");
        RealLayer layer;
        layer.layer = row.integer32("layer", 0, report.layers - 1);
        if (!row.isNull("max_abs_diff"))
            layer.maxAbsDiff = number(row, "max_abs_diff");
        if (row.has("problem"))
            layer.problem = row.string("problem");
        report.perLayer.push_back(std::move(layer));
    }
    const std::vector<JsonValue> &ranks = top.array("ranks");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const Fields entry(ranks[i], "ranks[" + std::to_string(i) + "]");
        RealRankTimes times;
        times.rank = entry.integer32("rank", 0, report.ranks - 1);
        const std::vector<JsonValue> &events = entry.array("events");
        for (std::size_t e = 0; e < events.size(); ++e) {
            const Fields event(events[e], entry.pathOf("events") + "[" + std::to_string(e) + "]");
            const double start = number(event, "start");
            const double duration = number(event, "duration");
            (isCommunication(event.string("op")) ? times.communication : times.compute) += duration;
            times.end = std::max(times.end, start + duration);
        }
        report.perRank.push_back(times);
    }
    return report;
}

} // namespace

core::Result<RealReport> realReportFromJson(std::string_view text)
{
    core::Result<JsonValue> parsed = parseJson(text);
    if (!parsed)
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read the real run's report: " + parsed.error().message};
    try {
        return read(*parsed);
    } catch (const FieldError &error) {
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read the real run's report: " + error.message};
    }
}

} // namespace rankstep::io
