// SPDX-License-Identifier: MIT
// The memory plot of an exported figure: each rank's memory over time drawn with QPainter on the
// timeline's own time axis, so that a time is at the same x in both. (The app's interactive
// memory chart is a Qt Charts widget, gui/views/memory/memorychart.h; this draws what it shows.)
#pragma once

#include "core/simtime.h"
#include "core/trace.h"
#include "timelinegeometry.h"

#include <QCoreApplication>
#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

class QPainter;

namespace rankstep::gui {

class Palette;

// Everything one paint of the plot depends on.
struct MemoryPlotScene {
    const core::Trace *trace = nullptr;  // not null, with events
    const Palette *colors = nullptr;     // not null: the ranks' and the maximum's colors
    TimeAxis axis;                       // the timeline's, in this scene's x
    QRectF bounds;                       // the legend band, the plot, the time labels and title
    QPalette palette;                    // text, grid, and the veil over the future
    QFont font;                          // labels; titles and the maximum's label bold
    double zoom = 1.0;                   // line widths are for zoom 1
    std::optional<std::int64_t> target;  // bytes: a dashed line with its label
    std::optional<core::SimTime> cursor; // a line, the time after it veiled
    // After each time the plot says: "ms" for ticks that are microseconds (the time axis's unit,
    // and the maximum's "t 10415.254 ms"); empty for the puzzle's steps, which go without one, the
    // axis naming them "steps" in the language shown.
    QString clockUnit;
};

inline constexpr int kPlotLegendRanks = 8;        // more ranks: no legend, thin lines
inline constexpr int kPlotLabelledRanks = 64;     // up to this many: the ranks named at lines' ends
inline constexpr double kPlotLegendHeight = 34.0; // above the plot
inline constexpr double kPlotTimeSpace = 52.0;    // below it: tick labels and the axis title

// Where the plot draws values: from the time axis's left to its right, between the legend band
// and the time labels.
QRectF memoryPlotArea(const MemoryPlotScene &scene);
// The value axis: from 0 to the first tick above the highest value (the run's maximum, the target
// or the device's memory) with room for the maximum's label, its ticks in bytes.
std::vector<std::int64_t> memoryPlotTicks(const core::Trace &trace,
                                          std::optional<std::int64_t> target);
// The y of `bytes` in `plot` for a value axis from 0 to `top` bytes.
double memoryY(const QRectF &plot, std::int64_t top, std::int64_t bytes);
// The time axis's ticks in steps: multiples of a 1, 2 or 5 step inside the axis.
std::vector<double> plotTimeTicks(const TimeAxis &axis);

// The device's memory the trace's cost model names (core::CostModel::deviceMemory, the
// llama3-405b preset's 80 GB), which the plot draws as the app's memory chart does; none when
// the trace names none.
std::optional<std::int64_t> plotDeviceMemory(const core::Trace &trace);
// The words at the device's line: "80 GB: the device's memory".
QString deviceMemoryLabel(std::int64_t bytes);
// The maximum's label: "max 1.84 MB (rank 0, t 4)", its time followed by `clockUnit` when there is
// one ("t 10415.254 ms"); with a device's memory also by how much the peak fits it or overflows
// it, "...: fits, 19.73 GB to spare" or "...: 40.16 GB over the device's memory".
QString memoryPlotMaximumLabel(const core::Trace &trace, const QString &clockUnit = {});

// Paints the plot: grid and axes with their labels, one step line per rank in its color (ranks
// with the same line share it dash by dash; past eight ranks each group of eight dashes its own
// way, and the lines' ends name their ranks), the target, the device's memory as an orange
// dash-dot line with its words, the maximum with its label, the legend of ranks, and the cursor
// with the veil over the time after it.
void paintMemoryPlot(QPainter &painter, const MemoryPlotScene &scene);

} // namespace rankstep::gui
