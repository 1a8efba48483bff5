// SPDX-License-Identifier: MIT
// The app opening a run too wide for a row per rank, run by hand (never a test): a trace the runner
// wrote (--trace-out), read and decoded (what RunController does off the GUI thread), then into
// a 1500×940 main window's session with the Ranks tab shown and painted, offscreen unless
// QT_QPA_PLATFORM is set; then steps forward, each with the repaint of everything it changed.
// Reports each part's median in ms, a step's worst, and the peak memory.
// With a second file name, the window as painted at the end is saved there (a PNG).
//   rankstep_wide_open_bench FILE.rstb [SHOT.png]
#include "core/io/tracebinary.h"
#include "core/lessons/builtin.h"
#include "mainwindow.h"
#include "progressstore.h"
#include "rankoverview.h"
#include "runsession.h"
#include "stepcontroller.h"
#include "tabs.h"
#include "windowparts.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using rankstep::gui::TracePtr;

std::string g_path; // the trace, from the command line
QString g_shot;     // where to save the window's picture; empty: nowhere

std::vector<rankstep::lessons::Lesson> builtinLessons()
{
    auto loaded = rankstep::lessons::loadLessons(rankstep::lessons::builtinLessonFiles());
    if (!loaded)
        throw std::runtime_error("built-in lessons: " + loaded.error().message);
    return std::move(*loaded);
}

// The CPU time of this process in ms: on a loaded machine a step's wall time is mostly waiting.
double cpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
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

void openWideRun(benchmark::State &state)
{
    QTemporaryDir dir;
    QStandardPaths::setTestModeEnabled(true);
    const QString settings = dir.filePath(QStringLiteral("settings"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings);
    rankstep::gui::ProgressStore progress(dir.filePath(QStringLiteral("code")));
    rankstep::gui::MainWindow window(builtinLessons(), progress);
    window.openLesson(QStringLiteral("pipeline_fsdp_groups"));
    window.resize(1500, 940);
    window.show();
    window.showTab(rankstep::gui::Tab::Overview);
    QCoreApplication::processEvents();
    rankstep::gui::RunSession &session = *window.parts().session;
    std::vector<double> read, decode, show, figuresMs, steps, stepsCpu;
    std::size_t bytes = 0;
    for (auto _ : state) {
        session.clear();
        QCoreApplication::processEvents();
        const Clock::time_point start = Clock::now();
        QFile file(QString::fromStdString(g_path));
        if (!file.open(QIODevice::ReadOnly)) {
            state.SkipWithError("cannot read the trace named on the command line");
            return;
        }
        const QByteArray data = file.readAll();
        bytes = std::size_t(data.size());
        read.push_back(msSince(start));
        const Clock::time_point decoding = Clock::now();
        auto decoded = rankstep::io::traceFromBinary(std::string_view(data.data(), bytes));
        if (!decoded) {
            state.SkipWithError(decoded.error().message.c_str());
            return;
        }
        const TracePtr trace = std::make_shared<const rankstep::core::Trace>(std::move(*decoded));
        decode.push_back(msSince(decoding));
        const Clock::time_point shown = Clock::now();
        session.setTrace(trace);
        const Clock::time_point figures = Clock::now();
        window.parts().rankOverview->heat();
        figuresMs.push_back(msSince(figures));
        window.repaint();
        QCoreApplication::processEvents(); // what the views posted: the chart's scene, updates
        window.repaint();
        show.push_back(msSince(shown));
    }
    // Steps from the start, each with its repaint.
    session.stepper().home();
    QCoreApplication::processEvents();
    window.repaint();
    for (int i = 0; i < 40; ++i) {
        const Clock::time_point start = Clock::now();
        const double cpuStart = cpuMs();
        session.stepper().next();
        QCoreApplication::processEvents();
        window.repaint();
        steps.push_back(msSince(start));
        stepsCpu.push_back(cpuMs() - cpuStart);
    }
    if (!g_shot.isEmpty()) { // stage 3 opened, its first replica's first rank chosen mid-run
        rankstep::gui::RankOverview &overview = *window.parts().rankOverview;
        overview.toggleRow(3);
        overview.toggleRow(4);
        const int rank = overview.rows().size() > 5 ? overview.rows()[5].ranks.front() : 0;
        overview.chooseRank(rank,
                            rankstep::core::SimTime::fromTicks(session.endTime().ticks() / 2));
        window.showTab(rankstep::gui::Tab::Overview);
        QCoreApplication::processEvents();
        window.grab().save(g_shot);
    }
    state.counters["read_ms"] = median(read);
    state.counters["decode_ms"] = median(decode);
    state.counters["overview_figures_ms"] = median(figuresMs);
    state.counters["show_ms"] = median(show);
    state.counters["step_ms"] = median(steps);
    state.counters["step_cpu_ms"] = median(stepsCpu);
    state.counters["step_worst_ms"] = *std::max_element(steps.begin(), steps.end());
    state.counters["trace_MB"] = double(bytes) / 1e6;
    rankstep::bench::reportPeakMemory(state);
}

} // namespace

BENCHMARK(openWideRun)
    ->Name("OpenWideRun")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);

int main(int argc, char **argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (argc != 2 && argc != 3) {
        fprintf(stderr,
                "usage: rankstep_wide_open_bench [benchmark options] FILE.rstb [SHOT.png]\n");
        return 1;
    }
    g_path = argv[1];
    if (argc == 3)
        g_shot = QString::fromLocal8Bit(argv[2]);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
