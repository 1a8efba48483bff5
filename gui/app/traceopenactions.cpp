// SPDX-License-Identifier: MIT
#include "traceopenactions.h"

#include "codeeditor.h"
#include "codekeeper.h"
#include "runsession.h"
#include "traceopener.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

#include <cstdio>

namespace rankstep::gui {

TraceOpenActions::TraceOpenActions(TraceOpenTarget target, QMenu *fileMenu, QObject *parent)
    : QObject(parent)
    , m_target(std::move(target))
    , m_action(fileMenu->addAction(tr("&Open Trace…"), this, &TraceOpenActions::chooseFile))
{
    m_action->setObjectName(QStringLiteral("openTraceAction"));
    m_action->setShortcuts(QKeySequence::keyBindings(QKeySequence::Open));
    m_action->setToolTip(
        tr("Shows a run the command line wrote (rankstep-cli run --trace-out or "
           "--json, real --json or --profile) in every view, read-only"));
}

void TraceOpenActions::chooseFile()
{
    QSettings settings;
    const QString folder =
        settings.value(QStringLiteral("traces/folder"), QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(
        &m_target.window, tr("Open a Trace"), folder,
        tr("Rankstep traces and profiles (*.rstb *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("traces/folder"), QFileInfo(path).absolutePath());
    open(path);
}

bool TraceOpenActions::open(const QString &path, QString *why)
{
    const OpenedTrace opened = TraceOpener::open(path);
    if (!opened.run) {
        if (why)
            *why = opened.error;
        Q_EMIT message(opened.error);
        std::fprintf(stderr, "rankstep: %s\n", qPrintable(opened.error)); // a script's log too
        auto *box = new QMessageBox(QMessageBox::Warning, tr("This trace cannot be opened"),
                                    opened.error, QMessageBox::Ok, &m_target.window);
        box->setObjectName(QStringLiteral("openTraceFailedDialog"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open(); // does not block: "Open with" and scripts go on
        return false;
    }
    if (!keepEdits()) {
        if (why)
            *why = tr("Not opened: your code could not be saved.");
        return false;
    }
    show(*opened.run, path);
    return true;
}

// The code in the editor is saved as it is typed; only when that fails (the store may not be
// written) would the trace's code replace edits kept nowhere else but a recovery copy: ask.
bool TraceOpenActions::keepEdits()
{
    QString error;
    if (m_target.keeper.readOnly() || m_target.keeper.save(&error))
        return true;
    const auto answer = QMessageBox::question(
        &m_target.window, tr("Your code is not saved"),
        tr("Your code could not be saved (%1). Opening the trace replaces it in the editor. "
           "Open the trace anyway?")
            .arg(error),
        QMessageBox::Open | QMessageBox::Cancel, QMessageBox::Cancel);
    return answer == QMessageBox::Open;
}

void TraceOpenActions::show(const OpenedRun &run, const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    const QString what = TraceOpener::describe(run);
    m_target.stopRun();
    if (!run.function.isEmpty())
        m_target.openLessonOf(run.function); // its title, its Why; the learner's code stays saved
    const QString code =
        !run.code.isEmpty() ? run.code
        : run.file.isEmpty()
            ? tr("# %1 holds no code: only what ran, shown in the views.\n").arg(name)
            : tr("# The code of this run (%1) is not beside %2.\n").arg(run.file, name);
    m_target.showCode(code, tr("Opened from %1: %2. Read-only, as it ran.").arg(name, what));
    m_target.session.setOpenedTrace(run.trace, run.units);
    m_target.editor.clearMarkers();
    if (run.trace->error && !run.code.isEmpty())
        m_target.editor.markError(run.trace->error->line);
    m_target.arrange();
    m_target.window.setWindowTitle(tr("%1 — Rankstep").arg(name));
    Q_EMIT message(tr("Opened %1: %2.").arg(name, what));
    Q_EMIT opened(path);
}

} // namespace rankstep::gui
