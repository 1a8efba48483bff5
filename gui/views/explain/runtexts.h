// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"
#include "tracefwd.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace rankstep::gui {

// What the Why tab says about a whole run: the memory peak's event and sentence, the lesson's
// formula, the time split and the experts' load (rich-text tables; empty when the run has none).
struct RunTexts {
    std::optional<std::size_t> peakEvent; // the event at the peak; none without timed events
    QString peak;
    QString formula;
    QString split;
    QString experts;
};

// Made on a worker (a pass over every event to find the peak's: seconds at 16,384 ranks on a
// loaded machine); the lesson's parallelism and the memory target are copied in, never read from
// the session meanwhile. A null trace says to run the code.
RunTexts explainRun(const TracePtr &trace, std::optional<lessons::Parallelism> parallelism,
                    std::optional<std::int64_t> memoryTarget);

} // namespace rankstep::gui
