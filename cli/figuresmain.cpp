// SPDX-License-Identifier: MIT
// rankstep-figures: draws the figures `rankstep-cli run/lesson/explain` asks for (--svg, --png,
// --state-png, --at; explain's slide), from the binary trace on its stdin. It is a program of its
// own so that rankstep-cli, the process that hosts learners' code, links no GUI library: QtGui,
// its fonts and its platform plugins are loaded here, after the run, never beside the code.
//   rankstep-figures --title T [--memory-target B] [--svg OUT] [--png OUT] [--state-png OUT]
//                    [--at EVENT|end] [--explain-png OUT] [--explain-svg OUT] < trace.rstb
// Exit 0: drawn; 64: a usage error (bad --at), its message alone on stdout for rankstep-cli to
// pass on; 73: a file that could not be written (no part of it is left), its message likewise;
// 70: anything else, its message on stdout too. Nothing else is written to stdout (Qt's own
// messages go to stderr).
#include "arguments.h"
#include "core/io/tracebinary.h"
#include "core/replay/position.h"
#include "core/replay/replayer.h"
#include "descriptors.h"
#include "exportfiles.h"

#include <QGuiApplication>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using rankstep::cli::Arguments;
using rankstep::cli::OutputError;
using rankstep::cli::UsageError;
namespace core = rankstep::core;
namespace replay = rankstep::replay;
namespace gui = rankstep::gui;

constexpr int kUsage = 64;
constexpr int kInternal = 70;
constexpr int kCannotWrite = 73;

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
        throw OutputError{error.toStdString()};
}

QString path(const Arguments &args, const char *option)
{
    return QString::fromStdString(args.text(option));
}

void drawFigures(const Arguments &args, const std::shared_ptr<const core::Trace> &trace)
{
    const replay::StopPoints stops(*trace);
    const replay::Cursor cursor = cursorAt(args, stops);
    gui::FigureOptions options;
    options.title = QString::fromStdString(args.text("title"));
    if (args.has("memory-target"))
        options.memoryTarget =
            args.integer("memory-target", 0, std::numeric_limits<std::int64_t>::min(),
                         std::numeric_limits<std::int64_t>::max());
    if (!cursor.atEnd()) {
        options.cursor = cursor.time().value_or(core::SimTime());
        options.ghostAfter = cursor.position().events;
    }
    if (args.has("svg"))
        check(gui::writeTimelineSvg(trace, options, path(args, "svg")));
    if (args.has("png"))
        check(gui::writeTimelinePng(trace, options, path(args, "png")));
    for (const bool svg : {false, true}) // `explain --png/--svg`: the explanation slide
        if (const char *option = svg ? "explain-svg" : "explain-png"; args.has(option))
            check(gui::writeExplainFigure(*trace, options, path(args, option), svg));
    if (args.has("state-png")) {
        const replay::RunState state = replay::stateAt(*trace, cursor);
        check(gui::writeStatePng(trace, state, options, path(args, "state-png")));
    }
}

int draw(int argc, char **argv)
{
    const Arguments args(
        std::vector<std::string>(argv + 1, argv + argc),
        {"title", "memory-target", "svg", "png", "state-png", "at", "explain-png", "explain-svg"},
        {});
    const std::string bytes{std::istreambuf_iterator<char>(std::cin),
                            std::istreambuf_iterator<char>()};
    auto trace = rankstep::io::traceFromBinary(bytes);
    if (!trace)
        throw std::runtime_error("the run's trace does not read back: " + trace.error().message);
    const auto shared = std::make_shared<const core::Trace>(std::move(*trace));
    if (!std::getenv("QT_QPA_PLATFORM")) // no display needed
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    int qtArgc = 1;
    const QGuiApplication app(qtArgc, argv);
    drawFigures(args, shared);
    return 0;
}

// The message goes to rankstep-cli on a descriptor no other process gets: rankstep-cli reads
// stdout to its end, and a process Qt starts (a D-Bus daemon launched for a display) would keep
// an inherited stdout open.
int answer(int channel, int code, const std::string &message)
{
    rankstep::cli::writeFully(channel, message + "\n");
    return code;
}

} // namespace

int main(int argc, char **argv)
{
    const int channel = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    dup2(STDERR_FILENO, STDOUT_FILENO); // what Qt prints joins its warnings on stderr
    try {
        return draw(argc, argv);
    } catch (const UsageError &error) {
        return answer(channel, kUsage, error.message);
    } catch (const OutputError &error) {
        return answer(channel, kCannotWrite, error.message);
    } catch (const std::exception &error) {
        return answer(channel, kInternal, error.what());
    }
}
