// SPDX-License-Identifier: MIT
#include "comparisonactions.h"

#include "apptempfolder.h"
#include "comparisonview.h"
#include "lessontitle.h"
#include "runcontroller.h"
#include "runsession.h"

#include <QFile>
#include <QTemporaryDir>

namespace rankstep::gui {

ComparisonActions::ComparisonActions(RunSession &session, ComparisonView &view,
                                     const std::vector<lessons::Lesson> &lessons, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_view(view)
    , m_lessons(lessons)
    , m_run(new RunController(this))
{
    connect(&m_session, &RunSession::traceChanged, this, &ComparisonActions::onTraceChanged);
    connect(&m_session, &RunSession::lessonChanged, this, &ComparisonActions::onLessonChanged);
    connect(&m_view, &ComparisonView::solutionRequested, this,
            &ComparisonActions::compareWithSolution);
    connect(&m_view, &ComparisonView::previousRunRequested, this,
            &ComparisonActions::compareWithPreviousRun);
    connect(m_run, &RunController::traceAvailable, this, [this](const TracePtr &trace) {
        m_session.setComparison(trace);
        Q_EMIT message(tr("The solution ran; the Compare tab shows it below your run."));
        Q_EMIT comparisonShown();
    });
    connect(m_run, &RunController::runFailed, this, [this](const QString &why) {
        Q_EMIT message(tr("The solution could not be run: %1").arg(why));
    });
}

ComparisonActions::~ComparisonActions() = default;

void ComparisonActions::onLessonChanged()
{
    const lessons::Lesson *current = m_session.lesson();
    QList<QPair<QString, QString>> offered;
    if (current)
        offered.append({QString::fromStdString(current->id), lessonTitle(*current)});
    for (const lessons::Lesson &lesson : m_lessons)
        if (&lesson != current && !lesson.solution.empty())
            offered.append({QString::fromStdString(lesson.id), lessonTitle(lesson)});
    m_view.setLessons(offered);
}

void ComparisonActions::onTraceChanged()
{
    // A real run shown in the views is not one of the learner's simulated runs: "the previous
    // run" stays the one before it.
    if (m_session.trace() == m_shown || m_session.units() != TraceUnits::SimulatedSteps)
        return;
    if (m_shown)
        m_previous = m_shown;
    m_shown = m_session.trace();
}

void ComparisonActions::compareWithPreviousRun()
{
    if (!m_previous) {
        Q_EMIT message(tr("There is no earlier run to compare with yet: run your code twice."));
        return;
    }
    m_session.setComparison(m_previous);
    Q_EMIT comparisonShown();
}

void ComparisonActions::compareWithSolution(const QString &lessonId)
{
    const lessons::Lesson *lesson = lessons::findLesson(m_lessons, lessonId.toStdString());
    if (!lesson || lesson->solution.empty()) {
        Q_EMIT message(tr("That lesson has no solution to compare with."));
        return;
    }
    m_folder = std::make_unique<QTemporaryDir>(appTempFolderTemplate());
    const QString path = m_folder->filePath(QString::fromStdString(lesson->id) + ".py");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(lesson->solution.data(), qint64(lesson->solution.size())) < 0) {
        Q_EMIT message(tr("The solution could not be written to %1.").arg(path));
        return;
    }
    file.close();
    RunSpec spec;
    spec.codePath = path;
    spec.function = QString::fromStdString(lesson->function);
    spec.ranks = lesson->config.ranks;
    spec.layers = lesson->config.layers;
    spec.batches = lesson->config.batches;
    spec.layout = lesson->config.layout;
    Q_EMIT message(tr("Running the solution of %1…").arg(lessonTitle(*lesson)));
    m_run->start(spec);
}

} // namespace rankstep::gui
