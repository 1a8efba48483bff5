// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"
#include "tabs.h"
#include "windowparts.h"

#include <QMainWindow>

#include <memory>
#include <vector>

class QAction;
class QMenu;

namespace rankstep::gui {

class LessonListModel;
class ProgressStore;
class ScriptTarget;

// The window a learner opens: lessons at the left, the lesson and the editor in the middle, the
// timeline and memory chart below, results at the right. It lays the views out and builds the
// menus; each job is an actions object of its own (a lesson's run, the cost model, the class,
// files, demonstrations, ...) handed only the parts it needs, and the views follow the one
// RunSession (the run on screen) and the Appearance they are built with.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(std::vector<lessons::Lesson> lessons, ProgressStore &progress,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    bool openLesson(const QString &lessonId);
    const lessons::Lesson *currentLesson() const;
    // Shows code without saving it as the learner's (scripted screenshots); read-only with a
    // reason shown above it.
    void showScriptCode(const QString &code, const QString &readOnlyWhy = {});
    void showTab(Tab tab);
    Tab currentTab() const;
    // Shares the window out for what it shows now: a fresh lesson, a run, the state tab, a
    // presentation (called as those change; public for a scripted size).
    void arrangeViews();
    // A file or folder handed to the app (gui/app/fileactions.h).
    bool openFile(const QString &path, bool inTurn = false); // inTurn: after traces opening
    // The window's parts, for tests and scripted screenshots (windowparts.h).
    const WindowParts &parts() const { return m_parts; }
    // What scripts and recorded demonstrations do with the window.
    ScriptTarget &scriptTarget() const { return *m_script; }

public Q_SLOTS:
    void runCode();
    void stopRun(); // Esc: a run, a real run, a PyTorch lesson, a sweep, a class's grading
    void resetToStarter();

Q_SIGNALS:
    // A run of this code under this cost model started (RunController has it).
    void runStarted(const QString &code, const QString &cost);
    // A run's outcome (trace, failure or stop) has been shown.
    void runFinished();
    void lessonOpened(const QString &lessonId);
    void tabChanged(); // the tab left of the editor
    // A run was not started because the code could not be saved (why, in a sentence).
    void runRefused(const QString &why);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void buildLayout();
    void buildToolBar();
    void buildFileMenu();
    void buildTraceOpen();
    void buildRunMenu();
    void buildViewMenu();
    void buildDemonstrations();
    void connectViews();
    void showBusy();
    void keepChartHeight();
    int barsHeight() const; // the demonstration bar and the quiz above the step bar
    void updateStopAction();
    void showWaitFor();

    ProgressStore &m_progress;
    LessonListModel *m_model;
    WindowParts m_parts;
    std::unique_ptr<ScriptTarget> m_script;
    QMenu *m_fileMenu = nullptr;
    QAction *m_stopAction = nullptr;
};

} // namespace rankstep::gui
