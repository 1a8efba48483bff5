// SPDX-License-Identifier: MIT
#pragma once

#include "childrun.h"
#include "runcontroller.h"

#include <QObject>
#include <QString>

namespace QCoro {
template <typename T>
class Task;
}

namespace rankstep::gui {

// File > Export as PyTorch Program: the code of a run spec written as a plain PyTorch program
// by `rankstep-cli export --torch` (docs/export.md), in the background. The code runs in the
// CLI's sandbox, never in the app; the program is written from the trace it checked.
class TorchExporter : public QObject
{
    Q_OBJECT
public:
    explicit TorchExporter(QObject *parent = nullptr);
    ~TorchExporter() override;

    bool isExporting() const { return m_runs.busy(); }

public Q_SLOTS:
    // Writes `spec`'s code, function, ranks, layers and batches to `program`; a newer export
    // supersedes one under way.
    void exportTo(const rankstep::gui::RunSpec &spec, const QString &program);

Q_SIGNALS:
    // The program was written; `howToRun` is the command that trains it (torchrun ... --check).
    void exported(const QString &program, const QString &howToRun);
    // Nothing was written: why, in the CLI's words when it gave some.
    void exportFailed(const QString &message);

private:
    QCoro::Task<void> execute(RunSpec spec, QString program);

    ChildRuns m_runs;
};

} // namespace rankstep::gui
