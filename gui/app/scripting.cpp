// SPDX-License-Identifier: MIT
#include "scripting.h"

#include "appearance.h"
#include "classactions.h"
#include "comparisonactions.h"
#include "costmodelactions.h"
#include "demoactions.h"
#include "experimentsview.h"
#include "explainview.h"
#include "gradecontroller.h"
#include "helpactions.h"
#include "lessonrunactions.h"
#include "memorychart.h"
#include "notebookimport.h"
#include "presentation.h"
#include "quizcontroller.h"
#include "realrunactions.h"
#include "realruncontroller.h"
#include "runsession.h"
#include "scripttarget.h"
#include "stateview.h"
#include "stepcontroller.h"
#include "whatifview.h"
#include "windowdescription.h"
#include "zoom.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDialog>
#include <QEvent>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QPainter>
#include <QSaveFile>
#include <QTimer>

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

namespace rankstep::gui {
namespace {

void showTab(ScriptTarget &target, const QString &name)
{
    if (const auto tab = tabFromName(name))
        target.showTab(*tab);
}

// What a script takes once the window shows what it asked for: the screenshot, and what the
// window shows as JSON (--describe), at the same moment.
struct Capture {
    ScriptTarget *target = nullptr;
    QString screenshot, describe;
    bool wanted() const { return !screenshot.isEmpty() || !describe.isEmpty(); }
};

Capture captureOf(const QCommandLineParser &parser, const ScriptOptions &o, ScriptTarget &target)
{
    return Capture{&target, parser.value(o.screenshot), parser.value(o.describe)};
}

// False (after saying why) when a file could not be written.
bool takeCapture(const Capture &capture)
{
    QWidget &window = capture.target->window();
    bool ok = true;
    capture.target->finishViews();
    // The picture first: painting it is what every view notes what it cut at (a view resized by
    // the last arrangement had not painted yet, and the description missed the state key's
    // shortened names).
    const QImage shot = grabWithDialogs(&window);
    if (!capture.describe.isEmpty()) {
        const QJsonObject description = describeWindow(window, capture.target->session().stepper());
        QSaveFile file(capture.describe);
        if (!file.open(QIODevice::WriteOnly) ||
            file.write(QJsonDocument(description).toJson(QJsonDocument::Indented)) < 0 ||
            !file.commit()) {
            std::fprintf(stderr, "rankstep: cannot write the description to %s\n",
                         qPrintable(capture.describe));
            ok = false;
        }
    }
    if (!capture.screenshot.isEmpty() && !shot.save(capture.screenshot)) {
        std::fprintf(stderr, "rankstep: cannot write screenshot to %s\n",
                     qPrintable(capture.screenshot));
        ok = false;
    }
    return ok;
}

void saveAndQuit(const Capture &capture)
{
    // Let layouts, the chart and any dialog settle and paint first.
    QTimer::singleShot(400, &capture.target->window(),
                       [capture] { QCoreApplication::exit(takeCapture(capture) ? 0 : 1); });
}

// --sweep FIELDS [--sweep-open N] [--run]: the sweep, after the run when there is one, then the
// screenshot of the What if tab (or --tab) once it ended.
bool startSweep(const QCommandLineParser &parser, const ScriptOptions &o, ScriptTarget &target)
{
    WhatIfView *whatIf = &target.whatIf();
    QWidget &window = target.window();
    QString why;
    if (!whatIf->setFields(parser.value(o.sweep), &why)) {
        std::fprintf(stderr, "rankstep: --sweep: %s\n", qPrintable(why));
        return false;
    }
    bool numbered = true;
    const int open = parser.isSet(o.sweepOpen) ? parser.value(o.sweepOpen).toInt(&numbered) : -1;
    if (!numbered || (parser.isSet(o.sweepOpen) && open < 0)) {
        std::fprintf(stderr, "rankstep: --sweep-open wants a setting's number, from 0\n");
        return false;
    }
    const Capture shot = captureOf(parser, o, target);
    const QString tab =
        parser.value(o.tab).isEmpty() ? QStringLiteral("whatif") : parser.value(o.tab);
    QObject::connect(whatIf, &WhatIfView::sweepFinished, &window,
                     [&target, &window, whatIf, open, tab, shot] {
                         const std::vector<io::SweepRow> &rows = whatIf->rows();
                         for (std::size_t i = 0; i < rows.size(); ++i)
                             if (rows[i].index == open)
                                 whatIf->openRow(int(i));
                         showTab(target, tab);
                         if (shot.wanted())
                             saveAndQuit(shot);
                     });
    if (parser.isSet(o.run)) {
        QObject::connect(&target.lessonRun(), &LessonRunActions::runFinished, whatIf,
                         &WhatIfView::runSweep, Qt::SingleShotConnection);
        QTimer::singleShot(0, &target.lessonRun(), &LessonRunActions::run);
    } else {
        QTimer::singleShot(0, whatIf, &WhatIfView::runSweep);
    }
    return true;
}

// --replay FILE [--step N|end]: the demonstration at that step (from 1), then the screenshot.
bool startReplay(const QCommandLineParser &parser, const ScriptOptions &o, ScriptTarget &target)
{
    QWidget &window = target.window();
    const QString step = parser.value(o.step);
    bool numbered = true;
    const int number = step.isEmpty() || step == QStringLiteral("end") ? 1 : step.toInt(&numbered);
    if (!numbered || number < 1) {
        std::fprintf(stderr,
                     "rankstep: with --replay, --step wants a step's number from 1, or "
                     "'end'\n");
        return false;
    }
    DemoActions *demos = &target.demonstrations();
    const Capture shot = captureOf(parser, o, target);
    QObject::connect(&demos->player(), &DemoPlayer::stepShown, &window, [shot] {
        if (shot.wanted())
            saveAndQuit(shot);
    });
    QString why;
    const int first = step == QStringLiteral("end") ? std::numeric_limits<int>::max() : number - 1;
    if (!demos->replay(parser.value(o.replay), first, &why)) {
        std::fprintf(stderr, "rankstep: --replay: %s\n", qPrintable(why));
        return false;
    }
    return true;
}

// --class FOLDER [--class-open LEARNER:LESSON]: the roster, then that cell's run, then the
// screenshot.
bool startClass(const QCommandLineParser &parser, const ScriptOptions &o, ScriptTarget &target)
{
    QWidget &window = target.window();
    ClassActions &classes = target.classes();
    const QString open = parser.value(o.classOpen);
    if (parser.isSet(o.classOpen) && open.count(QLatin1Char(':')) != 1) {
        std::fprintf(stderr, "rankstep: --class-open wants learner:lesson\n");
        return false;
    }
    const Capture shot = captureOf(parser, o, target);
    const auto done = [shot] {
        if (shot.wanted())
            saveAndQuit(shot);
    };
    QObject::connect(&classes.grading(), &GradeController::failed, &window, done);
    QObject::connect(
        &classes.grading(), &GradeController::finished, &window,
        [&target, &classes, open, done](const ClassRoster &roster) {
            if (open.isEmpty())
                return done();
            const QString learner = open.section(QLatin1Char(':'), 0, 0);
            const QString lesson = open.section(QLatin1Char(':'), 1);
            const int column = int(roster.lessons.indexOf(lesson));
            for (const ClassRoster::Learner &each : roster.learners)
                if (each.name == learner && column >= 0) {
                    const QString file = each.cells[std::size_t(column)].file;
                    QObject::connect(&target.lessonRun(), &LessonRunActions::runFinished,
                                     &target.window(), done, Qt::SingleShotConnection);
                    if (classes.openSubmission(learner, lesson, file))
                        return;
                }
            std::fprintf(stderr, "rankstep: --class-open: no cell %s\n", qPrintable(open));
            QCoreApplication::exit(1);
        });
    classes.openFolder(parser.value(o.classFolder));
    return true;
}

// Milliseconds since this process started (from /proc/self/stat, at the kernel's 10 ms
// resolution), -1 when unknown.
double msSinceProcessStart()
{
    std::ifstream in("/proc/self/stat");
    const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream fields(stat.substr(close + 2)); // field 3 (state) onwards
    std::string field;
    for (int i = 3; i < 22 && fields >> field; ++i) {
    }
    unsigned long long startTicks = 0;
    if (!(fields >> startTicks))
        return -1;
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    const double nowMs = double(now.tv_sec) * 1000.0 + double(now.tv_nsec) / 1e6;
    return nowMs - double(startTicks) * 1000.0 / double(sysconf(_SC_CLK_TCK));
}

// Once the window's first paint is done: prints how long after the process start, then exits.
class FirstPaintProbe : public QObject
{
public:
    explicit FirstPaintProbe(QWidget *window) : QObject(window)
    {
        window->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && !m_seen) {
            m_seen = true;
            // Queued: runs after this paint, and the children's in the same frame, are done.
            QTimer::singleShot(0, this, [] {
                std::printf("first paint: %.0f ms after the process started\n",
                            msSinceProcessStart());
                std::fflush(stdout);
                QCoreApplication::exit(0);
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool m_seen = false;
};

// "end" or a count of steps.
bool isStep(const QString &step)
{
    bool ok = false;
    return step == QStringLiteral("end") || (step.toInt(&ok) >= 0 && ok);
}

// The step mode `--step-by name` names; none for another name.
std::optional<StepController::StepMode> stepMode(const QString &name)
{
    if (name == QStringLiteral("snapshot"))
        return StepController::StepMode::Snapshot;
    if (name == QStringLiteral("operation"))
        return StepController::StepMode::Operation;
    if (name == QStringLiteral("turn") || name == QStringLiteral("slice"))
        return StepController::StepMode::Slice;
    if (name == QStringLiteral("time"))
        return StepController::StepMode::Time;
    return std::nullopt;
}

// --theme, --colorblind, --zoom and --presentation; false (after saying why) on a bad value.
bool applyLook(const QCommandLineParser &parser, const ScriptOptions &o, ScriptTarget &target)
{
    Appearance &look = target.appearance();
    if (parser.isSet(o.theme)) {
        const auto theme = themeFromName(parser.value(o.theme));
        if (!theme) {
            std::fprintf(stderr, "rankstep: --theme wants system, light, dark or high-contrast\n");
            return false;
        }
        look.setTheme(*theme);
    }
    if (parser.isSet(o.colorBlind))
        look.setColorBlindSafe(true);
    if (parser.isSet(o.presentation))
        target.presentation().setActive(true);
    if (parser.isSet(o.zoom)) {
        bool ok = false;
        const double zoom = parser.value(o.zoom).toDouble(&ok);
        if (!ok || zoom < kMinZoom || zoom > kMaxZoom) {
            std::fprintf(stderr, "rankstep: --zoom wants a factor from %g to %g\n", kMinZoom,
                         kMaxZoom);
            return false;
        }
        look.setZoom(zoom);
    }
    if (parser.isSet(o.size)) {
        const QStringList parts = parser.value(o.size).split(QLatin1Char('x'));
        bool okWidth = false, okHeight = false;
        const int width = parts.size() == 2 ? parts[0].toInt(&okWidth) : 0;
        const int height = parts.size() == 2 ? parts[1].toInt(&okHeight) : 0;
        if (!okWidth || !okHeight || width < 320 || height < 240 || width > 8192 || height > 8192) {
            std::fprintf(stderr, "rankstep: --size wants <width>x<height>, e.g. 1280x800\n");
            return false;
        }
        target.window().setGeometry(0, 0, width, height);
        QCoreApplication::processEvents(); // laid out at that size before the views are arranged
        target.arrangeViews();
    }
    return true;
}

} // namespace

ScriptOptions addScriptOptions(QCommandLineParser &parser)
{
    ScriptOptions o{
        {QStringLiteral("lesson"),
         QCoreApplication::translate("Options", "Open the lesson <name>."), QStringLiteral("name")},
        {QStringLiteral("code"),
         QCoreApplication::translate("Options", "Show the code in <file> (not saved as yours)."),
         QStringLiteral("file")},
        {QStringLiteral("run"),
         QCoreApplication::translate("Options", "Run the code once the window is up.")},
        {QStringLiteral("screenshot"),
         QCoreApplication::translate(
             "Options",
             "Save the window as an image to <file> (after the run, with --run) and exit."),
         QStringLiteral("file")},
        {QStringLiteral("describe"),
         QCoreApplication::translate(
             "Options",
             "When the screenshot is taken (or would be), write what the window shows to <file> "
             "as JSON: its size, the cursor, each view's time and every text cut on screen."),
         QStringLiteral("file")},
        {QStringLiteral("lessons"),
         QCoreApplication::translate("Options", "Read lessons from <dir> (for lesson authors)."),
         QStringLiteral("dir")},
        {QStringLiteral("step"),
         QCoreApplication::translate(
             "Options",
             "After --run or --open, stand <n> operation steps from the start, or at the end."),
         QStringLiteral("n|end")},
        {QStringLiteral("step-by"),
         QCoreApplication::translate("Options",
                                     "Count --step in <mode>: snapshot (each draw()), operation, "
                                     "turn (the scheduler's), time."),
         QStringLiteral("mode")},
        {QStringLiteral("import"),
         QCoreApplication::translate(
             "Options", "Import the puzzle functions of <file> (a notebook or .py) as your code."),
         QStringLiteral("file")},
        {QStringLiteral("tab"),
         // The names in the description, which the help wraps, not in the value's column.
         QCoreApplication::translate(
             "Options", "Before the screenshot, show the tab <name> left of the editor.") +
             QStringLiteral(" <name>: %1.")
                 .arg(tabNameList(QStringLiteral(", "), QStringLiteral(", "))),
         QStringLiteral("name")},
        {QStringLiteral("quit-after-first-paint"),
         QCoreApplication::translate(
             "Options", "Print when the window first painted, after the process start, and exit.")},
        {QStringLiteral("presentation"),
         QCoreApplication::translate("Options", "Start in presentation mode (F11).")},
        {QStringLiteral("zoom"),
         QCoreApplication::translate("Options", "Zoom every view by <factor> (1 is actual size)."),
         QStringLiteral("factor")},
        {QStringLiteral("theme"),
         QCoreApplication::translate("Options",
                                     "Use the theme <name>: system, light, dark or high-contrast."),
         QStringLiteral("name")},
        {QStringLiteral("colorblind"),
         QCoreApplication::translate("Options", "Use the color-blind-safe colors.")},
        {QStringLiteral("size"),
         QCoreApplication::translate("Options", "Size the window <width>x<height> pixels."),
         QStringLiteral("WxH")},
        {QStringLiteral("compare"),
         QCoreApplication::translate(
             "Options",
             "After --run, compare the run with the lesson's solution (the Compare tab)."),
         QStringLiteral("solution")},
        {QStringLiteral("highlight"),
         QCoreApplication::translate("Options",
                                     "After --run, outline <what> on the timeline: critical-path."),
         QStringLiteral("what")},
        {QStringLiteral("memory"),
         QCoreApplication::translate(
             "Options", "Draw the memory chart as the ranks' lines, or one rank by kind."),
         QStringLiteral("ranks|by-kind")},
        {QStringLiteral("real"),
         QCoreApplication::translate(
             "Options",
             "With --run, run the code for real too (Ctrl+F5, PyTorch) and take the "
             "screenshot once it ended.")},
        {QStringLiteral("show-real"),
         QCoreApplication::translate(
             "Options",
             "With --real, show the real run in the views (Ctrl+Shift+F5), its "
             "simulation in the Compare tab.")},
        {QStringLiteral("cost"),
         QCoreApplication::translate(
             "Options",
             "Run under the cost model <preset> (Run > Cost Model; docs/cost-models.md)."),
         QStringLiteral("preset")},
        {QStringLiteral("sweep"),
         QCoreApplication::translate(
             "Options",
             "Run a What if sweep of <fields> (ranks=2,4,8; batches=1,2,4,8; "
             "bandwidth=50; tensor=4,8; pipeline=8,16; cost=PRESET; show=chart|table|bubble; "
             "in a pipeline lesson "
             "compare=schedules) and take the screenshot when it ends."),
         QStringLiteral("fields")},
        {QStringLiteral("sweep-open"),
         QCoreApplication::translate(
             "Options", "After --sweep, open the run of the grid's <n>-th setting (from 0)."),
         QStringLiteral("n")},
        {QStringLiteral("replay"),
         QCoreApplication::translate(
             "Options",
             "Replay the recorded demonstration <file> (File > Replay a "
             "Demonstration); --step N starts at its step N (from 1) or its end."),
         QStringLiteral("file")},
        {QStringLiteral("quiz"),
         QCoreApplication::translate(
             "Options",
             "With --presentation and --run: ask the quiz's question about the next "
             "step (ask), or show its answer with the step (reveal)."),
         QStringLiteral("ask|reveal")},
        {QStringLiteral("class"),
         QCoreApplication::translate(
             "Options",
             "Grade the class folder <folder> into the Class tab (File > Open Class "
             "Folder) and take the screenshot when it ends."),
         QStringLiteral("folder")},
        {QStringLiteral("class-open"),
         QCoreApplication::translate(
             "Options", "After --class, open the roster's cell <learner>:<lesson> and run it."),
         QStringLiteral("learner:lesson")},
        {QStringLiteral("shortcuts"),
         QCoreApplication::translate("Options",
                                     "Open Help > Keyboard Shortcuts before the screenshot.")},
        {QStringLiteral("why-page"),
         QCoreApplication::translate("Options", "Show the Why tab's page <page>: memory or time."),
         QStringLiteral("page")}};
    parser.addOptions({o.lesson,
                       o.code,
                       o.run,
                       o.screenshot,
                       o.describe,
                       o.lessons,
                       o.step,
                       o.stepBy,
                       o.importFile,
                       o.tab,
                       o.quitAfterFirstPaint,
                       o.presentation,
                       o.zoom,
                       o.theme,
                       o.colorBlind,
                       o.size,
                       o.compare,
                       o.highlight,
                       o.memory,
                       o.real,
                       o.showReal,
                       o.cost,
                       o.sweep,
                       o.sweepOpen,
                       o.replay,
                       o.quiz,
                       o.classFolder,
                       o.classOpen,
                       o.shortcuts,
                       o.whyPage});
    return o;
}

bool startScript(const QCommandLineParser &parser, const ScriptOptions &o, ScriptTarget &target)
{
    QWidget &window = target.window();
    if (parser.isSet(o.quitAfterFirstPaint))
        new FirstPaintProbe(&window);
    if (parser.isSet(o.lesson) && !target.openLesson(parser.value(o.lesson))) {
        std::fprintf(stderr, "rankstep: there is no lesson '%s'\n",
                     qPrintable(parser.value(o.lesson)));
        return false;
    }
    if (parser.isSet(o.code)) {
        QFile file(parser.value(o.code));
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "rankstep: cannot read %s\n", qPrintable(parser.value(o.code)));
            return false;
        }
        target.showCode(QString::fromUtf8(file.readAll()), {});
    }
    if (parser.isSet(o.importFile))
        target.importNow(parser.value(o.importFile));
    if (!applyLook(parser, o, target))
        return false;
    if (parser.isSet(o.shortcuts))
        target.showShortcuts();
    const Capture shot = captureOf(parser, o, target);
    const QString step = parser.value(o.step);
    const QString tab = parser.value(o.tab);
    const QString by = parser.value(o.stepBy);
    if (parser.isSet(o.stepBy) && !stepMode(by)) {
        std::fprintf(stderr, "rankstep: --step-by wants snapshot, operation, turn or time\n");
        return false;
    }
    if (parser.isSet(o.stepBy) && step.isEmpty()) {
        std::fprintf(stderr, "rankstep: --step-by wants --step\n");
        return false;
    }
    if (!tab.isEmpty() && !tabFromName(tab)) {
        std::fprintf(stderr, "rankstep: --tab wants %s\n",
                     qPrintable(tabNameList(QStringLiteral(", "), QStringLiteral(" or "))));
        return false;
    }
    if (shot.wanted()) // the picture shows a state, not a frame of its animation
        target.stopAnimations();
    // Steps through a run: one --run makes, or a trace --open shows (opening on a worker).
    const bool stepsThrough = parser.isSet(o.run) || target.session().trace() ||
                              !target.session().opening().isEmpty() ||
                              parser.optionNames().contains(QStringLiteral("open"));
    if (!step.isEmpty() && !parser.isSet(o.replay) && (!stepsThrough || !isStep(step))) {
        std::fprintf(stderr,
                     "rankstep: --step wants --run or --open FILE, and a count of steps or "
                     "'end'\n");
        return false;
    }
    const QString quiz = parser.value(o.quiz);
    if (parser.isSet(o.quiz) &&
        (quiz != QStringLiteral("ask") && quiz != QStringLiteral("reveal"))) {
        std::fprintf(stderr, "rankstep: --quiz wants ask or reveal\n");
        return false;
    }
    if (parser.isSet(o.quiz) && (!parser.isSet(o.run) || !parser.isSet(o.presentation))) {
        std::fprintf(stderr, "rankstep: --quiz wants --run and --presentation\n");
        return false;
    }
    const bool highlight = parser.value(o.highlight) == QStringLiteral("critical-path");
    if (parser.isSet(o.highlight) && !highlight) {
        std::fprintf(stderr, "rankstep: --highlight wants critical-path\n");
        return false;
    }
    if (parser.isSet(o.whyPage)) {
        const QString page = parser.value(o.whyPage);
        if (page != QStringLiteral("memory") && page != QStringLiteral("time")) {
            std::fprintf(stderr, "rankstep: --why-page wants memory or time\n");
            return false;
        }
        if (auto *why = window.findChild<ExplainView *>())
            why->showTimePage(page == QStringLiteral("time"));
    }
    if (parser.isSet(o.memory)) {
        const QString memory = parser.value(o.memory);
        if (memory != QStringLiteral("ranks") && memory != QStringLiteral("by-kind")) {
            std::fprintf(stderr, "rankstep: --memory wants ranks or by-kind\n");
            return false;
        }
        target.setMemoryByKind(memory == QStringLiteral("by-kind"));
    }
    if (parser.isSet(o.cost)) {
        if (!target.costModel().choose(parser.value(o.cost), true)) {
            std::fprintf(stderr, "rankstep: --cost: no preset %s\n",
                         qPrintable(parser.value(o.cost)));
            return false;
        }
    }
    if (parser.isSet(o.sweep))
        return startSweep(parser, o, target);
    if (parser.isSet(o.replay))
        return startReplay(parser, o, target);
    if (parser.isSet(o.classFolder))
        return startClass(parser, o, target);
    if (parser.isSet(o.run)) {
        const bool showReal = parser.isSet(o.showReal);
        const auto onFinished = [&target, &window, shot, step, by, tab, highlight, showReal, quiz] {
            StepController &stepper = target.session().stepper();
            if (showReal && target.realRun().showRealAction()->isEnabled())
                target.realRun().showRealAction()->setChecked(true);
            if (!step.isEmpty())
                goToStep(stepper, step, by);
            if (!quiz.isEmpty()) { // the question about the next step, then its answer
                target.quiz().setEnabled(true);
                stepper.next();
                if (quiz == QStringLiteral("reveal"))
                    stepper.next();
            }
            if (highlight)
                target.showCriticalPath();
            showTab(target, tab);
            if (!shot.wanted())
                return;
            ExperimentsView *experiments = &target.experiments();
            if (tab == QStringLiteral("experiments") && experiments->isRunning())
                QObject::connect(experiments, &ExperimentsView::experimentsFinished, &window,
                                 [shot] { saveAndQuit(shot); });
            else
                saveAndQuit(shot);
        };
        if (parser.isSet(o.real)) { // the simulation starts with it; the real run ends last
            QObject::connect(&target.realRun().controller(), &RealRunController::finished, &window,
                             onFinished);
            QTimer::singleShot(0, &target.realRun(), &RealRunActions::runForReal);
            return true;
        }
        if (parser.isSet(o.compare)) { // the solution runs after the learner's, then the rest
            QObject::connect(&target.comparison(), &ComparisonActions::comparisonShown, &window,
                             onFinished);
            QObject::connect(&target.lessonRun(), &LessonRunActions::runFinished, &window,
                             [&target] {
                                 target.comparison().compareWithSolution(
                                     QString::fromStdString(target.session().lesson()->id));
                             });
        } else {
            QObject::connect(&target.lessonRun(), &LessonRunActions::runFinished, &window,
                             onFinished);
        }
        // A run the window could not start (the code could not be saved) is reported, and a
        // scripted screenshot still ends the process: with the picture of why, and exit code 1.
        QObject::connect(&target.lessonRun(), &LessonRunActions::runRefused, &window,
                         [&window, shot](QString why) {
                             std::fprintf(stderr, "rankstep: %s\n", qPrintable(why));
                             if (!shot.wanted())
                                 return;
                             QTimer::singleShot(400, &window, [shot] {
                                 takeCapture(shot);
                                 QCoreApplication::exit(1);
                             });
                         });
        QTimer::singleShot(0, &target.lessonRun(), &LessonRunActions::run);
    } else if (shot.wanted()) {
        whenOpened(target.session(), [&target, shot, step, by, tab] {
            if (!step.isEmpty() && !target.session().trace()) { // the trace could not be opened
                std::fprintf(stderr, "rankstep: --step wants --run or --open FILE\n");
                QCoreApplication::exit(64);
                return;
            }
            if (!step.isEmpty())
                goToStep(target.session().stepper(), step, by);
            showTab(target, tab);
            saveAndQuit(shot);
        });
    }
    return true;
}

void whenOpened(RunSession &session, std::function<void()> then)
{
    // Two turns of the event loop first: main.cpp opens files after a --lesson in the turn after
    // the script starts.
    QTimer::singleShot(0, &session, [&session, then] {
        QTimer::singleShot(0, &session, [&session, then] {
            if (session.opening().isEmpty()) {
                then();
                return;
            }
            auto *waiting = new QObject(&session);
            QObject::connect(
                &session, &RunSession::openingChanged, waiting, [&session, waiting, then] {
                    if (!session.opening().isEmpty())
                        return;
                    waiting->deleteLater(); // and with it this connection
                    QObject::disconnect(&session, &RunSession::openingChanged, waiting, nullptr);
                    // In the next turn: the opened run goes into the session right after.
                    QTimer::singleShot(0, &session, then);
                });
        });
    });
}

bool goToStep(StepController &stepper, const QString &step, const QString &by)
{
    StepController *controller = &stepper;
    const auto mode = stepMode(by.isEmpty() ? QStringLiteral("operation") : by);
    if (!isStep(step) || !mode)
        return false;
    // Without a mode, the end keeps the one the run chose (snapshot for a run with draws).
    if (!by.isEmpty() || step != QStringLiteral("end"))
        controller->setStepMode(*mode);
    if (step == QStringLiteral("end")) {
        controller->end();
        return true;
    }
    const int steps = step.toInt();
    controller->home();
    for (int k = 0; k < steps && !controller->atEnd(); ++k)
        controller->next();
    return true;
}

namespace {

// Counts the layout requests delivered while it lives.
class LayoutRequestCount : public QObject
{
public:
    LayoutRequestCount() { qApp->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        count += event->type() == QEvent::LayoutRequest;
        return false;
    }
};

// Lays out now what asked to be laid out: a picture taken while the requests wait in the event
// queue showed the widths of before. After --step on a wide run, the step bar's position kept the
// width of the run's end ("end of the run") and its slider was 50 px short, and the Why tab's
// time page kept the height it had before its text, its split squeezed to the title. A request
// delivered can post the next (a label's width changes its bar's, the bar's its pane's): rounds
// until one delivers none, bounded should a widget keep asking.
void applyPendingLayouts()
{
    constexpr int kRounds = 32;
    for (int round = 0; round < kRounds; ++round) {
        LayoutRequestCount delivered;
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (delivered.count == 0)
            return;
    }
}

} // namespace

QImage grabWithDialogs(QWidget *window)
{
    applyPendingLayouts();
    QImage image = window->grab().toImage();
    QPainter painter(&image);
    for (QWidget *top : QApplication::topLevelWidgets()) {
        auto *dialog = qobject_cast<QDialog *>(top);
        if (!dialog || !dialog->isVisible() || dialog->parentWidget() != window)
            continue;
        const QPoint at = dialog->frameGeometry().topLeft() - window->geometry().topLeft();
        const QPoint centered((image.width() - dialog->width()) / 2,
                              (image.height() - dialog->height()) / 3);
        const QPoint where =
            QRect(QPoint(0, 0), image.size()).contains(QRect(at, dialog->size())) ? at : centered;
        painter.fillRect(QRect(where + QPoint(4, 4), dialog->size()), QColor(0, 0, 0, 60));
        painter.drawPixmap(where, dialog->grab());
    }
    return image;
}

} // namespace rankstep::gui
