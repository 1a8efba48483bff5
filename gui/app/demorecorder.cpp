// SPDX-License-Identifier: MIT
#include "demorecorder.h"

#include "runsession.h"

#include <algorithm>
#include <array>

namespace rankstep::gui {
namespace {

// Of changes that arrive together, the step is named after the first of these.
constexpr std::array kPriority = {"run",   "lesson", "step", "tab",
                                  "ranks", "select", "view", "zoom"};

int priority(const QString &change)
{
    const auto *found = std::find_if(kPriority.begin(), kPriority.end(), [&](const char *name) {
        return change == QLatin1String(name);
    });
    return int(found - kPriority.begin());
}

// Changes of a drag or of zooming in a row: one step while they keep coming.
constexpr qint64 kCoalesceMs = 800;

} // namespace

DemoRecorder::DemoRecorder(DemoStage stage, QObject *parent)
    : QObject(parent), m_stage(std::move(stage))
{
    m_idle.setSingleShot(true);
    m_idle.setInterval(0);
    connect(&m_idle, &QTimer::timeout, this, &DemoRecorder::takeStep);
}

bool DemoRecorder::start(const QString &lastRunCode, const QString &lastRunCost)
{
    const QString lesson = m_stage.lessonId();
    if (lesson.isEmpty())
        return false;
    m_demo = io::Demonstration();
    m_demo.lesson = lesson.toStdString();
    m_run = -1;
    m_pendingRun.reset();
    m_pendingChange.clear();
    if (m_stage.session->trace() && !lastRunCode.isEmpty()) {
        m_demo.runs.push_back({lastRunCode.toStdString(), lastRunCost.toStdString()});
        m_run = 0;
    }
    m_runTrace = m_run >= 0 ? m_stage.session->trace() : nullptr;
    m_recording = true;
    m_demo.steps.push_back(captureStep(m_stage, m_run, "lesson"));
    m_sinceStep.start();
    Q_EMIT stepsChanged(stepCount(), true);
    return true;
}

io::Demonstration DemoRecorder::stop()
{
    if (m_idle.isActive()) {
        m_idle.stop();
        takeStep();
    }
    m_recording = false;
    m_pendingRun.reset();
    m_runTrace = nullptr;
    return std::exchange(m_demo, io::Demonstration());
}

void DemoRecorder::setCaption(const QString &text)
{
    if (m_recording && !m_demo.steps.empty())
        m_demo.steps.back().caption =
            text.left(int(io::kMaxDemonstrationCaption / 4)).toStdString();
}

void DemoRecorder::onRunStarted(const QString &code, const QString &cost)
{
    if (m_recording)
        m_pendingRun = PendingRun{code, cost, m_stage.session->trace()};
}

void DemoRecorder::onRunFinished()
{
    if (!m_recording || !m_pendingRun)
        return;
    const PendingRun run = *std::exchange(m_pendingRun, std::nullopt);
    // A run that failed or was stopped leaves the trace before it on screen: nothing to replay.
    if (!m_stage.session->trace() || m_stage.session->trace() == run.before)
        return;
    if (m_demo.runs.size() >= io::kMaxDemonstrationRuns)
        return;
    m_demo.runs.push_back({run.code.toStdString(), run.cost.toStdString()});
    m_run = int(m_demo.runs.size()) - 1;
    m_runTrace = m_stage.session->trace();
    noteChange(QStringLiteral("run"));
}

void DemoRecorder::noteChange(const QString &change)
{
    if (!m_recording)
        return;
    if (m_pendingChange.isEmpty() || priority(change) < priority(m_pendingChange))
        m_pendingChange = change;
    m_idle.start();
}

void DemoRecorder::takeStep()
{
    const QString change = std::exchange(m_pendingChange, QString());
    if (!m_recording || change.isEmpty() || m_demo.steps.size() >= io::kMaxDemonstrationSteps)
        return;
    // Another lesson opened: what is on screen is not of this demonstration (it ends now).
    if (m_stage.lessonId().toStdString() != m_demo.lesson)
        return;
    // A trace the recording cannot make again (a What if setting, a run on real processes, a
    // file) is not recorded; the steps go on once a recorded run is back on screen.
    if (m_stage.session->trace() && m_stage.session->trace() != m_runTrace)
        return;
    io::DemoStep step = captureStep(m_stage, m_run, change.toStdString());
    io::DemoStep &last = m_demo.steps.back();
    if (sameView(step, last))
        return;
    const bool drag = (change == QLatin1String("view") || change == QLatin1String("zoom")) &&
                      last.change == step.change && m_sinceStep.elapsed() < kCoalesceMs;
    m_sinceStep.start();
    if (drag) {
        step.caption = last.caption;
        last = std::move(step);
        Q_EMIT stepsChanged(stepCount(), false);
        return;
    }
    m_demo.steps.push_back(std::move(step));
    Q_EMIT stepsChanged(stepCount(), true);
}

} // namespace rankstep::gui
