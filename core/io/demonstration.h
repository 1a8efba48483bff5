// SPDX-License-Identifier: MIT
// A recorded demonstration (docs/demonstrations.md): what a teacher showed of a lesson, step by
// step, to be replayed in class with the clicker. The code of each run is kept, not its trace:
// the simulator is deterministic, so replaying runs the same code again and gets the same run.
// Each step holds the whole view (tab, cursor, time range, zoom, selection, shown ranks and its
// caption), so a replay can go to any step, forwards or back, without going through the others.
#pragma once

#include "core/error.h"
#include "core/simtime.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::io {

// The version this build writes and the newest it reads. A newer file is refused, never guessed.
inline constexpr int kDemonstrationVersion = 1;
// What the "format" member says, so that another JSON file is not taken for one.
inline constexpr std::string_view kDemonstrationFormat = "rankstep-demonstration";
// Bounds that keep a damaged or hostile file from costing more than a real recording does.
inline constexpr std::size_t kMaxDemonstrationSteps = 100000;
inline constexpr std::size_t kMaxDemonstrationRuns = 1000;
inline constexpr std::size_t kMaxDemonstrationCode = 1 << 20; // bytes of one run's code
inline constexpr std::size_t kMaxDemonstrationCaption = 4000; // bytes of one caption

// One run of the code as it was in the editor then, under the cost model chosen then.
struct DemoRun {
    std::string code;
    std::string cost = "notebook"; // a preset of Run > Cost Model (resources/costs)
    bool operator==(const DemoRun &) const = default;
};

// Where the cursor stood: at a stop point (replay/cursor.h Cursor::stop), at a draw() mark, with
// every rank at a simulated time (a time step), or at an operation step (that many operations
// started in the order of simulated start).
struct DemoCursor {
    enum class Kind { Stop, Mark, Cut, Operation };
    Kind kind = Kind::Stop;
    std::int64_t stop = 0; // Stop: the stop's index; Mark: the mark's; Operation: the count
    core::SimTime cut;     // Cut
    bool operator==(const DemoCursor &) const = default;
};

// One step of the demonstration: everything on screen that the teacher changed.
struct DemoStep {
    // What made this step (for a reader of the file and the replay's status line): "lesson"
    // (the recording's first), "run", "step", "tab", "view" (the time range), "zoom",
    // "select", "ranks" or "caption".
    std::string change;
    int run = -1;                     // into Demonstration::runs; -1 before the first run
    std::string tab;                  // the tab's name (the app's list: gui/app/tabs.h)
    std::optional<DemoCursor> cursor; // nullopt without a run
    std::optional<double> visibleFrom, visibleTo; // ticks; nullopt: the whole run
    double zoom = 1;                              // the View menu's zoom
    int rank = -1;                                // the selected rank, -1 none
    std::optional<std::int64_t> event;            // the selected event
    std::vector<int> shownRanks;                  // empty: every rank
    std::string caption;                          // typed by the teacher, shown large on replay
    bool operator==(const DemoStep &) const = default;
};

struct Demonstration {
    int version = kDemonstrationVersion;
    std::string lesson; // the lesson's id
    std::vector<DemoRun> runs;
    std::vector<DemoStep> steps;
    bool operator==(const Demonstration &) const = default;
};

// The file's text: pretty JSON, one step a line.
std::string demonstrationToJson(const Demonstration &demo);
// Reads what demonstrationToJson wrote. Not JSON, another kind of file, a newer version, a step
// naming a run that is not there, a value out of range: an Error saying which, in a sentence a
// teacher can act on. `tabs` are the names a step's tab may take (the app knows its tabs; the
// reader does not): a step naming another is refused. Empty: any name is kept.
core::Result<Demonstration> demonstrationFromJson(std::string_view text,
                                                  const std::vector<std::string> &tabs);

} // namespace rankstep::io
