// SPDX-License-Identifier: MIT
#pragma once

#include "childrun.h"
#include "core/io/sweeprow.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QTemporaryDir;

namespace QCoro {
template <typename T>
class Task;
}

namespace rankstep::gui {

// A program run beside the learner's in a comparison: a lesson's solution, by its code.
struct ComparedProgram {
    QString code;
    QString function;
};

// A what-if sweep to run (docs/sweeps.md): the learner's saved file at every setting of the
// grid. Lists are as the CLI takes them ("2,4,8"); empty: run's default.
struct SweepSpec {
    QString codePath;
    QString function;
    QString ranks;
    QString layers;
    QString batches; // or, when batchesPerRank, K batches a rank
    bool batchesPerRank = false;
    QString bandwidth; // GB/s; empty: the cost model's own
    QString tensor;    // layouts (docs/sweeps.md); empty: 1
    QString pipeline;
    QString cost; // a preset; empty: the notebook's
    double timeLimitSeconds = 30;
    // Run at every setting too (the pipeline schedules' solutions), each row naming its program.
    std::vector<ComparedProgram> compared;
};

// Runs `rankstep-cli sweep --jsonl --traces DIR` in the background (QCoro) and hands each row
// over as it arrives; the runs' traces stay in DIR until the next sweep or the window closes, so
// a row's run opens without running it again. The sweep runs no learner code itself: each of
// its runs is a sandboxed child of its own.
class SweepController : public QObject
{
    Q_OBJECT
public:
    static constexpr int kStopGraceMs = 3000;

    explicit SweepController(QObject *parent = nullptr);
    ~SweepController() override;

    bool isRunning() const { return m_runs.busy(); }

public Q_SLOTS:
    void start(const rankstep::gui::SweepSpec &spec);
    // Ends it at once for the window (emits stopped): SIGTERM, on which the sweep ends its runs
    // and removes their folders, and SIGKILL kStopGraceMs later if it is still there.
    void stop();

Q_SIGNALS:
    void runningChanged(bool running);
    void rowArrived(const rankstep::io::SweepRow &row);
    // Every setting ran (whatever the results).
    void finished(double seconds);
    // The sweep could not run: a bad list, no such function, no rankstep-cli.
    void failed(const QString &message);
    void stopped();

private:
    QCoro::Task<void> execute(SweepSpec spec);
    QStringList arguments(const SweepSpec &spec) const;
    // Writes the compared programs into the traces' folder: "FILE:FUNCTION" for each, or an
    // empty list with the reason in `why`.
    std::optional<QStringList> writeCompared(const SweepSpec &spec, QString *why) const;
    void takeLines(const QByteArray &bytes);

    ChildRuns m_runs;
    std::shared_ptr<QTemporaryDir> m_traces;
    QByteArray m_pending; // the start of a line not yet ended
};

} // namespace rankstep::gui

Q_DECLARE_METATYPE(rankstep::io::SweepRow)
