// SPDX-License-Identifier: MIT
#pragma once

#include "core/replay/state.h"
#include "core/sentences.h"
#include "core/trace.h"
#include "palette.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QPainter;

namespace rankstep::gui {

// What a figure for slides shows besides the trace: its words and the cursor it was taken at.
struct FigureOptions {
    QSize size{1920, 1080}; // output pixels (the SVG's viewBox)
    // Output pixels per layout pixel: the views are laid out at size / scale and drawn enlarged,
    // so their text reads from the back of a room.
    double scale = 1.5;
    QString title; // "Distributed data parallel: ddp (solution.py)"; empty: none
    std::optional<std::int64_t> memoryTarget; // bytes: the memory plot's dashed line
    std::optional<core::SimTime> cursor;      // the timeline's and the memory plot's cursor
    std::optional<std::size_t> ghostAfter;    // events from this index on drawn faint
    std::vector<std::size_t> rankGhostAfter;  // the same per rank, at a time cut
    std::vector<std::size_t> running;         // events drawn as running (TimelineScene)
    std::vector<int> ranks; // the state figure's panels (at most 16); empty: the first 16
    // The documents' colors as the app shows them (standard or color-blind-safe); figures are
    // always drawn at zoom 1, their scale makes them legible.
    Palette::Scheme scheme = Palette::Scheme::Standard;
    // The explanation's words (core/explain): the app's language; null: English.
    const core::Phrasebook *words = nullptr;
    // A run on real processes, whose ticks are microseconds as a real-scale cost model's are.
    bool realRun = false;
};

// The unit a figure prints its times in, as the window does: "ms" for a trace whose ticks are
// microseconds (a real-scale cost model's, docs/cost-models.md, or a real run's: a step is a
// millisecond), else "steps".
QString figureTimeUnit(const core::Trace &trace, bool realRun = false);
// The unit after a time a figure says: "ms" where figureTimeUnit is, empty for steps.
QString figureClockUnit(const core::Trace &trace, bool realRun = false);

// The line under a figure's title: "Timesteps 5.1, max memory 1835008 B on rank 0 at t 4 ·
// 4 ranks, 2 layers, 4 batches"; under a real-scale cost model in seconds, as the run's summary
// says them ("Timesteps 20.563 s, ... at 10.415 s").
QString figureSummary(const core::Trace &trace);

// The timeline above the memory plot (memoryplotpainter.h), both on one time axis, under the
// title and the summary, drawn with painter in output pixels (options.size); vector throughout,
// so an SVG generator gets paths and text.
void paintTimelineFigure(QPainter &painter, const std::shared_ptr<const core::Trace> &trace,
                         const FigureOptions &options);
QImage renderTimelineFigure(const std::shared_ptr<const core::Trace> &trace,
                            const FigureOptions &options);

// Every rank's state as the state view shows it (statepanels.h) at options.size, with the title
// and a line saying where the state was taken ("after event 20 of 36, t 3.2" or "at the end of the
// run").
QImage renderStateFigure(const std::shared_ptr<const core::Trace> &trace,
                         const replay::RunState &state, const FigureOptions &options);

} // namespace rankstep::gui
