// SPDX-License-Identifier: MIT
#pragma once

#include "stepcontroller.h"
#include "tracederived.h"
#include "traceopener.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

namespace QCoro {
template <typename T>
class Task;
}

namespace rankstep::gui {

// A run read from a file with everything the views and the cursor need, made off the GUI thread.
struct PreparedRun {
    OpenedRun run;
    std::shared_ptr<const TraceDerived> derived;
    Stepping stepping;
};

// Opens a trace file on a worker (after Hotspot's PerfParser: the GUI hands it a path and gets a
// run or a sentence back): reads and decodes it, then makes its stepping (stop points and
// replayer) beside what the views derive from it (rows by rank, waits, heat, memory lines), two
// at once on two cores. The window stays usable meanwhile; progress says what it does. Cancel, or
// another open, drops the work at once: the worker stops at its next check (between pieces of the
// read, between parts) and nothing of the half-made run reaches the session.
class TraceLoader : public QObject
{
    Q_OBJECT
public:
    enum class Stage { Reading, Preparing };
    Q_ENUM(Stage)

    explicit TraceLoader(QObject *parent = nullptr);
    ~TraceLoader() override;

    void open(const QString &path); // cancels one in progress first
    void cancel();                  // nothing happens when none is in progress
    bool isBusy() const { return m_work != nullptr; }
    const QString &path() const { return m_path; } // of the open in progress, else empty

    // Called on the worker as it enters each stage: a test holds it there (waiting on a
    // condition) to look at the window meanwhile. Null in the app.
    using Checkpoint = std::function<void(Stage)>;
    void setCheckpoint(Checkpoint checkpoint) { m_checkpoint = std::move(checkpoint); }

    // What the progress line says now ("Reading big16k.rstb: 412 of 801 MB"), and its bar:
    // done of total (total 0: no measure yet).
    QString progressText() const;
    // Waits up to `ms` until every worker of an open (a cancelled one too) has returned (tests).
    bool waitForWorkers(int ms) { return m_pool.waitForDone(ms); }
    std::int64_t progressDone() const;
    std::int64_t progressTotal() const;

    // The shared state of one open between the GUI and its worker.
    struct Work {
        std::atomic<bool> cancelled{false};
        std::atomic<int> stage{int(Stage::Reading)};
        std::atomic<std::uint64_t> read{0}, size{0}; // bytes of the file
        std::atomic<int> partsDone{0};
        Checkpoint checkpoint;
        QElapsedTimer clock; // since open(): the debug lines' times, the worker's and the GUI's
    };

Q_SIGNALS:
    void busyChanged(bool busy);
    void progressChanged(); // a few times a second while busy
    void loaded(std::shared_ptr<rankstep::gui::PreparedRun> run, const QString &path);
    void failed(const QString &why, const QString &path);

private:
    QCoro::Task<void> load(QString path, std::shared_ptr<Work> work);
    void finish();
    // Under QT_LOGGING_RULES=rankstep.open.debug=true: when the window's next paint after the
    // take-in is done, the open's honest figure (the run on screen), from the clock of `work`.
    void logWhenPainted(const std::shared_ptr<Work> &work);

    std::shared_ptr<Work> m_work; // of the open in progress
    QString m_path;
    Checkpoint m_checkpoint;
    QTimer m_ticker; // polls the worker's progress
    // The opens' own two threads, which give way to the GUI thread (traceloader.cpp, giveWay).
    // Last: destroyed first, it waits for a cancelled worker's next check.
    QThreadPool m_pool;
};

} // namespace rankstep::gui
