// SPDX-License-Identifier: MIT
#include "figureexport.h"

#ifdef RANKSTEP_CLI_FIGURES
#include "core/replay/position.h"
#include "core/replay/replayer.h"
#include "exportfiles.h"

#include <QGuiApplication>
#endif

#include <cstdlib>
#include <memory>

namespace rankstep::cli {
namespace {

bool wantsFigures(const Arguments &args)
{
    return args.has("svg") || args.has("png") || args.has("state-png") || args.has("explain-png") ||
           args.has("explain-svg");
}

#ifdef RANKSTEP_CLI_FIGURES

// --at as a cursor: "end" (the default), or after the N-th event (0: before the first).
replay::Cursor cursorAt(const Arguments &args, const replay::StopPoints &stops)
{
    const replay::Cursor home(stops);
    if (!args.has("at") || args.text("at") == "end")
        return home.end();
    const auto events = std::int64_t(stops.trace().events.size());
    long long event = 0;
    try {
        event = args.integer("at", 0, 0, events);
    } catch (const UsageError &error) {
        throw UsageError{error.message + " (or 'end')"};
    }
    return event == 0 ? home : home.toEvent(std::size_t(event - 1));
}

void check(const QString &error)
{
    if (!error.isEmpty())
        throw UsageError{error.toStdString()};
}

void drawFigures(const Arguments &args, const core::Trace &trace, const FigureCaption &caption)
{
    // The figures only read the trace while this function runs: share it without a copy.
    const std::shared_ptr<const core::Trace> shared(std::shared_ptr<void>(), &trace);
    const replay::StopPoints stops(trace);
    const replay::Cursor cursor = cursorAt(args, stops);
    gui::FigureOptions options;
    options.title = QString::fromStdString(caption.title);
    options.memoryTarget = caption.memoryTarget;
    if (!cursor.atEnd()) {
        options.cursor = cursor.time().value_or(core::SimTime());
        options.ghostAfter = cursor.position().events;
    }
    if (args.has("svg"))
        check(gui::writeTimelineSvg(shared, options, QString::fromStdString(args.text("svg"))));
    if (args.has("png"))
        check(gui::writeTimelinePng(shared, options, QString::fromStdString(args.text("png"))));
    for (const bool svg : {false, true}) // `explain --png/--svg`: the explanation slide
        if (const char *option = svg ? "explain-svg" : "explain-png"; args.has(option))
            check(gui::writeExplainFigure(trace, options, QString::fromStdString(args.text(option)),
                                          svg));
    if (args.has("state-png")) {
        const replay::RunState state = replay::stateAt(trace, cursor);
        check(gui::writeStatePng(shared, state, options,
                                 QString::fromStdString(args.text("state-png"))));
    }
}

#endif

} // namespace

void writeFigureFiles(const Arguments &args, const core::Trace &trace, const FigureCaption &caption)
{
    if (!wantsFigures(args))
        return;
#ifdef RANKSTEP_CLI_FIGURES
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    int argc = 1;
    char name[] = "rankstep-cli";
    char *argv[] = {name, nullptr};
    const QGuiApplication app(argc, argv);
    drawFigures(args, trace, caption);
#else
    (void)trace;
    (void)caption;
    throw UsageError{
        "this rankstep-cli was built without the GUI (RANKSTEP_BUILD_GUI=OFF), so "
        "it cannot draw --svg, --png or --state-png"};
#endif
}

} // namespace rankstep::cli
