// SPDX-License-Identifier: MIT
#include "torchlessonreport.h"

#include "jsonfields.h"

#include <cmath>
#include <cstdlib>

namespace rankstep::io {
namespace {

constexpr std::size_t kMostSteps = 1'000'000;

// A loss per step; null where it was not finite (a diverged run's NaN, which JSON lacks), read as
// NaN: a chart leaves it out.
std::vector<double> numbers(const JsonValue &value, const std::string &path)
{
    if (!value.isArray())
        failAt(value, path, "expected an array of numbers");
    if (value.items.size() > kMostSteps)
        failAt(value, path, "more than a million steps");
    std::vector<double> result;
    result.reserve(value.items.size());
    for (std::size_t i = 0; i < value.items.size(); ++i)
        result.push_back(value.items[i].isNull()
                             ? std::nan("")
                             : readNumber(value.items[i], path + "[" + std::to_string(i) + "]"));
    return result;
}

TorchLessonReport read(const JsonValue &root)
{
    const Fields top(root, "");
    if (!top.has("format") || top.string("format") != "rankstep-torch-lesson")
        failAt(root, "format", "expected the report of a PyTorch lesson");
    TorchLessonReport report;
    report.check = top.string("check");
    report.solved = top.boolean("solved");
    report.wallSeconds = readNumber(top.get("wall_seconds"), "wall_seconds");
    report.initLoss = readNumber(top.get("init_loss"), "init_loss");
    report.expectedInitLoss = readNumber(top.get("expected_init_loss"), "expected_init_loss");
    const std::vector<JsonValue> &checks = top.array("checks");
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const Fields check(checks[i], "checks[" + std::to_string(i) + "]");
        report.checks.push_back(
            {check.string("name"), check.boolean("passed"), check.string("message")});
    }
    report.referenceLosses = numbers(top.get("reference_losses"), "reference_losses");
    if (top.has("reference_grad_norms")) // reports before the checklist lesson have none
        report.referenceGradNorms =
            numbers(top.get("reference_grad_norms"), "reference_grad_norms");
    if (top.has("clip_norm"))
        report.clipNorm = readNumber(top.get("clip_norm"), "clip_norm");
    const std::vector<JsonValue> &ranks = top.array("ranks");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const Fields rank(ranks[i], "ranks[" + std::to_string(i) + "]");
        TorchRankLosses losses;
        losses.rank = rank.integer32("rank", 0, 4095);
        losses.losses = numbers(rank.get("losses"), rank.pathOf("losses"));
        if (rank.has("grad_norms"))
            losses.gradNorms = numbers(rank.get("grad_norms"), rank.pathOf("grad_norms"));
        losses.seconds = readNumber(rank.get("seconds"), rank.pathOf("seconds"));
        losses.optimizerSteps = rank.integer32("optimizer_steps");
        losses.allReduces = rank.integer32("all_reduces");
        report.ranks.push_back(std::move(losses));
    }
    return report;
}

} // namespace

core::Result<TorchLessonReport> torchLessonReportFromJson(std::string_view text)
{
    core::Result<JsonValue> parsed = parseJson(text);
    if (!parsed)
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read the lesson's report: " + parsed.error().message};
    try {
        return read(*parsed);
    } catch (const FieldError &error) {
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "cannot read the lesson's report: " + error.message};
    }
}

} // namespace rankstep::io
