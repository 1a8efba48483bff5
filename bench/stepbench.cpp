// SPDX-License-Identifier: MIT
// A step in the app, run by hand (never a test): "a step, forward or back, anywhere in a run of
// 100,000 events, repaints within one frame (16 ms)". The FSDP reference program at 192 ranks and
// 96 layers (110,784 events) in a 1500×940 main window, offscreen unless QT_QPA_PLATFORM is set:
// a random step and the paint of everything it changed, the step alone, and each view's repaint
// alone at one cursor. Per-iteration times give the median, p99 and worst in ms.
//   rankstep_step_bench --benchmark_filter=StepAndRepaint
#include "core/lessons/builtin.h"
#include "mainwindow.h"
#include "memorychart.h"
#include "progressstore.h"
#include "runsession.h"
#include "stateview.h"
#include "stepcontroller.h"
#include "tests/core/referencepuzzles.h"
#include "timelineview.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QChartView>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

using rankstep::gui::MainWindow;
using rankstep::gui::StepController;
using rankstep::gui::TracePtr;

constexpr int kRanks = 192;
constexpr int kLayers = 96;
constexpr double kFrameMs = 16.0;

const TracePtr &largeTrace()
{
    static const TracePtr trace = [] {
        rankstep::core::RunConfig config;
        config.ranks = kRanks;
        config.layers = kLayers;
        config.batches = kRanks; // FSDP gives rank r the activation of batch r
        return std::make_shared<const rankstep::core::Trace>(
            rankstep::testing::runProgram(config, rankstep::testing::fsdp));
    }();
    return trace;
}

std::vector<rankstep::lessons::Lesson> builtinLessons()
{
    auto loaded = rankstep::lessons::loadLessons(rankstep::lessons::builtinLessonFiles());
    if (!loaded)
        throw std::runtime_error("built-in lessons: " + loaded.error().message);
    return std::move(*loaded);
}

// The app's window on the large trace, fed as MainWindow::onTraceAvailable feeds its views, shown
// with the state of every rank in the left tabs. Settings and code stay in a temporary folder.
class Fixture
{
public:
    Fixture()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString settings = m_dir.filePath(QStringLiteral("settings"));
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings);
        m_progress =
            std::make_unique<rankstep::gui::ProgressStore>(m_dir.filePath(QStringLiteral("code")));
        m_window = std::make_unique<MainWindow>(builtinLessons(), *m_progress);
        if (!m_window->openLesson(QStringLiteral("50-fsdp")))
            m_window->openLesson(QStringLiteral("fsdp"));
        m_window->resize(1500, 940);
        m_window->show();
        const TracePtr &trace = largeTrace();
        m_window->parts().session->setTrace(trace);
        if (auto *tabs = m_window->findChild<QTabWidget *>(QStringLiteral("leftTabs")))
            tabs->setCurrentWidget(m_window->parts().stateView);
        m_window->parts().stepper->toEvent(int(events() / 2));
        settle();
    }

    MainWindow &window() { return *m_window; }
    std::size_t events() const { return largeTrace()->events.size(); }

    // Until the state view's cross-fade is over and no update is pending.
    void settle()
    {
        for (int i = 0; i < 200 && m_window->parts().stateView->isAnimating(); ++i) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        }
        QCoreApplication::processEvents();
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<rankstep::gui::ProgressStore> m_progress;
    std::unique_ptr<MainWindow> m_window;
};

// Built on first use, destroyed in main before the QApplication.
std::unique_ptr<Fixture> g_fixture;

Fixture &fixture()
{
    if (!g_fixture)
        g_fixture = std::make_unique<Fixture>();
    return *g_fixture;
}

// One of: to a random event, the next operation, the previous operation (as replaybench).
void randomStep(StepController &step, std::size_t events, std::mt19937 &random)
{
    switch (random() % 3) {
        case 0:
            step.toEvent(int(random() % events));
            break;
        case 1:
            step.nextOperation();
            break;
        default:
            step.previousOperation();
            break;
    }
}

// Times body once per iteration and reports the median, p99 and worst in ms, and whether the
// median fits in one frame.
void timeEach(benchmark::State &state, const std::function<void()> &body)
{
    std::vector<double> ms;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        body();
        const std::chrono::duration<double, std::milli> took =
            std::chrono::steady_clock::now() - start;
        ms.push_back(took.count());
    }
    if (ms.empty())
        return;
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    state.counters["median_ms"] = median;
    state.counters["p99_ms"] = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
    state.counters["max_ms"] = ms.back();
    state.counters["under_16ms"] = median < kFrameMs ? 1 : 0;
    state.counters["events"] = double(largeTrace()->events.size());
    rankstep::bench::reportPeakMemory(state);
}

// range(0) 0: the event loop delivers the updates the step posted, which paints every view it
// changed (timeline, editor, chart, state view), as the app's next frame would. 1: besides, a
// synchronous window.repaint(), which repaints the window's own chrome and the state view again
// but, found here, not the timeline, the editor's or the chart's viewport.
void stepAndRepaint(benchmark::State &state)
{
    Fixture &f = fixture();
    std::mt19937 random(7);
    timeEach(state, [&] {
        randomStep(*f.window().parts().stepper, f.events(), random);
        QCoreApplication::processEvents(); // queued signals and the posted update requests
        if (state.range(0))
            f.window().repaint();
        QCoreApplication::processEvents(); // updates posted meanwhile, as the chart scene's
    });
    f.settle();
}

// range(0): 1 in the window (every view's slot runs, nothing paints), 0 a controller alone.
void stepOnly(benchmark::State &state)
{
    Fixture &f = fixture();
    StepController alone;
    StepController &step = state.range(0) ? *f.window().parts().stepper : alone;
    if (!state.range(0))
        alone.setTrace(largeTrace(), largeTrace()->figures.endTime);
    std::mt19937 random(7);
    timeEach(state, [&] {
        randomStep(step, f.events(), random);
        benchmark::DoNotOptimize(step.state().ranks.data());
    });
    f.settle();
}

// One view's repaint at a settled cursor in the middle of the run.
void paintView(benchmark::State &state, QWidget *(*view)(MainWindow &))
{
    Fixture &f = fixture();
    f.window().parts().stepper->toEvent(int(f.events() / 2));
    f.settle();
    QWidget *widget = view(f.window());
    timeEach(state, [&] { widget->repaint(); });
    state.counters["width"] = widget->width();
    state.counters["height"] = widget->height();
}

void paintTimeline(benchmark::State &state)
{
    paintView(state, [](MainWindow &w) -> QWidget * { return w.parts().timeline; });
}

// The chart's graphics view viewport: a repaint of the MemoryChart around it does not reach it.
void paintMemoryChart(benchmark::State &state)
{
    paintView(state, [](MainWindow &w) -> QWidget * {
        return w.parts().memoryChart->chartView()->viewport();
    });
}

void paintStateView(benchmark::State &state)
{
    paintView(state, [](MainWindow &w) -> QWidget * { return w.parts().stateView; });
}

// The whole window at the same cursor, for comparison with the sum of the views.
void paintWindow(benchmark::State &state)
{
    paintView(state, [](MainWindow &w) -> QWidget * { return &w; });
}

} // namespace

BENCHMARK(stepAndRepaint)
    ->Name("BM_StepAndRepaint")
    ->ArgName("forcedWindowRepaint")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(3.0);
BENCHMARK(stepOnly)
    ->Name("BM_StepOnly")
    ->ArgName("inWindow")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(paintTimeline)->Name("BM_PaintTimeline")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(paintMemoryChart)
    ->Name("BM_PaintMemoryChart")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(paintStateView)->Name("BM_PaintStateView")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(paintWindow)->Name("BM_PaintWindow")->Unit(benchmark::kMillisecond)->UseRealTime();

int main(int argc, char **argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rankstep-step-bench"));
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    g_fixture.reset();
    benchmark::Shutdown();
    return 0;
}
