// SPDX-License-Identifier: MIT
#include "torchexportactions.h"

#include "codekeeper.h"
#include "runsession.h"
#include "torchexporter.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

namespace rankstep::gui {

TorchExportActions::TorchExportActions(RunSession &session, CodeKeeper &keeper, QMenu *fileMenu,
                                       QWidget *window)
    : QObject(window)
    , m_session(session)
    , m_keeper(keeper)
    , m_window(window)
    , m_exporter(new TorchExporter(this))
    , m_action(fileMenu->addAction(tr("Export as PyTorch &Program…"), this,
                                   &TorchExportActions::onTriggered))
{
    m_action->setObjectName(QStringLiteral("exportTorchAction"));
    m_action->setStatusTip(
        tr("Write the code as a plain PyTorch program for torchrun that "
           "trains the same schedule on real processes"));
    connect(m_exporter, &TorchExporter::exported, this, &TorchExportActions::onExported);
    connect(m_exporter, &TorchExporter::exportFailed, this, &TorchExportActions::onFailed);
}

QString TorchExportActions::suggestedName() const
{
    const lessons::Lesson *lesson = m_session.lesson();
    return (lesson ? QString::fromStdString(lesson->function) : QStringLiteral("rankstep")) +
           QStringLiteral(".py");
}

std::optional<RunSpec> TorchExportActions::prepare()
{
    const lessons::Lesson *lesson = m_session.lesson();
    if (!lesson) {
        Q_EMIT message(tr("Open a lesson first: its code is what is exported."));
        return std::nullopt;
    }
    QString error;
    if (!m_keeper.save(&error)) {
        onFailed(
            tr("Rankstep saves your code before exporting it, and saving failed: %1.").arg(error));
        return std::nullopt;
    }
    RunSpec spec;
    spec.codePath = m_keeper.runFilePath();
    spec.function = QString::fromStdString(lesson->function);
    spec.ranks = lesson->config.ranks;
    spec.layers = lesson->config.layers;
    spec.batches = lesson->config.batches;
    return spec;
}

bool TorchExportActions::exportTo(const QString &path)
{
    const std::optional<RunSpec> spec = prepare();
    if (!spec)
        return false;
    Q_EMIT message(tr("Exporting %1…").arg(QDir::toNativeSeparators(path)));
    m_exporter->exportTo(*spec, path);
    return true;
}

void TorchExportActions::onTriggered()
{
    QSettings settings;
    const QString folder =
        settings.value(QStringLiteral("export/folder"), QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export as PyTorch Program"),
                                                      QDir(folder).filePath(suggestedName()),
                                                      tr("Python programs (*.py)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("export/folder"), QFileInfo(path).absolutePath());
    exportTo(path);
}

void TorchExportActions::onExported(const QString &program, const QString &howToRun)
{
    Q_EMIT message(
        tr("Saved %1. Run it with: %2").arg(QDir::toNativeSeparators(program), howToRun));
}

void TorchExportActions::onFailed(const QString &why)
{
    Q_EMIT message(why.section(QLatin1Char('\n'), 0, 0));
    if (!m_window)
        return;
    // Not modal: a scripted export must still end.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("The program was not exported"), why,
                                QMessageBox::Ok, m_window);
    box->setObjectName(QStringLiteral("torchExportFailedDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace rankstep::gui
