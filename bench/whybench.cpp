// SPDX-License-Identifier: MIT
// The Why tab on a trace named on the command line (a run too wide for a row per rank, such as
// the Llama 3 layout at 16,384 ranks), run by hand (never a test), its page "Where time goes"
// shown in a 700×900 view of its own, offscreen unless QT_QPA_PLATFORM is set:
//   show_ms: the view's first show, the call itself (the rank chooser, the time per rank; the run's
//     texts, its peak rank's waits and memory by kind are made on workers);
//   show_turn_ms: the longest turn of the event loop from then until the peak rank's waits are
//     listed and the run's texts shown: what a click during the first show would wait;
//   cpu_show_turn_ms, cpu_turn_ms: the GUI thread's own CPU in the longest turn (by CPU): on a
//     loaded machine a long turn is mostly the thread waiting for a core, not its work.
//   rank_ms: a rank chosen (showRank) until its waits are listed: the median of three ranks;
//   call_ms, turn_ms: the longest the GUI thread was held from a rank's choice until its waits
//     were listed, by the call itself and by a turn of the event loop meanwhile: what a click
//     would wait; the worst of the three ranks.
// CPU time of the process beside each (cpu_ ms). The trace is decoded once, before the timing.
// With RANKSTEP_WHY_BENCH_MEMORY=1 in the environment the view shows the page "What fills memory"
// (the app's first page) and waits for its memory by kind instead of the waits.
//   rankstep_why_bench [benchmark options] FILE.rstb
#include "appearance.h"
#include "explainview.h"
#include "runsession.h"
#include "stepcontroller.h"

#include "core/io/tracebinary.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QEventLoop>
#include <QListWidget>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

std::string g_path;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double cpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

// The GUI thread's own CPU time: a turn's gap on a loaded machine is mostly the thread waiting
// for a core (the workers and other processes run), not work it does.
double threadCpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

double g_turnCpu = 0; // the longest turn's CPU of the GUI thread, of the last wait

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

// Runs the event loop until the view lists a rank's waits ("Rank 3 waited ...", "Rank 3 never
// waited ...") and has explained the run; returns its longest turn meanwhile, as the gap between a
// 2 ms timer's calls (2 ms when nothing holds the thread).
double waitUntilListed(const rankstep::gui::ExplainView &view, const QListWidget &chain)
{
    const auto listed = [&view, &chain] {
        if (std::getenv("RANKSTEP_WHY_BENCH_MEMORY"))
            return !view.isExplainingRun() && !view.isFillingChart();
        return chain.count() > 0 && chain.item(0)->text().startsWith(QStringLiteral("Rank ")) &&
               !view.isExplainingRun();
    };
    if (listed())
        return 0;
    double longest = 0;
    g_turnCpu = 0;
    Clock::time_point last = Clock::now();
    double lastCpu = threadCpuMs();
    QEventLoop loop;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(2);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        longest = std::max(longest, msSince(last));
        g_turnCpu = std::max(g_turnCpu, threadCpuMs() - lastCpu);
        last = Clock::now();
        lastCpu = threadCpuMs();
        if (listed())
            loop.quit();
    });
    tick.start();
    loop.exec();
    return longest;
}

void whyTab(benchmark::State &state)
{
    static const rankstep::gui::TracePtr trace = [] {
        auto decoded = rankstep::io::traceFromBinaryFile(g_path);
        return decoded ? std::make_shared<const rankstep::core::Trace>(std::move(*decoded))
                       : rankstep::gui::TracePtr();
    }();
    if (!trace) {
        state.SkipWithError("the file could not be read");
        return;
    }
    std::vector<double> show, showCpu, showTurns, showTurnsCpu, rank, rankCpu, calls, turns,
        turnsCpu;
    for (auto _ : state) {
        state.PauseTiming();
        rankstep::gui::RunSession session;
        rankstep::gui::Appearance appearance;
        rankstep::gui::ExplainView view(session, appearance);
        view.resize(700, 900);
        view.showTimePage(!std::getenv("RANKSTEP_WHY_BENCH_MEMORY"));
        session.setTrace(trace); // hidden: explained when shown
        // The stepper's cursor and state made first, as the window's other views make them on
        // opening: the timing is the Why tab's alone.
        while (!session.stepper().cursor() || session.stepper().trace() != trace)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        (void)session.stepper().state();
        QCoreApplication::processEvents();
        state.ResumeTiming();
        Clock::time_point start = Clock::now();
        double cpu = cpuMs();
        view.show();
        show.push_back(msSince(start));
        showCpu.push_back(cpuMs() - cpu);
        const auto *chain = view.findChild<QListWidget *>();
        showTurns.push_back(waitUntilListed(view, *chain));
        showTurnsCpu.push_back(g_turnCpu);
        const int ranks = trace->config.ranks;
        for (const int shown : {1, ranks / 2, ranks - 1}) {
            start = Clock::now();
            cpu = cpuMs();
            view.showRank(shown);
            const double call = msSince(start);
            const double turn = waitUntilListed(view, *chain);
            rank.push_back(msSince(start));
            rankCpu.push_back(cpuMs() - cpu);
            calls.push_back(call);
            turns.push_back(turn);
            turnsCpu.push_back(g_turnCpu);
        }
    }
    state.counters["show_ms"] = median(show);
    state.counters["cpu_show_ms"] = median(showCpu);
    state.counters["show_turn_ms"] = *std::max_element(showTurns.begin(), showTurns.end());
    state.counters["cpu_show_turn_ms"] =
        *std::max_element(showTurnsCpu.begin(), showTurnsCpu.end());
    state.counters["rank_ms"] = median(rank);
    state.counters["cpu_rank_ms"] = median(rankCpu);
    state.counters["call_ms"] = *std::max_element(calls.begin(), calls.end());
    state.counters["turn_ms"] = *std::max_element(turns.begin(), turns.end());
    state.counters["cpu_turn_ms"] = *std::max_element(turnsCpu.begin(), turnsCpu.end());
    rankstep::bench::reportPeakMemory(state);
}

} // namespace

int main(int argc, char **argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: rankstep_why_bench [benchmark options] FILE.rstb\n");
        return 1;
    }
    g_path = argv[1];
    benchmark::RegisterBenchmark("WhyTab/file", whyTab)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
