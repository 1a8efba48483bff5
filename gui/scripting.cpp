// SPDX-License-Identifier: MIT
#include "scripting.h"

#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDialog>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QTimer>

#include <cstdio>

namespace rankstep::gui {
namespace {

void saveAndQuit(MainWindow *window, const QString &path)
{
    // Let layouts, the chart and any dialog settle and paint first.
    QTimer::singleShot(400, window, [window, path] {
        const bool saved = grabWithDialogs(window).save(path);
        if (!saved)
            std::fprintf(stderr, "rankstep: cannot write screenshot to %s\n", qPrintable(path));
        QCoreApplication::exit(saved ? 0 : 1);
    });
}

} // namespace

ScriptOptions addScriptOptions(QCommandLineParser &parser)
{
    ScriptOptions o{
        {QStringLiteral("lesson"), QStringLiteral("Open the lesson <name>."), QStringLiteral("name")},
        {QStringLiteral("code"), QStringLiteral("Show the code in <file> (not saved as yours)."),
         QStringLiteral("file")},
        {QStringLiteral("run"), QStringLiteral("Run the code once the window is up.")},
        {QStringLiteral("screenshot"),
         QStringLiteral("Save the window as an image to <file> (after the run, with --run) and exit."),
         QStringLiteral("file")},
        {QStringLiteral("lessons"), QStringLiteral("Read lessons from <dir> (for lesson authors)."),
         QStringLiteral("dir")}};
    parser.addOptions({o.lesson, o.code, o.run, o.screenshot, o.lessons});
    return o;
}

bool startScript(const QCommandLineParser &parser, const ScriptOptions &o, MainWindow &window)
{
    if (parser.isSet(o.lesson) && !window.openLesson(parser.value(o.lesson))) {
        std::fprintf(stderr, "rankstep: there is no lesson '%s'\n", qPrintable(parser.value(o.lesson)));
        return false;
    }
    if (parser.isSet(o.code)) {
        QFile file(parser.value(o.code));
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "rankstep: cannot read %s\n", qPrintable(parser.value(o.code)));
            return false;
        }
        window.showScriptCode(QString::fromUtf8(file.readAll()));
    }
    const QString shot = parser.value(o.screenshot);
    if (parser.isSet(o.run)) {
        if (!shot.isEmpty())
            QObject::connect(&window, &MainWindow::runFinished, &window,
                             [&window, shot] { saveAndQuit(&window, shot); });
        QTimer::singleShot(0, &window, &MainWindow::runCode);
    } else if (!shot.isEmpty()) {
        saveAndQuit(&window, shot);
    }
    return true;
}

QImage grabWithDialogs(QWidget *window)
{
    QImage image = window->grab().toImage();
    QPainter painter(&image);
    for (QWidget *top : QApplication::topLevelWidgets()) {
        auto *dialog = qobject_cast<QDialog *>(top);
        if (!dialog || !dialog->isVisible() || dialog->parentWidget() != window)
            continue;
        const QPoint at = dialog->frameGeometry().topLeft() - window->geometry().topLeft();
        const QPoint centered((image.width() - dialog->width()) / 2, (image.height() - dialog->height()) / 3);
        const QPoint where = QRect(QPoint(0, 0), image.size()).contains(QRect(at, dialog->size())) ? at : centered;
        painter.fillRect(QRect(where + QPoint(4, 4), dialog->size()), QColor(0, 0, 0, 60));
        painter.drawPixmap(where, dialog->grab());
    }
    return image;
}

} // namespace rankstep::gui
