// SPDX-License-Identifier: MIT
#include "instancechannel.h"
#include "mainwindow.h"
#include "progressstore.h"
#include "scripting.h"
#include "scripttarget.h"
#include "translations.h"

#include "core/lessons/builtin.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLoggingCategory>
#include <QMessageBox>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace {

struct LessonsToShow {
    std::vector<rankstep::lessons::Lesson> lessons;
    QString problems; // what was left out and why, naming each file and field; empty when none
};

// The lessons to show: --lessons DIR for authors (a broken folder left out, the others shown),
// else the built-in ones (also when no lesson in DIR loads).
LessonsToShow lessonsToShow(const QString &folder)
{
    using namespace rankstep::lessons;
    LessonsToShow shown;
    if (!folder.isEmpty()) {
        auto files = readLessonFolder(folder.toStdString());
        LessonSet set =
            files ? loadLessonsSkippingBroken(*files) : LessonSet{{}, {files.error().message}};
        QStringList problems;
        for (const std::string &problem : set.problems)
            problems << QString::fromStdString(problem);
        if (!set.lessons.empty()) {
            shown.lessons = std::move(set.lessons);
            if (!problems.isEmpty())
                shown.problems = QObject::tr("These lessons in %1 were left out:\n\n%2")
                                     .arg(folder, problems.join(QLatin1Char('\n')));
            return shown;
        }
        shown.problems = QObject::tr(
                             "No lesson in %1 loads:\n\n%2\n\nRankstep shows its built-in "
                             "lessons instead.")
                             .arg(folder, problems.join(QLatin1Char('\n')));
    }
    auto builtin = loadLessons(builtinLessonFiles());
    if (builtin)
        shown.lessons = std::move(*builtin);
    return shown;
}

// A dialog that does not block, so scripted screenshots and tests go on (and show it).
void showLessonProblems(QWidget *window, const QString &problems)
{
    if (problems.isEmpty())
        return;
    std::fprintf(stderr, "rankstep: %s\n", qPrintable(problems));
    auto *box =
        new QMessageBox(QMessageBox::Warning, QObject::tr("Some lessons could not be loaded"),
                        problems, QMessageBox::Ok, window);
    box->setObjectName(QStringLiteral("lessonProblemsDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace

int main(int argc, char *argv[])
{
    // A learner's terminal shows no debug lines of ours ("rankstep.child: starting ..."); a
    // developer turns them on with QT_LOGGING_RULES="rankstep.*.debug=true", whose rules Qt
    // applies after these.
    QLoggingCategory::setFilterRules(QStringLiteral("rankstep.*.debug=false"));
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Rankstep"));
    QApplication::setOrganizationName(QStringLiteral("Rankstep"));
    QApplication::setApplicationVersion(QStringLiteral(RANKSTEP_VERSION));
    // The installed icon theme's, else the drawing built in (resources/icons/rankstep.svg).
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("rankstep"),
                                                 QIcon(QStringLiteral(":/rankstep/rankstep.svg"))));
    // The installed entry is share/applications/io.github.rankstep.Rankstep.desktop, named after
    // the AppStream id (resources/io.github.rankstep.Rankstep.metainfo.xml).
    QApplication::setDesktopFileName(QStringLiteral("io.github.rankstep.Rankstep"));

    // The system's language, or the one --lang names, for the window, the options below and the
    // lessons that have a text in it (lessons/*/text.de.md).
    const QLocale locale = rankstep::gui::localeFromArguments(QCoreApplication::arguments());
    QLocale::setDefault(locale);
    rankstep::gui::installTranslations(app, locale);
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "Options", "Learn how large language models are trained on many GPUs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QCoreApplication::translate("Options",
                                    "A notebook or Python file to import, a recorded "
                                    "demonstration to replay, or a class folder to grade."),
        QStringLiteral("[file]"));
    const rankstep::gui::ScriptOptions options = rankstep::gui::addScriptOptions(parser);
    // Read above; listed here for --help and so that the parser accepts it.
    parser.addOption(QCommandLineOption(
        QStringLiteral("lang"),
        QCoreApplication::translate("Options",
                                    "Speak <language>: de (German) or en (English); the system's "
                                    "language by default."),
        QStringLiteral("language")));
    const QCommandLineOption open(
        QStringLiteral("open"),
        QCoreApplication::translate("Options",
                                    "Open <file>: a trace the command line wrote (run "
                                    "--trace-out or --json, real --json or --profile), shown "
                                    "read-only in every view; or any file [file] takes."),
        QStringLiteral("file"));
    parser.addOption(open);
    parser.process(app);
    QStringList files = parser.values(open) + parser.positionalArguments();
    // "Open with" while a window runs: that window opens them (instancechannel.h). A start with
    // script options is its own.
    const QStringList own = {QStringLiteral("open"), QStringLiteral("lang")};
    const QStringList given = parser.optionNames();
    const bool plain = std::all_of(given.begin(), given.end(),
                                   [&own](const QString &name) { return own.contains(name); });
    if (!files.isEmpty() && plain && rankstep::gui::handToRunningInstance(files))
        return 0;

    rankstep::gui::ProgressStore progress;
    progress.lock(); // held elsewhere: the window shows the code read-only and says why
    LessonsToShow lessons = lessonsToShow(parser.value(options.lessons));
    rankstep::gui::MainWindow window(std::move(lessons.lessons), progress);
    window.show();
    showLessonProblems(&window, lessons.problems);
    rankstep::gui::InstanceServer instances; // the next "Open with" comes here
    if (plain)
        instances.listen();
    rankstep::gui::openHandedFiles(instances, window);
    // "Open with Rankstep", `rankstep FILE` and --open: before a script's screenshot (which
    // waits for the traces to open), and after its --lesson, which would clear a trace shown
    // before. Each trace after the one before, not in its place.
    const auto openFiles = [&window, files] {
        for (const QString &file : files)
            window.openFile(file, true);
    };
    const bool lessonFirst = parser.isSet(options.lesson);
    if (!lessonFirst)
        openFiles();
    if (!rankstep::gui::startScript(parser, options, window.scriptTarget()))
        return 64;
    if (lessonFirst)
        QTimer::singleShot(0, &window, openFiles);
    return QApplication::exec();
}
