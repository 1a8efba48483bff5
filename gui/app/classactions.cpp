// SPDX-License-Identifier: MIT
#include "classactions.h"

#include "gradecontroller.h"
#include "rosterview.h"

#include "core/lessons/puzzleimport.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QSettings>

namespace rankstep::gui {

ClassActions::ClassActions(RosterView &roster, ClassWindow window,
                           const std::vector<lessons::Lesson> &lessons, QMenu *fileMenu,
                           QWidget *dialogParent)
    : QObject(dialogParent)
    , m_roster(roster)
    , m_window(std::move(window))
    , m_lessons(lessons)
    , m_dialogParent(dialogParent)
    , m_grading(new GradeController(this))
{
    QAction *open =
        fileMenu->addAction(tr("Open &Class Folder…"), this, &ClassActions::chooseFolder);
    open->setObjectName(QStringLiteral("openClassAction"));
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(m_grading, &GradeController::finished, &m_roster, &RosterView::setRoster);
    connect(m_grading, &GradeController::failed, &m_roster, &RosterView::showFailure);
    connect(m_grading, &GradeController::stopped, &m_roster, &RosterView::showStopped);
    connect(&m_roster, &RosterView::openFolderRequested, this, &ClassActions::chooseFolder);
    connect(&m_roster, &RosterView::gradeAgainRequested, this,
            [this] { openFolder(m_roster.folder()); });
    connect(&m_roster, &RosterView::cellActivated, this, &ClassActions::openSubmission);
}

void ClassActions::chooseFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(
        m_dialogParent, tr("Open a Class Folder"),
        QSettings().value(QStringLiteral("class/folder")).toString());
    if (!folder.isEmpty())
        openFolder(folder);
}

void ClassActions::openFolder(const QString &folder)
{
    QSettings().setValue(QStringLiteral("class/folder"), folder);
    Q_EMIT folderOpened(folder);
    m_window.showRoster();
    m_roster.showGrading(folder);
    m_grading->start(folder);
}

bool ClassActions::openSubmission(const QString &learner, const QString &lesson,
                                  const QString &file)
{
    if (!m_window.openLesson(lesson))
        return false;
    const auto imported = lessons::importPuzzleFile(file.toStdString(), m_lessons);
    const lessons::ImportedFunction *found = nullptr;
    if (imported)
        for (const lessons::ImportedFunction &function : imported->found)
            if (function.lessonId == lesson.toStdString())
                found = &function;
    if (!found) {
        Q_EMIT message(tr("%1's %2 is no longer in %3: %4")
                           .arg(learner, lesson, QDir::toNativeSeparators(file),
                                imported ? tr("the function is gone")
                                         : QString::fromStdString(imported.error().message)));
        m_window.showRoster();
        return false;
    }
    m_window.showCode(QString::fromStdString(found->code),
                      tr("%1's code for this lesson, from %2: read-only, and its runs are never "
                         "graded as yours. Open the lesson again for your own code.")
                          .arg(learner, QDir::toNativeSeparators(file)));
    m_window.showRoster();
    m_window.run();
    Q_EMIT message(tr("Running %1's %2…").arg(learner, lesson));
    return true;
}

} // namespace rankstep::gui
