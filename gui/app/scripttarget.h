// SPDX-License-Identifier: MIT
#pragma once

#include "demostage.h"
#include "tabs.h"

#include <QString>

#include <memory>

class QWidget;

namespace rankstep::gui {

class Appearance;
class ClassActions;
class ComparisonActions;
class CostModelActions;
class DemoActions;
class ExperimentsView;
class LessonRunActions;
class MainWindow;
class PresentationMode;
class QuizController;
class RealRunActions;
class RunSession;
class WhatIfView;

// What a script (`rankstep --lesson ... --screenshot ...`, gui/app/scripting.h) and a recorded
// demonstration (demostage.h) do with the window: the few things they set on screen, and the
// jobs whose runs they start and wait for.
class ScriptTarget
{
public:
    virtual ~ScriptTarget() = default;

    virtual QWidget &window() = 0; // what a screenshot shows
    virtual bool openLesson(const QString &lessonId) = 0;
    // Code that is not the learner's, shown without saving it; read-only for a reason when given.
    virtual void showCode(const QString &code, const QString &readOnlyWhy) = 0;
    virtual Tab currentTab() = 0;
    virtual void showTab(Tab tab) = 0;
    virtual void arrangeViews() = 0; // after --size
    virtual void importNow(const QString &path) = 0;
    virtual void showShortcuts() = 0;
    // A picture shows a state, not a frame of an animation.
    virtual void stopAnimations() = 0;
    virtual void setMemoryByKind(bool byKind) = 0;
    virtual void showCriticalPath() = 0;
    // What views still make on workers (the Why tab's texts, waits, chart), in place: a picture
    // shows them made.
    virtual void finishViews() = 0;

    virtual RunSession &session() = 0; // the run on screen, its lesson and its cursor
    virtual Appearance &appearance() = 0;
    virtual PresentationMode &presentation() = 0;
    virtual QuizController &quiz() = 0;
    virtual CostModelActions &costModel() = 0;
    virtual LessonRunActions &lessonRun() = 0;
    virtual RealRunActions &realRun() = 0;
    virtual ComparisonActions &comparison() = 0;
    virtual ClassActions &classes() = 0;
    virtual WhatIfView &whatIf() = 0;
    virtual ExperimentsView &experiments() = 0;
    virtual DemoActions &demonstrations() = 0;
};

// The window as a script's target.
std::unique_ptr<ScriptTarget> scriptTarget(MainWindow &window);
// What a demonstration reads from the window and puts back, through the target.
DemoStage demoStage(ScriptTarget &target);

} // namespace rankstep::gui
