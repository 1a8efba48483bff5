// SPDX-License-Identifier: MIT
#include "demonstration.h"

#include "jsonfields.h"
#include "jsonwriter.h"

#include "core/limits.h"

#include <cstdio>

namespace rankstep::io {
namespace {

constexpr const char *kChanges[] = {"lesson", "run",    "step",  "tab",    "view",
                                    "zoom",   "select", "ranks", "caption"};
constexpr double kMinZoom = 0.25, kMaxZoom = 8; // wider than the app's own clamp
constexpr int kMaxRanks = core::kMostRanks;

std::string number(double value)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

void writeCursor(JsonObject &object, const std::optional<DemoCursor> &cursor)
{
    if (!cursor) {
        object.null("cursor");
        return;
    }
    std::string &out = object.open("cursor");
    JsonObject inner(out);
    switch (cursor->kind) {
        case DemoCursor::Kind::Stop:
            inner.integer("stop", cursor->stop);
            break;
        case DemoCursor::Kind::Mark:
            inner.integer("mark", cursor->stop);
            break;
        case DemoCursor::Kind::Cut:
            inner.time("cut", cursor->cut);
            break;
        case DemoCursor::Kind::Operation:
            inner.integer("operation", cursor->stop);
            break;
    }
    inner.close();
}

void writeStep(std::string &out, const DemoStep &step)
{
    JsonObject object(out);
    object.string("change", step.change).integer("run", step.run).string("tab", step.tab);
    writeCursor(object, step.cursor);
    if (step.visibleFrom && step.visibleTo) {
        std::string &range = object.open("visible");
        range.append("[").append(number(*step.visibleFrom));
        range.append(", ").append(number(*step.visibleTo)).append("]");
    } else {
        object.null("visible");
    }
    object.open("zoom").append(number(step.zoom));
    object.integer("rank", step.rank);
    step.event ? object.integer("event", *step.event) : object.null("event");
    std::string &ranks = object.open("ranks");
    ranks.append("[");
    for (std::size_t i = 0; i < step.shownRanks.size(); ++i)
        ranks.append(i ? ", " : "").append(std::to_string(step.shownRanks[i]));
    ranks.append("]");
    object.string("caption", step.caption);
    object.close();
}

bool oneOf(const std::string &value, const auto &names)
{
    for (const auto &name : names)
        if (value == name)
            return true;
    return false;
}

std::string nameList(const auto &names)
{
    std::string list;
    for (const auto &name : names)
        list.append(list.empty() ? "" : ", ").append(name);
    return list;
}

const std::string &boundedString(const Fields &fields, std::string_view key, std::size_t max,
                                 const char *what)
{
    const std::string &text = fields.string(key);
    if (text.size() > max)
        failAt(fields.get(key), fields.pathOf(key),
               std::string(what) + " longer than " + std::to_string(max) + " bytes");
    return text;
}

std::optional<DemoCursor> readCursor(const Fields &step)
{
    if (step.isNull("cursor"))
        return std::nullopt;
    const Fields cursor = step.object("cursor");
    DemoCursor result;
    if (cursor.has("stop")) {
        result.stop = cursor.integer("stop", 0, std::int64_t(1) << 40);
    } else if (cursor.has("mark")) {
        result.kind = DemoCursor::Kind::Mark;
        result.stop = cursor.integer("mark", 0, std::int64_t(1) << 40);
    } else if (cursor.has("cut")) {
        result.kind = DemoCursor::Kind::Cut;
        result.cut = cursor.time("cut");
    } else if (cursor.has("operation")) {
        result.kind = DemoCursor::Kind::Operation;
        result.stop = cursor.integer("operation", 0, std::int64_t(1) << 40);
    } else {
        failAt(step.get("cursor"), step.pathOf("cursor"),
               "expected {\"stop\": n}, {\"mark\": n}, {\"cut\": time} or {\"operation\": n}");
    }
    return result;
}

DemoStep readStep(const JsonValue &value, const std::string &path, std::size_t runs,
                  const std::vector<std::string> &tabs)
{
    const Fields fields(value, path);
    DemoStep step;
    step.change = fields.string("change");
    if (!oneOf(step.change, kChanges))
        failAt(fields.get("change"), fields.pathOf("change"),
               "expected one of " + nameList(kChanges));
    step.run = fields.integer32("run", -1, int(kMaxDemonstrationRuns));
    if (step.run >= int(runs))
        failAt(fields.get("run"), fields.pathOf("run"),
               "names run " + std::to_string(step.run) + ", but the file has " +
                   std::to_string(runs) + (runs == 1 ? " run" : " runs"));
    step.tab = fields.string("tab");
    if (!tabs.empty() && !oneOf(step.tab, tabs))
        failAt(fields.get("tab"), fields.pathOf("tab"), "expected one of " + nameList(tabs));
    step.cursor = readCursor(fields);
    if (step.cursor && step.run < 0)
        failAt(fields.get("cursor"), fields.pathOf("cursor"), "a cursor needs a run");
    if (!fields.isNull("visible")) {
        const std::vector<JsonValue> &range = fields.array("visible");
        if (range.size() != 2)
            failAt(fields.get("visible"), fields.pathOf("visible"), "expected [from, to]");
        step.visibleFrom = readNumber(range[0], fields.pathOf("visible") + "[0]");
        step.visibleTo = readNumber(range[1], fields.pathOf("visible") + "[1]");
        if (!(*step.visibleFrom < *step.visibleTo))
            failAt(fields.get("visible"), fields.pathOf("visible"), "expected from < to");
    }
    step.zoom = readNumber(fields.get("zoom"), fields.pathOf("zoom"));
    if (step.zoom < kMinZoom || step.zoom > kMaxZoom)
        failAt(fields.get("zoom"), fields.pathOf("zoom"), "expected a zoom from 0.25 to 8");
    step.rank = fields.integer32("rank", -1, kMaxRanks - 1);
    if (!fields.isNull("event"))
        step.event = fields.integer("event", 0, std::int64_t(1) << 40);
    step.shownRanks = readInts(fields.get("ranks"), fields.pathOf("ranks"), 0, kMaxRanks - 1);
    step.caption = boundedString(fields, "caption", kMaxDemonstrationCaption, "a caption");
    return step;
}

Demonstration read(const JsonValue &root, const std::vector<std::string> &tabs)
{
    if (!root.isObject())
        failAt(root, "", "expected an object");
    const Fields top(root, "");
    if (!top.has("format") || top.get("format").type != JsonValue::Type::String ||
        top.string("format") != kDemonstrationFormat)
        throw FieldError{"this is not a Rankstep demonstration (its \"format\" is not \"" +
                         std::string(kDemonstrationFormat) + "\")"};
    Demonstration demo;
    demo.version = top.integer32("version", 1);
    if (demo.version > kDemonstrationVersion)
        throw FieldError{"it was recorded by a newer Rankstep (file format " +
                         std::to_string(demo.version) + "; this Rankstep reads format " +
                         std::to_string(kDemonstrationVersion) +
                         " and older). Update Rankstep to replay it"};
    demo.lesson = top.string("lesson");
    if (demo.lesson.empty())
        failAt(top.get("lesson"), "lesson", "expected a lesson's id");
    const std::vector<JsonValue> &runs = top.array("runs");
    if (runs.size() > kMaxDemonstrationRuns)
        failAt(top.get("runs"), "runs",
               "more than " + std::to_string(kMaxDemonstrationRuns) + " runs");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const Fields run(runs[i], "runs[" + std::to_string(i) + "]");
        DemoRun item;
        item.code = boundedString(run, "code", kMaxDemonstrationCode, "the code");
        item.cost = run.string("cost");
        demo.runs.push_back(std::move(item));
    }
    const std::vector<JsonValue> &steps = top.array("steps");
    if (steps.empty())
        failAt(top.get("steps"), "steps", "the demonstration has no steps");
    if (steps.size() > kMaxDemonstrationSteps)
        failAt(top.get("steps"), "steps",
               "more than " + std::to_string(kMaxDemonstrationSteps) + " steps");
    demo.steps.reserve(steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i)
        demo.steps.push_back(
            readStep(steps[i], "steps[" + std::to_string(i) + "]", runs.size(), tabs));
    return demo;
}

} // namespace

std::string demonstrationToJson(const Demonstration &demo)
{
    std::string out;
    JsonObject top(out);
    top.breakLine("  ")
        .string("format", kDemonstrationFormat)
        .breakLine("  ")
        .integer("version", demo.version)
        .breakLine("  ")
        .string("lesson", demo.lesson)
        .breakLine("  ");
    std::string &runs = top.open("runs");
    runs.append("[");
    for (std::size_t i = 0; i < demo.runs.size(); ++i) {
        runs.append(i ? ",\n    " : "\n    ");
        JsonObject(runs)
            .string("code", demo.runs[i].code)
            .string("cost", demo.runs[i].cost)
            .close();
    }
    runs.append(demo.runs.empty() ? "]" : "\n  ]");
    top.breakLine("  ");
    std::string &steps = top.open("steps");
    steps.append("[");
    for (std::size_t i = 0; i < demo.steps.size(); ++i) {
        steps.append(i ? ",\n    " : "\n    ");
        writeStep(steps, demo.steps[i]);
    }
    steps.append(demo.steps.empty() ? "]" : "\n  ]");
    out.append("\n");
    top.close();
    out.append("\n");
    return out;
}

core::Result<Demonstration> demonstrationFromJson(std::string_view text,
                                                  const std::vector<std::string> &tabs)
{
    core::Result<JsonValue> parsed = parseJson(text);
    if (!parsed)
        return core::Error{
            core::ErrorKind::Usage, -1, 0,
            "The file is not a demonstration Rankstep can read: " + parsed.error().message + "."};
    try {
        return read(*parsed, tabs);
    } catch (const FieldError &error) {
        return core::Error{
            core::ErrorKind::Usage, -1, 0,
            "The file is not a demonstration Rankstep can read: " + error.message + "."};
    }
}

} // namespace rankstep::io
