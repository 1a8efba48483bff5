// SPDX-License-Identifier: MIT
#include "mainwindow.h"
#include "screenshot.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Rankstep"));
    QApplication::setApplicationVersion(QStringLiteral(RANKSTEP_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Learn how large language models are trained on many GPUs."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Show the window, save it as an image to <file> and exit."),
        QStringLiteral("file"));
    parser.addOption(screenshotOption);
    parser.process(app);

    rankstep::gui::MainWindow window;
    window.show();
    if (parser.isSet(screenshotOption)) {
        rankstep::gui::saveScreenshotAndQuit(&window, parser.value(screenshotOption));
    }
    return QApplication::exec();
}
