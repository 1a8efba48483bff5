// SPDX-License-Identifier: MIT
#include "traceopenactions.h"

#include "codeeditor.h"
#include "codekeeper.h"
#include "progressline.h"
#include "runsession.h"
#include "traceloader.h"
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
    , m_loader(new TraceLoader(this))
    , m_progress(new ProgressLine)
{
    connect(m_loader, &TraceLoader::loaded, this, &TraceOpenActions::onLoaded);
    connect(m_loader, &TraceLoader::failed, this, &TraceOpenActions::onFailed);
    connect(m_loader, &TraceLoader::progressChanged, m_progress, [this] {
        m_progress->setProgress(m_loader->progressText(), m_loader->progressDone(),
                                m_loader->progressTotal());
    });
    connect(m_progress, &ProgressLine::cancelRequested, this, &TraceOpenActions::cancel);
    // A run of the learner's code shown meanwhile is newer than the file being opened.
    connect(&m_target.session, &RunSession::traceChanged, this, &TraceOpenActions::onTraceChanged);
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

TraceOpenActions::~TraceOpenActions()
{
    delete m_progress.data(); // unless the status bar went first and took it along
}

ProgressLine *TraceOpenActions::progressLine() const
{
    return m_progress;
}

void TraceOpenActions::open(const QString &path)
{
    m_waiting.clear();
    m_waiting << path;
    openNext();
}

void TraceOpenActions::openInTurn(const QString &path)
{
    m_waiting << path;
    if (!m_loader->isBusy())
        openNext();
}

void TraceOpenActions::cancel()
{
    m_waiting.clear();
    m_loader->cancel();
    m_target.session.setOpening({});
}

void TraceOpenActions::openNext()
{
    if (m_waiting.isEmpty()) {
        m_target.session.setOpening({});
        return;
    }
    const QString path = m_waiting.takeFirst();
    m_target.session.setOpening(QFileInfo(path).fileName());
    m_loader->open(path);
}

void TraceOpenActions::onTraceChanged()
{
    if (!m_showing && m_loader->isBusy() && m_target.session.trace())
        cancel();
}

void TraceOpenActions::onFailed(const QString &why)
{
    Q_EMIT message(why);
    std::fprintf(stderr, "rankstep: %s\n", qPrintable(why)); // a script's log too
    auto *box = new QMessageBox(QMessageBox::Warning, tr("This trace cannot be opened"), why,
                                QMessageBox::Ok, &m_target.window);
    box->setObjectName(QStringLiteral("openTraceFailedDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // does not block: "Open with" and scripts go on
    Q_EMIT failed(why);
    openNext();
}

void TraceOpenActions::onLoaded(const std::shared_ptr<PreparedRun> &run, const QString &path)
{
    if (!keepEdits()) {
        Q_EMIT message(tr("Not opened: your code could not be saved."));
        openNext();
        return;
    }
    // The step bar says where the cursor stands before the window is arranged for the run: an
    // arrangement made while it said "Opening…" would keep that line's height.
    if (m_waiting.isEmpty())
        m_target.session.setOpening({});
    show(*run, path);
    openNext();
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

void TraceOpenActions::show(PreparedRun &prepared, const QString &path)
{
    const OpenedRun &run = prepared.run;
    const QString name = QFileInfo(path).fileName();
    const QString what = TraceOpener::describe(run);
    m_showing = true;
    m_target.stopRun();
    if (!run.function.isEmpty())
        m_target.openLessonOf(run.function); // its title, its Why; the learner's code stays saved
    const QString code =
        !run.code.isEmpty() ? run.code
        : run.file.isEmpty()
            ? tr("# %1 holds no code: only what ran, shown in the views.\n").arg(name)
            : tr("# The code of this run (%1) is not beside %2.\n").arg(run.file, name);
    m_target.showCode(code, tr("Opened from %1: %2. Read-only, as it ran.").arg(name, what));
    m_target.session.setOpenedTrace(run.trace, run.units, std::move(prepared.derived),
                                    std::move(prepared.stepping));
    m_showing = false;
    m_target.editor.clearMarkers();
    if (run.trace->error && !run.code.isEmpty())
        m_target.editor.markError(run.trace->error->line);
    m_target.arrange();
    m_target.window.setWindowTitle(tr("%1 — Rankstep").arg(name));
    Q_EMIT message(tr("Opened %1: %2.").arg(name, what));
    Q_EMIT opened(path);
}

} // namespace rankstep::gui
