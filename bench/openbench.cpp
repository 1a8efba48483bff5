// SPDX-License-Identifier: MIT
// The app opening a large run, run by hand (never a test): the FSDP reference program at 1024
// ranks, 96 layers and 1024 batches (590,848 events, 1,379,328 storage changes), as the runner
// hands it over: its binary trace decoded (what RunController does off the GUI thread), then
// into the window's session and painted in a 1500×940 main window, offscreen unless
// QT_QPA_PLATFORM is set. Reports each part's median in ms; the whole should stay under 2 s
// and 500 MB, for a learner opening a large run to feel no wait.
//   rankstep_open_bench
#include "core/io/tracebinary.h"
#include "core/lessons/builtin.h"
#include "mainwindow.h"
#include "progressstore.h"
#include "runsession.h"
#include "tests/core/referencepuzzles.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using rankstep::gui::TracePtr;

constexpr int kRanks = 1024;
constexpr int kLayers = 96;

// What the runner writes with --trace-out for that run.
const std::string &encodedRun()
{
    static const std::string bytes = [] {
        rankstep::core::RunConfig config;
        config.ranks = kRanks;
        config.layers = kLayers;
        config.batches = kRanks; // FSDP gives rank r the activation of batch r
        return rankstep::io::traceToBinary(
            rankstep::testing::runProgram(config, rankstep::testing::fsdp));
    }();
    return bytes;
}

std::vector<rankstep::lessons::Lesson> builtinLessons()
{
    auto loaded = rankstep::lessons::loadLessons(rankstep::lessons::builtinLessonFiles());
    if (!loaded)
        throw std::runtime_error("built-in lessons: " + loaded.error().message);
    return std::move(*loaded);
}

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

void openLargeRun(benchmark::State &state)
{
    const std::string &bytes = encodedRun();
    QTemporaryDir dir;
    QStandardPaths::setTestModeEnabled(true);
    const QString settings = dir.filePath(QStringLiteral("settings"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings);
    rankstep::gui::ProgressStore progress(dir.filePath(QStringLiteral("code")));
    rankstep::gui::MainWindow window(builtinLessons(), progress);
    window.openLesson(QStringLiteral("fsdp"));
    window.resize(1500, 940);
    window.show();
    QCoreApplication::processEvents();
    std::vector<double> decode, show, total;
    for (auto _ : state) {
        window.parts().session->clear();
        QCoreApplication::processEvents();
        const Clock::time_point start = Clock::now();
        auto decoded = rankstep::io::traceFromBinary(bytes);
        if (!decoded) {
            state.SkipWithError(decoded.error().message.c_str());
            return;
        }
        const TracePtr trace = std::make_shared<const rankstep::core::Trace>(std::move(*decoded));
        decode.push_back(msSince(start));
        const Clock::time_point shown = Clock::now();
        window.parts().session->setTrace(trace);
        window.repaint();
        QCoreApplication::processEvents(); // what the views posted: the chart's scene, updates
        window.repaint();
        show.push_back(msSince(shown));
        total.push_back(msSince(start));
    }
    state.counters["decode_ms"] = median(decode);
    state.counters["show_ms"] = median(show);
    state.counters["total_ms"] = median(total);
    state.counters["trace_MB"] = double(bytes.size()) / 1e6;
    rankstep::bench::reportPeakMemory(state);
}

} // namespace

BENCHMARK(openLargeRun)
    ->Name("OpenLargeRun")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

int main(int argc, char **argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
