// SPDX-License-Identifier: MIT
#pragma once

#include "childrun.h"
#include "realrunoutcome.h"
#include "runcontroller.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

class QTemporaryDir;

namespace rankstep::gui {

// Runs the learner's saved code for real, one process per rank through torch.distributed, in a
// child `rankstep-cli real` (which simulates it first and sandboxes every rank). One at a time;
// the simulated run of the window is left as it is.
class RealRunController : public QObject
{
    Q_OBJECT
public:
    static constexpr int kStopGraceMs = 3000;

    explicit RealRunController(QObject *parent = nullptr);
    ~RealRunController() override;

    bool isRunning() const;
    // Seconds since the running one started.
    double elapsedSeconds() const;
    // The model's sizes (default the notebook's 512 and 256; the tests take smaller ones).
    void setSizes(int hidden, int length);

public Q_SLOTS:
    void start(const RunSpec &spec);
    // A PyTorch lesson (`rankstep-cli lesson ID FILE`, lessons/100-torch_loop and on): the
    // outcome carries its lessonReport. `steps` and `embd` other than 0 replace the lesson's.
    void startLesson(const QString &lessonId, const QString &codePath, double timeoutSeconds,
                     int steps = 0, int embd = 0);
    // Ends every rank at once (SIGTERM, on which the command kills every rank's process group
    // and cleans up; SIGKILL kStopGraceMs later); emits finished with the stop in its output.
    void stop();

Q_SIGNALS:
    void runningChanged(bool running);
    void finished(const rankstep::gui::RealRunOutcome &outcome);

private:
    QCoro::Task<void> execute(QStringList args, QString report, double timeout, bool lesson,
                              std::shared_ptr<QTemporaryDir> folder); // kept until it ends
    void readReport(const QString &report, bool lesson, RealRunOutcome *outcome) const;

    ChildRuns m_runs;
    QElapsedTimer m_clock;
    int m_hidden = 512, m_length = 256;
};

} // namespace rankstep::gui
