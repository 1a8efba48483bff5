// SPDX-License-Identifier: MIT
#include "fileactions.h"

#include "classactions.h"
#include "demoactions.h"
#include "notebookimport.h"
#include "recentfiles.h"
#include "traceopenactions.h"
#include "traceopener.h"

#include "core/regularfile.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QUrl>

#include <algorithm>
#include <cstdio>

namespace rankstep::gui {

FileActions::FileActions(ClassActions &classes, NotebookImport &import, DemoActions &demos,
                         TraceOpenActions &traces, QMenu *fileMenu, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_classes(classes)
    , m_import(import)
    , m_demos(demos)
    , m_traces(traces)
    , m_dialogParent(dialogParent)
    , m_recent(new RecentFiles(
          fileMenu, [this](const QString &path) { openFile(path); }, this))
{
    connect(m_recent, &RecentFiles::message, this, &FileActions::message);
    connect(&m_import, &NotebookImport::fileRead, m_recent, &RecentFiles::add);
    connect(&m_demos, &DemoActions::replayed, m_recent, &RecentFiles::add);
    connect(&m_classes, &ClassActions::folderOpened, m_recent, &RecentFiles::add);
    connect(&m_traces, &TraceOpenActions::opened, m_recent, &RecentFiles::add);
    fileMenu->addSeparator();
    QAction *quit = fileMenu->addAction(tr("&Quit"), dialogParent, &QWidget::close);
    quit->setObjectName(QStringLiteral("quitAction"));
    // The desktop's Quit key; Ctrl+Q where its scheme has none (Windows-like schemes close with
    // Alt+F4, which the window manager handles).
    const QList<QKeySequence> quitKeys = QKeySequence::keyBindings(QKeySequence::Quit);
    quit->setShortcuts(quitKeys.isEmpty() ? QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_Q)}
                                          : quitKeys);
    quit->setMenuRole(QAction::QuitRole);
}

bool FileActions::openFile(const QString &path, bool inTurn)
{
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    QString why;
    if (!info.exists()) {
        why = tr("%1 is not there.").arg(QDir::toNativeSeparators(path));
    } else if (info.isDir()) {
        m_classes.openFolder(path);
        return true;
    } else if (const core::Status regular =
                   core::checkRegularFile(QFile::encodeName(path).toStdString(),
                                          core::kMaxTraceFileBytes);
               !regular) { // a FIFO, a device: never read, which could block the window
        why = QString::fromStdString(regular.error().message);
    } else if (TraceOpener::isTrace(path)) {
        inTurn ? m_traces.openInTurn(path) : m_traces.open(path); // says why itself if it cannot
        return true;
    } else if (suffix == QLatin1String("ipynb") || suffix == QLatin1String("py")) {
        m_import.importAndReport(path);
        return true;
    } else if (TraceOpener::isDemonstration(path)) {
        if (m_demos.replay(path, 0, &why))
            return true;
    } else if (suffix == QLatin1String("json")) {
        why = tr("%1 is JSON of another kind: neither a trace or profile the command line wrote "
                 "nor a recorded demonstration.")
                  .arg(info.fileName());
    } else {
        why = tr("Rankstep opens notebooks (.ipynb) and Python files (.py) to import, recorded "
                 "demonstrations (.json) to replay, traces and profiles the command line wrote "
                 "(.rstb, .json) to show, and class folders to grade; %1 is none of these.")
                  .arg(info.fileName());
    }
    Q_EMIT message(why);
    std::fprintf(stderr, "rankstep: %s\n", qPrintable(why)); // a script's log too
    auto *box = new QMessageBox(QMessageBox::Warning, tr("This file cannot be opened"), why,
                                QMessageBox::Ok, m_dialogParent);
    box->setObjectName(QStringLiteral("openFileFailedDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return false;
}

bool FileActions::acceptsDrop(const QMimeData &data)
{
    const QList<QUrl> urls = data.urls();
    return !urls.isEmpty() &&
           std::all_of(urls.begin(), urls.end(), [](const QUrl &url) { return url.isLocalFile(); });
}

void FileActions::openDropped(const QMimeData &data)
{
    for (const QUrl &url : data.urls())
        if (url.isLocalFile())
            openFile(url.toLocalFile());
}

} // namespace rankstep::gui
