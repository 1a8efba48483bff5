// SPDX-License-Identifier: MIT
#include "scripttarget.h"

#include "costmodelactions.h"
#include "explainview.h"
#include "helpactions.h"
#include "lessonrunactions.h"
#include "mainwindow.h"
#include "memorychart.h"
#include "notebookimport.h"
#include "runsession.h"
#include "stateview.h"

namespace rankstep::gui {
namespace {

class WindowScriptTarget final : public ScriptTarget
{
public:
    explicit WindowScriptTarget(MainWindow &window) : m_window(window), m_parts(window.parts()) {}

    QWidget &window() override { return m_window; }
    bool openLesson(const QString &lessonId) override { return m_window.openLesson(lessonId); }
    void showCode(const QString &code, const QString &readOnlyWhy) override
    {
        m_window.showScriptCode(code, readOnlyWhy);
    }
    Tab currentTab() override { return m_window.currentTab(); }
    void showTab(Tab tab) override { m_window.showTab(tab); }
    void arrangeViews() override { m_window.arrangeViews(); }
    void importNow(const QString &path) override
    {
        m_parts.notebookImport->importAndReportNow(path);
    }
    void showShortcuts() override { m_parts.helpActions->showShortcuts(); }
    void stopAnimations() override { m_parts.stateView->setAnimated(false); }
    void setMemoryByKind(bool byKind) override { m_parts.memoryChart->setByKind(byKind); }
    void showCriticalPath() override
    {
        m_parts.explainView->showCriticalPath(true);
        m_parts.explainView->chainList(); // made on a worker: on the timeline once this returns
    }
    void finishViews() override { m_parts.explainView->finishWork(); }

    RunSession &session() override { return *m_parts.session; }
    Appearance &appearance() override { return *m_parts.appearance; }
    PresentationMode &presentation() override { return *m_parts.presentation; }
    QuizController &quiz() override { return *m_parts.quiz; }
    CostModelActions &costModel() override { return *m_parts.costModel; }
    LessonRunActions &lessonRun() override { return *m_parts.lessonRun; }
    RealRunActions &realRun() override { return *m_parts.realRun; }
    ComparisonActions &comparison() override { return *m_parts.comparison; }
    ClassActions &classes() override { return *m_parts.classActions; }
    WhatIfView &whatIf() override { return *m_parts.whatIfView; }
    ExperimentsView &experiments() override { return *m_parts.experimentsView; }
    DemoActions &demonstrations() override { return *m_parts.demonstrations; }

private:
    MainWindow &m_window;
    const WindowParts &m_parts;
};

} // namespace

std::unique_ptr<ScriptTarget> scriptTarget(MainWindow &window)
{
    return std::make_unique<WindowScriptTarget>(window);
}

DemoStage demoStage(ScriptTarget &target)
{
    DemoStage stage;
    stage.session = &target.session();
    stage.appearance = &target.appearance();
    stage.lessonId = [&target] {
        const lessons::Lesson *lesson = target.session().lesson();
        return lesson ? QString::fromStdString(lesson->id) : QString();
    };
    stage.tab = [&target] {
        return tabName(target.currentTab());
    };
    stage.showTab = [&target](const QString &name) {
        if (const auto tab = tabFromName(name))
            target.showTab(*tab);
    };
    stage.openLesson = [&target](const QString &id) {
        return target.openLesson(id);
    };
    stage.showCode = [&target](const QString &code, const QString &cost, const QString &why) {
        if (!target.costModel().choose(cost))
            return false;
        target.showCode(code, why);
        return true;
    };
    stage.runCode = [&target] {
        target.lessonRun().run();
    };
    stage.cost = [&target] {
        return target.costModel().preset();
    };
    stage.setCost = [&target](const QString &cost) {
        target.costModel().choose(cost);
    };
    stage.showTrace = [&target](const TracePtr &trace) {
        target.lessonRun().showKeptRun(trace);
    };
    return stage;
}

} // namespace rankstep::gui
