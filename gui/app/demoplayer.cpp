// SPDX-License-Identifier: MIT
#include "demoplayer.h"

#include "appearance.h"
#include "runsession.h"
#include "tabs.h"

#include "core/io/costfile.h"

#include <QFile>

#include <algorithm>

namespace rankstep::gui {
namespace {

// A recording is text of a few kilobytes a step; this is far beyond any real one.
constexpr qint64 kMaxFileBytes = qint64(256) << 20;

} // namespace

DemoPlayer::DemoPlayer(DemoStage stage, QObject *parent)
    : QObject(parent), m_stage(std::move(stage))
{
    m_pace.setSingleShot(true);
    connect(&m_pace, &QTimer::timeout, this, [this] {
        if (m_current + 1 < count())
            next();
        else
            setPlaying(false);
    });
}

bool DemoPlayer::open(const QString &path, int first, QString *why)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = tr("Cannot read %1: %2.").arg(path, file.errorString());
        return false;
    }
    if (file.size() > kMaxFileBytes) {
        *why = tr("%1 is not a demonstration: it is larger than any recording (%2 MB).")
                   .arg(path)
                   .arg(file.size() >> 20);
        return false;
    }
    const QByteArray bytes = file.readAll();
    auto demo =
        io::demonstrationFromJson(std::string_view(bytes.constData(), bytes.size()), tabNames());
    if (!demo) {
        *why = QString::fromStdString(demo.error().message);
        return false;
    }
    return start(std::move(*demo), first, why);
}

bool DemoPlayer::start(io::Demonstration demo, int first, QString *why)
{
    const std::vector<std::string> presets = io::costPresetNames();
    for (const io::DemoRun &run : demo.runs)
        if (std::find(presets.begin(), presets.end(), run.cost) == presets.end()) {
            *why = tr("The demonstration runs its code under the cost model %1, which this "
                      "Rankstep does not have.")
                       .arg(QString::fromStdString(run.cost));
            return false;
        }
    if (!m_stage.openLesson(QString::fromStdString(demo.lesson))) {
        *why = tr("The demonstration is of the lesson %1, which this Rankstep does not have.")
                   .arg(QString::fromStdString(demo.lesson));
        return false;
    }
    m_demo = std::move(demo);
    m_traces.assign(m_demo.runs.size(), nullptr);
    m_made.assign(m_demo.runs.size(), false);
    m_shown = -1;
    m_shownRun = -2;
    m_waitingRun = -1;
    m_costBefore = m_stage.cost();
    m_active = true;
    Q_EMIT activeChanged(true);
    m_current = std::clamp(first, 0, count() - 1);
    prepare();
    return true;
}

void DemoPlayer::goTo(int step)
{
    if (!m_active)
        return;
    m_pace.stop();
    m_current = std::clamp(step, 0, count() - 1);
    if (m_waitingRun >= 0) { // a run is being made: its end prepares the step asked for last
        m_shown = -1;
        Q_EMIT waitingForRun(m_current);
        return;
    }
    prepare();
}

void DemoPlayer::prepare()
{
    const io::DemoStep &step = m_demo.steps[std::size_t(m_current)];
    if (step.run >= 0 && !m_made[std::size_t(step.run)]) {
        m_shown = -1;
        Q_EMIT waitingForRun(m_current);
        if (m_waitingRun >= 0)
            return; // one run at a time: this step is prepared when that one ends
        m_waitingRun = step.run;
        m_before = m_stage.session->trace();
        const io::DemoRun &run = m_demo.runs[std::size_t(step.run)];
        m_stage.showCode(QString::fromStdString(run.code), QString::fromStdString(run.cost),
                         readOnlyWhy(step.run));
        m_shownRun = step.run;
        m_stage.runCode();
        return;
    }
    show(m_current);
}

void DemoPlayer::onRunFinished()
{
    if (!m_active || m_waitingRun < 0)
        return;
    const std::size_t run = std::size_t(std::exchange(m_waitingRun, -1));
    const TracePtr trace = m_stage.session->trace();
    const bool made = trace && trace != std::exchange(m_before, nullptr);
    if (made) { // on screen with its code: the step shows on it
        m_traces[run] = trace;
        m_made[run] = true;
        m_shownRun = int(run);
        prepare();
        return;
    }
    // Stopped (Esc), refused or crashed: the step shows without its run, and going to a step of
    // that run again runs it again.
    m_shownRun = -2;
    if (m_demo.steps[std::size_t(m_current)].run == int(run))
        show(m_current);
    else
        prepare();
}

void DemoPlayer::show(int index)
{
    const io::DemoStep &step = m_demo.steps[std::size_t(index)];
    if (step.run != m_shownRun) {
        // Before the first run: the code the demonstration goes on to run.
        const int codeRun = step.run >= 0 ? step.run : (m_demo.runs.empty() ? -1 : 0);
        if (codeRun >= 0) {
            const io::DemoRun &run = m_demo.runs[std::size_t(codeRun)];
            m_stage.showCode(QString::fromStdString(run.code), QString::fromStdString(run.cost),
                             readOnlyWhy(codeRun));
        }
        const TracePtr trace = step.run >= 0 ? m_traces[std::size_t(step.run)] : nullptr;
        if (trace)
            m_stage.showTrace(trace);
        else
            m_stage.session->clear();
        m_shownRun = step.run;
    }
    applyStep(m_stage, step, m_stage.appearance->presenting());
    m_shown = index;
    Q_EMIT stepShown(index);
    if (m_playing) {
        if (index + 1 < count())
            m_pace.start(int(m_paceSeconds * 1000));
        else
            setPlaying(false);
    }
}

QString DemoPlayer::readOnlyWhy(int run) const
{
    return tr("A recorded demonstration: the code of its run %1 of %2, read-only and never "
              "graded. End Replay brings your own code back.")
        .arg(run + 1)
        .arg(m_demo.runs.size());
}

void DemoPlayer::setPlaying(bool playing)
{
    playing = playing && m_active;
    if (playing == m_playing)
        return;
    m_playing = playing;
    m_pace.stop();
    if (playing && m_shown >= 0) {
        if (m_shown + 1 < count())
            m_pace.start(int(m_paceSeconds * 1000));
        else // at the last step: play from the start
            goTo(0);
    }
    Q_EMIT playingChanged(m_playing);
}

void DemoPlayer::setPace(double seconds)
{
    m_paceSeconds = std::clamp(seconds, 0.05, 600.0);
}

void DemoPlayer::finish()
{
    if (!m_active)
        return;
    setPlaying(false);
    m_active = false;
    m_waitingRun = -1;
    m_traces.clear();
    m_made.clear();
    const QString lesson = QString::fromStdString(m_demo.lesson);
    m_demo = io::Demonstration();
    Q_EMIT activeChanged(false);
    m_stage.setCost(m_costBefore); // the cost model the learner had chosen
    m_stage.openLesson(lesson);    // the learner's own code, nothing of the replay left on screen
}

} // namespace rankstep::gui
