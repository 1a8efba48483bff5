// SPDX-License-Identifier: MIT
// The rows of a what-if sweep (`rankstep-cli sweep`, the app's What if panel; docs/sweeps.md):
// one run of the learner's code per setting, reduced to what a table and a chart of time against
// memory need. The CLI writes them as JSON lines and the app reads them as they arrive.
#pragma once

#include "core/error.h"
#include "core/simtime.h"
#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::io {

// One setting of a sweep.
struct SweepPoint {
    int ranks = 1;
    int layers = 2;
    int batches = 4;
    double bandwidth = 0; // gigabytes a second on every link; 0: the cost model's own
    int tensor = 1;       // the run's layout (docs/simulation.md, "Layouts"); data is the rest
    int pipeline = 1;
    bool operator==(const SweepPoint &) const = default;
};

// A pipeline run's shape and bubble, as explain's "pipeline" block says them
// (core/explain/pipelineshape.h); shares of the ideal time, 0 to about 1.
struct SweepPipeline {
    std::string schedule;  // "gpipe", "1f1b", "interleaved_1f1b", "zero_bubble"
    int stages = 0;        // p
    int microBatches = 0;  // m
    int virtualStages = 1; // v
    double measured = 0;
    double formula = 0;
    std::string formulaText; // "(p-1)/m", ...
    bool operator==(const SweepPipeline &) const = default;
};

// What one setting's run gave. Figures are empty when the run did not finish.
struct SweepRow {
    int index = 0; // in the grid's order
    // The program that ran ("FILE:FUNCTION" as the sweep was given it) when a sweep compares
    // several; empty when it runs one.
    std::string program;
    SweepPoint point;
    // "solved" (the run finished and its weights are right), "not solved" (finished, wrong
    // weights), "error" (exception, syntax, puzzle rule), "hung", "stopped" (a limit), "crashed"
    // (the process died without a trace).
    std::string status;
    bool solved = false;
    bool seconds = false; // a real-scale cost model: times are seconds, not the notebook's steps
    std::optional<core::SimTime> timesteps;
    std::optional<core::SimTime> endTime;
    std::optional<std::int64_t> peakMemory;
    int peakRank = 0;
    core::SimTime peakTime;
    std::optional<double> idleShare; // idle time over end time x ranks, 0 to 1
    std::string error;               // one line; empty when none
    double wallSeconds = 0;
    std::string trace; // the kept trace file, empty when none
    // A pipeline run's bubble beside its schedule's formula (the caller's: the CLI reads it
    // from the trace); none for any other run or one that did not finish.
    std::optional<SweepPipeline> pipeline;
    // A device's memory under a cost model that gives one (docs/cost-models.md): a run whose
    // peak is above it does not fit that device.
    std::optional<std::int64_t> deviceMemory;

    bool overDeviceMemory() const
    {
        return deviceMemory && peakMemory && *peakMemory > *deviceMemory;
    }

    bool finished() const { return timesteps.has_value(); }
};

// The status, figures and one-line error of a run's trace (index, point, wall time and trace
// file are the caller's).
SweepRow sweepRowFromTrace(const core::Trace &trace);

// A time of the row as a person reads it: "16.5" (steps) or "0.123 s".
std::string formatSweepTime(const SweepRow &row, core::SimTime time);
// A time as a number of the row's units (steps or seconds).
double sweepTimeValue(const SweepRow &row, core::SimTime time);

// One row as a JSON object on one line, without the newline.
std::string sweepRowToJson(const SweepRow &row);
// Reads what sweepRowToJson wrote; a damaged line is an Error naming the field.
core::Result<SweepRow> sweepRowFromJson(std::string_view line);

// Which rows are on the Pareto front of Timesteps against peak memory: no other finished row is
// at least as fast and as small and better in one. Unfinished rows are never on it.
std::vector<bool> paretoFront(const std::vector<SweepRow> &rows);

} // namespace rankstep::io
