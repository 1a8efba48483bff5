// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <optional>

class QAction;
class QMenu;
class QWidget;

namespace rankstep::gui {

class CodeKeeper;
class RunSession;
class TorchExporter;
struct RunSpec;

// File > Export as PyTorch Program…: the lesson's code, saved first, written at the lesson's
// ranks, layers and batches as a plain PyTorch program for torchrun (TorchExporter, which runs
// `rankstep-cli export --torch`). The outcome goes to the status bar; a failure also to a dialog
// that does not block.
class TorchExportActions : public QObject
{
    Q_OBJECT
public:
    TorchExportActions(RunSession &session, CodeKeeper &keeper, QMenu *fileMenu, QWidget *window);

    QAction *action() const { return m_action; }
    TorchExporter &exporter() const { return *m_exporter; }
    // Exports to `path` without asking; false when there is nothing to export (no lesson, or
    // the code could not be saved: a message says why).
    bool exportTo(const QString &path);
    // The file name the save dialog proposes: "fsdp.py" for the FSDP lesson.
    QString suggestedName() const;

Q_SIGNALS:
    void message(const QString &text); // for the status bar

private:
    void onTriggered();
    void onExported(const QString &program, const QString &howToRun);
    void onFailed(const QString &why);
    std::optional<RunSpec> prepare();

    RunSession &m_session;
    CodeKeeper &m_keeper;
    QPointer<QWidget> m_window;
    TorchExporter *m_exporter;
    QAction *m_action;
};

} // namespace rankstep::gui
