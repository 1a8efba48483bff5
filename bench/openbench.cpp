// SPDX-License-Identifier: MIT
// The app opening a large run, run by hand (never a test), in two cases:
//   OpenRun/fsdp1024: the FSDP reference program at 1024 ranks, 96 layers and 1024 batches
//     (590,848 events, 1,379,328 storage changes) made in this process, encoded as the runner
//     writes it;
//   OpenRun/file: the trace named on the command line (--trace-out of a run too wide for a row
//     per rank, such as the Llama 3 layout at 16,384 ranks), decoded as it is read from the file
//     (as `rankstep --open` did before it opened on a worker; its read_ms is 0), with the Ranks
//     tab shown;
//   OpenRun/window: the same file opened as `rankstep --open` opens it (File > Open Trace: read,
//     decoded and prepared on a worker while the window answers): the time until the window has
//     painted its progress line (first_paint_ms), until the run is on screen (ready_ms), the GUI
//     thread's longest turn meanwhile (longest_turn_ms: what a click would wait) and the part
//     of the GUI thread that puts the prepared run into the session and paints it (install_ms).
// Each: decoded (what RunController does off the GUI thread), into a 1500×940 main window's
// session and painted, offscreen unless QT_QPA_PLATFORM is set; then in each step mode (time,
// operation, scheduler turn: step_, step_operation_, step_turn_) 40 steps forward from the start
// and 40 back, each with the repaint of everything it changed (wall and CPU time: on a loaded
// machine a step's wall time is mostly waiting). Reports each part's median in ms (a step's
// forward and back), a step's worst, the first step's from the start, and the peak memory. With a
// second file name, the window as painted at the end of the file's case is saved there (a PNG),
// and the window case's window 1.5 s into its open beside it (loading-SHOT.png).
//   rankstep_open_bench [benchmark options] [FILE.rstb [SHOT.png]]
#include "core/io/tracebinary.h"
#include "core/lessons/builtin.h"
#include "mainwindow.h"
#include "progressstore.h"
#include "rankoverview.h"
#include "runsession.h"
#include "stepcontroller.h"
#include "tabs.h"
#include "tests/core/referencepuzzles.h"
#include "traceloader.h"
#include "traceopenactions.h"
#include "windowparts.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using rankstep::gui::TracePtr;

std::string g_path; // the trace of the file case, from the command line
QString g_shot;     // where to save the window's picture; empty: nowhere

// What the runner writes with --trace-out for the FSDP run at 1024 × 96 × 1024.
std::string encodedFsdpRun()
{
    rankstep::core::RunConfig config;
    config.ranks = 1024;
    config.layers = 96;
    config.batches = 1024; // FSDP gives rank r the activation of batch r
    return rankstep::io::traceToBinary(
        rankstep::testing::runProgram(config, rankstep::testing::fsdp));
}

std::vector<rankstep::lessons::Lesson> builtinLessons()
{
    auto loaded = rankstep::lessons::loadLessons(rankstep::lessons::builtinLessonFiles());
    if (!loaded)
        throw std::runtime_error("built-in lessons: " + loaded.error().message);
    return std::move(*loaded);
}

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

struct Case {
    QString lesson;                   // open in the window
    bool overview = false;            // the Ranks tab shown rather than the lesson's views
    std::function<QByteArray()> read; // the trace's bytes; empty: it cannot be read
    std::string path; // instead: the file, decoded as it is read (what `rankstep --open` does)
};

void openRun(benchmark::State &state, const Case &run)
{
    QTemporaryDir dir;
    QStandardPaths::setTestModeEnabled(true);
    const QString settings = dir.filePath(QStringLiteral("settings"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings);
    rankstep::gui::ProgressStore progress(dir.filePath(QStringLiteral("code")));
    rankstep::gui::MainWindow window(builtinLessons(), progress);
    window.openLesson(run.lesson);
    window.resize(1500, 940);
    window.show();
    if (run.overview)
        window.showTab(rankstep::gui::Tab::Overview);
    QCoreApplication::processEvents();
    rankstep::gui::RunSession &session = *window.parts().session;
    std::vector<double> read, decode, show, figuresMs, steps;
    std::size_t bytes = 0;
    for (auto _ : state) {
        session.clear();
        QCoreApplication::processEvents();
        const Clock::time_point start = Clock::now();
        const QByteArray data = run.path.empty() ? run.read() : QByteArray();
        if (data.isEmpty() && run.path.empty()) {
            state.SkipWithError("cannot read the trace");
            return;
        }
        bytes = run.path.empty() ? std::size_t(data.size())
                                 : std::size_t(QFileInfo(QString::fromStdString(run.path)).size());
        read.push_back(msSince(start));
        const Clock::time_point decoding = Clock::now();
        auto decoded =
            run.path.empty()
                ? rankstep::io::traceFromBinary(std::string_view(data.constData(), bytes))
                : rankstep::io::traceFromBinaryFile(run.path);
        if (!decoded) {
            state.SkipWithError(decoded.error().message.c_str());
            return;
        }
        const TracePtr trace = std::make_shared<const rankstep::core::Trace>(std::move(*decoded));
        decode.push_back(msSince(decoding));
        const Clock::time_point shown = Clock::now();
        session.setTrace(trace);
        const Clock::time_point figures = Clock::now();
        if (run.overview)
            window.parts().rankOverview->heat();
        figuresMs.push_back(msSince(figures));
        window.repaint();
        QCoreApplication::processEvents(); // what the views posted: the chart's scene, updates
        window.repaint();
        show.push_back(msSince(shown));
    }
    // Steps from the start in each mode, 40 forward and 40 back, each with its repaint.
    using StepMode = rankstep::gui::StepController::StepMode;
    rankstep::gui::StepController &stepper = session.stepper();
    const std::pair<const char *, StepMode> modes[] = {
        {"", StepMode::Time}, {"operation_", StepMode::Operation}, {"turn_", StepMode::Slice}};
    for (const auto &[name, mode] : modes) {
        stepper.setStepMode(mode);
        stepper.home();
        QCoreApplication::processEvents();
        window.repaint();
        // What going home left posted (the time axes aligned again after the views' new sizes)
        // runs here, as the app's event loop runs it at once: it is the home step's, not the
        // first timed step's.
        QCoreApplication::processEvents();
        window.repaint();
        const auto timed = [&](void (rankstep::gui::StepController::*step)()) {
            const Clock::time_point start = Clock::now();
            const double cpuStart = cpuMs();
            (stepper.*step)();
            QCoreApplication::processEvents();
            window.repaint();
            return std::pair(msSince(start), cpuMs() - cpuStart);
        };
        std::vector<double> wall, cpu, backWall, backCpu;
        for (int i = 0; i < 40; ++i) {
            const auto [ms, cpuTaken] = timed(&rankstep::gui::StepController::next);
            wall.push_back(ms);
            cpu.push_back(cpuTaken);
        }
        for (int i = 0; i < 40; ++i) {
            const auto [ms, cpuTaken] = timed(&rankstep::gui::StepController::previous);
            backWall.push_back(ms);
            backCpu.push_back(cpuTaken);
        }
        const std::string prefix = std::string("step_") + name;
        if (mode == StepMode::Time)
            steps = wall; // step_ms: the time steps' wall time, as it was named before
        state.counters[prefix + "first_cpu_ms"] = cpu.front();
        state.counters[prefix + "cpu_ms"] = median(cpu);
        state.counters[prefix + "worst_cpu_ms"] = *std::max_element(cpu.begin(), cpu.end());
        state.counters[prefix + "back_cpu_ms"] = median(backCpu);
        state.counters[prefix + "back_worst_cpu_ms"] =
            *std::max_element(backCpu.begin(), backCpu.end());
        state.counters[prefix + "worst_ms"] = *std::max_element(wall.begin(), wall.end());
        state.counters[prefix + "back_worst_ms"] =
            *std::max_element(backWall.begin(), backWall.end());
    }
    if (!g_shot.isEmpty()) { // the picture after the 40 time steps
        stepper.setStepMode(StepMode::Time);
        stepper.home();
        for (int i = 0; i < 40; ++i)
            stepper.next();
        QCoreApplication::processEvents();
    }
    if (run.overview && !g_shot.isEmpty()) { // stage 3 opened, its first rank chosen mid-run
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
    if (run.overview)
        state.counters["overview_figures_ms"] = median(figuresMs);
    state.counters["show_ms"] = median(show);
    state.counters["step_ms"] = median(steps);
    state.counters["trace_MB"] = double(bytes) / 1e6;
    rankstep::bench::reportPeakMemory(state);
}

void openFsdp(benchmark::State &state)
{
    static const std::string bytes = encodedFsdpRun(); // made once, outside the timing
    openRun(state,
            Case{QStringLiteral("fsdp"),
                 false,
                 [] { return QByteArray::fromRawData(bytes.data(), qsizetype(bytes.size())); },
                 {}});
}

void openFile(benchmark::State &state)
{
    openRun(state, Case{QStringLiteral("pipeline_fsdp_groups"), true, {}, g_path});
}

// The file opened as the window opens it: on the worker, the GUI thread free meanwhile.
void openFileInWindow(benchmark::State &state)
{
    QTemporaryDir dir;
    QStandardPaths::setTestModeEnabled(true);
    const QString settings = dir.filePath(QStringLiteral("settings"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings);
    rankstep::gui::ProgressStore progress(dir.filePath(QStringLiteral("code")));
    rankstep::gui::MainWindow window(builtinLessons(), progress);
    window.resize(1500, 940);
    window.show();
    window.showTab(rankstep::gui::Tab::Overview);
    QCoreApplication::processEvents();
    rankstep::gui::RunSession &session = *window.parts().session;
    rankstep::gui::TraceLoader &loader = window.parts().traceOpen->loader();
    std::vector<double> firstPaint, ready, longest, install;
    for (auto _ : state) {
        session.clear();
        QCoreApplication::processEvents();
        const Clock::time_point start = Clock::now();
        window.openFile(QString::fromStdString(g_path));
        window.repaint(); // with the progress line
        firstPaint.push_back(msSince(start));
        if (!g_shot.isEmpty() && firstPaint.size() == 1) { // while the worker reads
            QTimer::singleShot(1500, &window, [&window] {
                const QFileInfo shot(g_shot);
                window.grab().save(
                    shot.dir().filePath(QStringLiteral("loading-") + shot.fileName()));
            });
        }
        double longestTurn = 0;
        Clock::time_point lastTurn = Clock::now();
        Clock::time_point prepared = Clock::now();
        QTimer turns;
        turns.setInterval(0);
        QObject::connect(&turns, &QTimer::timeout, [&] {
            longestTurn = std::max(longestTurn, msSince(lastTurn));
            lastTurn = Clock::now();
        });
        QEventLoop loop;
        const auto busy =
            QObject::connect(&loader, &rankstep::gui::TraceLoader::busyChanged, [&](bool working) {
                if (working)
                    return;
                turns.stop();
                prepared = Clock::now();
            });
        const auto opened =
            QObject::connect(&session, &rankstep::gui::RunSession::openingChanged, [&] {
                if (session.opening().isEmpty())
                    loop.quit();
            });
        turns.start();
        loop.exec();
        window.repaint();
        ready.push_back(msSince(start));
        install.push_back(msSince(prepared));
        longest.push_back(longestTurn);
        QObject::disconnect(busy);
        QObject::disconnect(opened);
        if (!session.trace()) {
            state.SkipWithError("the file could not be opened");
            return;
        }
    }
    state.counters["first_paint_ms"] = median(firstPaint);
    state.counters["ready_ms"] = median(ready);
    state.counters["longest_turn_ms"] = median(longest);
    state.counters["install_ms"] = median(install);
    rankstep::bench::reportPeakMemory(state);
}

} // namespace

int main(int argc, char **argv)
{
    // Offscreen on a screen of 1500×940: on the platform's small default screen the window
    // stays at its smallest size instead, and a step that widens a label widens the window, its
    // views, and realigns the time axes (a step that costs what no step in the app does).
    QTemporaryDir screenDir;
    if (!std::getenv("QT_QPA_PLATFORM")) {
        const QString screen = screenDir.filePath(QStringLiteral("screen.json"));
        QFile file(screen);
        if (file.open(QIODevice::WriteOnly))
            file.write(R"({"screens":[{"name":"s","x":0,"y":0,"width":1500,"height":940,)"
                       R"("logicalDpi":96,"logicalBaseDpi":96,"dpr":1}]})");
        file.close();
        setenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + screen.toStdString()).c_str(), 1);
    }
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (argc > 3) {
        fprintf(stderr, "usage: rankstep_open_bench [benchmark options] [FILE.rstb [SHOT.png]]\n");
        return 1;
    }
    benchmark::RegisterBenchmark("OpenRun/fsdp1024", openFsdp)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
    if (argc >= 2) {
        g_path = argv[1];
        if (argc == 3)
            g_shot = QString::fromLocal8Bit(argv[2]);
        benchmark::RegisterBenchmark("OpenRun/file", openFile)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->Iterations(2);
        benchmark::RegisterBenchmark("OpenRun/window", openFileInWindow)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->Iterations(2);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
