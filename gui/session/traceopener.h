// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/tracebinary.h"
#include "runsession.h"
#include "tracefwd.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace rankstep::gui {

// A run read from a file, ready for the views: what `rankstep-cli run --trace-out` or `--json`
// wrote, the report of `real --json`, or a Chrome trace (`real --profile`, `run --chrome-trace`).
struct OpenedRun {
    TracePtr trace;
    TraceUnits units = TraceUnits::SimulatedSteps; // Seconds for a real run or its profile
    bool real = false;    // the run was on real processes (a report or a profile)
    bool profile = false; // a Chrome trace: operators classified by name, no memory, no check
    QString file;         // the learner's file as the trace names it ("ddp.py"), may be empty
    QString function;     // the function that ran, may be empty
    QString code;         // that file's text when it lies beside the trace, else empty
};

// The outcome of reading: the run, or one sentence saying why not (the file's name in it).
struct OpenedTrace {
    std::optional<OpenedRun> run;
    QString error;
};

// Reads the file at `path` as a run whatever its name: the content says what it is. Nothing in
// it is trusted: each kind's reader checks every field and the limits (core/io/tracelimits.h);
// only a regular file is read (never a FIFO or a device), and the learner's code is looked for
// only beside the trace (its name, or the relative path the trace gives without "..").
class TraceOpener
{
    Q_DECLARE_TR_FUNCTIONS(TraceOpener)
public:
    // Whether the file holds a trace, a report or a Chrome trace (its first bytes say), so that
    // File > Open and a drop send it here rather than to the demonstrations or the importer.
    static bool isTrace(const QString &path);
    // Whether it holds a recorded demonstration ("format": "rankstep-demonstration").
    static bool isDemonstration(const QString &path);
    static OpenedTrace open(const QString &path);
    // The same, telling `progress` how far the read of a binary trace has come (it may stop it:
    // then the outcome is an error nobody shows). Any thread.
    static OpenedTrace open(const QString &path, const io::ReadProgress &progress);
    // "ddp from ddp.py, 4 ranks, 2 layers, 4 batches" (what the trace says it ran).
    static QString describe(const OpenedRun &run);
};

} // namespace rankstep::gui
