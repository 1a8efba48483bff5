// SPDX-License-Identifier: MIT
// Learner-shaped worst cases in the views, run by hand (never a test): a run arrives in the
// session (as the window hands it over after the runner) and the timeline and the memory chart
// paint it for the first time, in a 1400×700 window offscreen. Cases: a loop of 5000 forwards of
// 4 steps each (20,000 steps of simulated time), 1000 calls on each of 64 ranks, a synthetic
// FSDP-shaped trace of 1,000,000 events over 64 ranks, and a call of 2^31 steps. One case per
// process reads its peak memory:
//   for c in Loop5000 Ranks64 Million Absurd; do
//       rankstep_worstcase_bench --benchmark_filter=$c; done
#include "appearance.h"
#include "memorychart.h"
#include "peakmemory.h"
#include "runsession.h"
#include "tests/gui/support/longtraces.h"
#include "tests/io/synthetictrace.h"
#include "timelineview.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QVBoxLayout>
#include <QWidget>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

namespace {

using rankstep::gui::TracePtr;
namespace testing = rankstep::gui::testing;

// The two views of a run over one session, as the window stacks them.
struct Views {
    rankstep::gui::RunSession session;
    rankstep::gui::Appearance appearance;
    QWidget window;
    rankstep::gui::TimelineView *timeline = nullptr;
    rankstep::gui::MemoryChart *memory = nullptr;

    Views()
    {
        auto *layout = new QVBoxLayout(&window);
        timeline = new rankstep::gui::TimelineView(session, appearance);
        memory = new rankstep::gui::MemoryChart(session, appearance);
        layout->addWidget(timeline, 2);
        layout->addWidget(memory, 1);
        window.resize(1400, 700);
        window.show();
        QCoreApplication::processEvents();
    }
};

// The trace into the session, then the first paint of both views; median and worst in ms.
void firstPaint(benchmark::State &state, const std::function<TracePtr()> &make)
{
    const TracePtr trace = make();
    Views views;
    std::vector<double> ms;
    for (auto _ : state) {
        views.session.clear();
        QCoreApplication::processEvents();
        const auto start = std::chrono::steady_clock::now();
        views.session.setTrace(trace);
        views.window.repaint();
        QCoreApplication::processEvents(); // the chart's scene changes, laid out and painted
        views.window.repaint();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    std::sort(ms.begin(), ms.end());
    state.counters["median_ms"] = ms[ms.size() / 2];
    state.counters["max_ms"] = ms.back();
    state.counters["events"] = double(trace->events.size());
    state.counters["end_steps"] = trace->figures.endTime.toDouble();
    rankstep::bench::reportPeakMemory(state);
}

TracePtr loop5000()
{
    return testing::loopTrace(5000, 1, 4);
}

TracePtr ranks64()
{
    return testing::loopTrace(1000, 64, 1);
}

TracePtr million()
{
    return std::make_shared<const rankstep::core::Trace>(
        rankstep::testing::syntheticTrace(1'000'000, 1000));
}

TracePtr absurd()
{
    return testing::absurdTrace(std::int64_t(1) << 31);
}

} // namespace

BENCHMARK_CAPTURE(firstPaint, Loop5000, loop5000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(5);
BENCHMARK_CAPTURE(firstPaint, Ranks64, ranks64)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(5);
BENCHMARK_CAPTURE(firstPaint, Million, million)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK_CAPTURE(firstPaint, Absurd, absurd)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(5);

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
