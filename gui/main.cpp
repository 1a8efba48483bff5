// SPDX-License-Identifier: MIT
#include "mainwindow.h"
#include "scripting.h"

#include "core/lessons/builtin.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>

#include <cstdio>

namespace {

// The lessons to show: --lessons DIR for authors, else the built-in ones.
std::vector<rankstep::lessons::Lesson> lessonsToShow(const QString &folder)
{
    using namespace rankstep::lessons;
    if (!folder.isEmpty()) {
        auto files = readLessonFolder(folder.toStdString());
        auto loaded = files ? loadLessons(*files) : rankstep::core::Result<std::vector<Lesson>>(files.error());
        if (loaded)
            return std::move(*loaded);
        QMessageBox::warning(nullptr, QObject::tr("The lessons could not be loaded"),
                             QObject::tr("%1\n\nRankstep shows its built-in lessons instead.")
                                 .arg(QString::fromStdString(loaded.error().message)));
    }
    auto builtin = loadLessons(builtinLessonFiles());
    return builtin ? std::move(*builtin) : std::vector<Lesson>{};
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Rankstep"));
    QApplication::setOrganizationName(QStringLiteral("Rankstep"));
    QApplication::setApplicationVersion(QStringLiteral(RANKSTEP_VERSION));
    // The installed icon theme's, else the drawing built in (resources/icons/rankstep.svg).
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral("rankstep"), QIcon(QStringLiteral(":/rankstep/rankstep.svg"))));
    QApplication::setDesktopFileName(QStringLiteral("rankstep"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Learn how large language models are trained on many GPUs."));
    parser.addHelpOption();
    parser.addVersionOption();
    const rankstep::gui::ScriptOptions options = rankstep::gui::addScriptOptions(parser);
    parser.process(app);

    rankstep::gui::ProgressStore progress;
    rankstep::gui::MainWindow window(lessonsToShow(parser.value(options.lessons)), progress);
    window.show();
    if (!rankstep::gui::startScript(parser, options, window))
        return 64;
    return QApplication::exec();
}
