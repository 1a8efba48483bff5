// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <QObject>

#include <functional>
#include <vector>

class QAction;
class QMenu;
class QWidget;

namespace rankstep::gui {

class GradeController;
class RosterView;

// What opening a learner's submission does to the window: open its lesson, show code that is
// not the teacher's own, run it, and bring the Class tab to the front.
struct ClassWindow {
    std::function<bool(const QString &lessonId)> openLesson;
    std::function<void(const QString &code, const QString &readOnlyWhy)> showCode;
    std::function<void()> run;
    std::function<void()> showRoster;
};

// File > Open Class Folder (README "Grading a class"): every learner's code in a folder graded at
// once into the Class tab (RosterView); a cell of the roster opens that learner's code,
// read-only, and runs it (never graded as the teacher's own).
class ClassActions : public QObject
{
    Q_OBJECT
public:
    // Adds Open Class Folder (object name "openClassAction") to fileMenu.
    ClassActions(RosterView &roster, ClassWindow window,
                 const std::vector<lessons::Lesson> &lessons, QMenu *fileMenu,
                 QWidget *dialogParent);

    GradeController &grading() const { return *m_grading; }
    // Grades every learner's code in `folder` into the Class tab.
    void openFolder(const QString &folder);
    // A roster cell: that learner's code for the lesson, read-only, run. False with why in the
    // status bar when the file no longer holds it.
    bool openSubmission(const QString &learner, const QString &lesson, const QString &file);
    // Asks for a folder (the last one first), then openFolder().
    void chooseFolder();

Q_SIGNALS:
    void folderOpened(const QString &folder); // File > Open Recent keeps it
    void message(const QString &text);        // for the status bar

private:
    RosterView &m_roster;
    ClassWindow m_window;
    const std::vector<lessons::Lesson> &m_lessons;
    QWidget *m_dialogParent;
    GradeController *m_grading;
};

} // namespace rankstep::gui
