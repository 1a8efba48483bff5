// SPDX-License-Identifier: MIT
// The timeline over one million events, run by hand (never a test): a synthetic FSDP-shaped trace
// of 1,000,000 events over 64 ranks (tests/io/synthetictrace.h) in a 1400×420 TimelineView,
// offscreen unless QT_QPA_PLATFORM is set, the whole run fitted into the view. First paint: after
// the session's new trace (its stop points and cursor too, as in the app); full paint: every block
// drawn again from the events (the view's cached picture dropped); cached repaint: the same frame
// again; step repaint: the cursor and the fade moved to a random event, then the repaint, as a step
// in the app does.
//   rankstep_timeline_bench
#include "appearance.h"
#include "peakmemory.h"
#include "runsession.h"
#include "tests/io/synthetictrace.h"
#include "timelineview.h"

#include <benchmark/benchmark.h>

#include <QApplication>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <vector>

namespace {

using rankstep::gui::TimelineView;
using Trace = rankstep::core::Trace;

constexpr std::size_t kEvents = 1'000'000;

const std::shared_ptr<const Trace> &millionEvents()
{
    static const std::shared_ptr<const Trace> trace =
        std::make_shared<const Trace>(rankstep::testing::syntheticTrace(kEvents, 1000));
    return trace;
}

// The session the views follow, alive as long as the program.
rankstep::gui::RunSession &session()
{
    static auto *session = new rankstep::gui::RunSession;
    return *session;
}

std::unique_ptr<TimelineView> makeView()
{
    // An appearance of the view's own, alive as long as the program.
    static auto *appearance = new rankstep::gui::Appearance;
    auto view = std::make_unique<TimelineView>(session(), *appearance);
    view->resize(1400, 420);
    view->show();
    QCoreApplication::processEvents();
    return view;
}

// Times body once per iteration; reports the median and worst in ms, and the peak memory.
void timeEach(benchmark::State &state, const std::function<void()> &body)
{
    std::vector<double> ms;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        body();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    if (ms.empty())
        return;
    std::sort(ms.begin(), ms.end());
    state.counters["median_ms"] = ms[ms.size() / 2];
    state.counters["max_ms"] = ms.back();
    state.counters["events"] = double(millionEvents()->events.size());
    rankstep::bench::reportPeakMemory(state);
}

// A new trace into the view and its first paint: layout of every rank's row and every block.
void firstPaint(benchmark::State &state)
{
    millionEvents();
    auto view = makeView();
    timeEach(state, [&] {
        session().setTrace(nullptr);
        session().setTrace(millionEvents());
        view->fitToWindow();
        view->repaint();
    });
}

// The whole run, drawn from its million events: the view's cached picture is dropped each time by
// zooming in by a hundredth of the run and out again (the whole run fills the view, so there is
// nowhere to pan).
void fullPaint(benchmark::State &state)
{
    auto view = makeView();
    session().setTrace(millionEvents());
    view->fitToWindow();
    view->repaint();
    const rankstep::core::SimTime from = view->visibleFrom();
    const rankstep::core::SimTime to = view->visibleTo();
    const int rendersBefore = view->baseRenders();
    bool shifted = false;
    timeEach(state, [&] {
        shifted = !shifted;
        const auto shift =
            rankstep::core::SimTime::fromTicks(shifted ? (to - from).ticks() / 100 : 0);
        view->setVisibleRange(from, to - shift);
        view->repaint();
    });
    state.counters["base_renders_per_paint"] =
        double(view->baseRenders() - rendersBefore) / double(state.iterations());
}

// The same frame painted again from the view's cached picture (an expose).
void cachedRepaint(benchmark::State &state)
{
    auto view = makeView();
    session().setTrace(millionEvents());
    view->fitToWindow();
    view->repaint();
    timeEach(state, [&] { view->repaint(); });
}

// A step: the cursor line and the fade of what has not happened yet move, the view repaints.
void stepRepaint(benchmark::State &state)
{
    auto view = makeView();
    const auto &trace = millionEvents();
    session().setTrace(trace);
    view->fitToWindow();
    view->repaint();
    std::mt19937 random(7);
    const int rendersBefore = view->baseRenders();
    timeEach(state, [&] {
        const std::size_t at = random() % trace->events.size();
        view->setCursorTime(trace->events[at].start);
        view->setGhostAfter(at + 1);
        view->repaint();
    });
    state.counters["base_renders_per_paint"] =
        double(view->baseRenders() - rendersBefore) / double(state.iterations());
}

} // namespace

BENCHMARK(firstPaint)->Name("BM_TimelineFirstPaint")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(fullPaint)->Name("BM_TimelineFullPaint")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(cachedRepaint)
    ->Name("BM_TimelineCachedRepaint")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(stepRepaint)
    ->Name("BM_TimelineStepRepaint")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

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
