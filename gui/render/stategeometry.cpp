// SPDX-License-Identifier: MIT
#include "stategeometry.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace rankstep::gui {
namespace {

constexpr double kIdealPanelWidth = 240;
constexpr double kPanelChrome = 46; // title, memory bar and margins
constexpr double kIdealBandHeight = 22;
constexpr double kTitleHeight = 17;
constexpr double kMemoryHeight = 7;
constexpr double kLabelWidth = 20;
constexpr double kMargin = 4;

struct Span {
    double from, to; // fractions of the model's width
};

Span spanOf(core::MapKind map)
{
    switch (map) {
        case core::MapKind::Weights:
            return {0.0, 0.30};
        case core::MapKind::OptStates:
            return {0.32, 0.52};
        case core::MapKind::GradWeights:
            return {0.56, 1.0};
        case core::MapKind::Activations:
            return {0.0, 0.48};
        case core::MapKind::GradActivations:
            return {0.52, 1.0};
    }
    return {0.0, 1.0};
}

bool onBoundary(core::MapKind map)
{
    return map == core::MapKind::Activations || map == core::MapKind::GradActivations;
}

// Band k of the model counted from the bottom (2 * layers + 1 of them).
QRectF band(const PanelLayout &layout, int k)
{
    const int count = 2 * layout.layers + 1;
    const double height = layout.model.height() / count;
    const double top = layout.model.bottom() - (k + 1) * height;
    return {layout.model.left(), top, layout.model.width(), height};
}

// Whether the entries hold different batches of one thing, so each can sit at its batches.
bool disjointBatches(const std::vector<replay::MapEntry> &entries,
                     const std::vector<std::size_t> &members)
{
    core::IndexSet seen;
    const core::Object &first = entries[members.front()].object();
    for (std::size_t i : members) {
        const core::Object &object = entries[i].object();
        if (!core::hasBatches(object.kind) || object.totalBatches != first.totalBatches ||
            (core::hasShards(object.kind) && object.total > 1) || seen.intersects(object.batches))
            return false;
        seen |= object.batches;
    }
    return true;
}

// The part of `cell` from the object's first batch to its last.
QRectF batchSpan(const QRectF &cell, const core::Object &object)
{
    const int first = std::max(0, object.batches.first());
    const int last = std::max(first, object.batches.last());
    return shardCell(cell, first, object.totalBatches)
        .united(shardCell(cell, last, object.totalBatches));
}

} // namespace

PanelGrid panelGrid(int count, QSizeF area, int layers, double leastWidth)
{
    if (count <= 1)
        return {};
    const double idealHeight = kPanelChrome + (2 * layers + 1) * kIdealBandHeight;
    PanelGrid best{1, count};
    double bestScore = -1;
    for (int columns = 1; columns <= count; ++columns) {
        // A model of many layers wants tall panels: at 1280x800 sixteen of a 128-layer model
        // stood in one row, 14 pixels wide, their numbers drawn at 5 points.
        if (columns > 1 && area.width() / columns < leastWidth)
            break;
        const int rows = (count + columns - 1) / columns;
        const double score =
            std::min(area.width() / columns / kIdealPanelWidth, area.height() / rows / idealHeight);
        if (score > bestScore + 1e-9) {
            bestScore = score;
            best = {columns, rows};
        }
    }
    return best;
}

QRectF panelRect(const PanelGrid &grid, int index, const QRectF &area, double gap)
{
    const double width = (area.width() - gap * (grid.columns - 1)) / grid.columns;
    const double height = (area.height() - gap * (grid.rows - 1)) / grid.rows;
    const int row = index / grid.columns, column = index % grid.columns;
    return {area.left() + column * (width + gap), area.top() + row * (height + gap), width, height};
}

FocusSplit focusSplit(const QRectF &area, int others, double gap)
{
    if (others <= 0)
        return {area, {}};
    // The focus gets about two thirds; the overview keeps room for a row or a column of small
    // panels beside it.
    constexpr double kFocusShare = 0.62;
    if (area.width() >= area.height()) {
        const double width = std::floor((area.width() - gap) * kFocusShare);
        return {QRectF(area.left(), area.top(), width, area.height()),
                QRectF(area.left() + width + gap, area.top(), area.width() - width - gap,
                       area.height())};
    }
    const double height = std::floor((area.height() - gap) * kFocusShare);
    return {
        QRectF(area.left(), area.top(), area.width(), height),
        QRectF(area.left(), area.top() + height + gap, area.width(), area.height() - height - gap)};
}

bool isCompactPanel(const QRectF &panel)
{
    return panel.height() < kCompactPanelHeight;
}

PanelLayout panelLayout(const QRectF &panel, int layers)
{
    PanelLayout layout;
    layout.frame = panel;
    layout.layers = std::max(1, layers);
    // Compact (16 panels on a laptop): a thinner title line and memory bar leave the layer bands
    // tall enough for their labels.
    const bool compact = isCompactPanel(panel);
    const double margin = compact ? 2 : kMargin;
    const QRectF inner = panel.adjusted(margin, margin, -margin, -margin);
    layout.title = {inner.left(), inner.top(), inner.width(), compact ? 14 : kTitleHeight};
    layout.memory = {inner.left(), layout.title.bottom() + (compact ? 1 : 2), inner.width(),
                     compact ? 3 : kMemoryHeight};
    const double top = layout.memory.bottom() + margin;
    layout.labels = {inner.left(), top, kLabelWidth, std::max(0.0, inner.bottom() - top)};
    layout.model = {layout.labels.right() + 2, top, std::max(0.0, inner.width() - kLabelWidth - 2),
                    layout.labels.height()};
    return layout;
}

QRectF layerBand(const PanelLayout &layout, int layer)
{
    return band(layout, 2 * layer + 1);
}

int layerLabelStep(double bandHeight, double textHeight)
{
    if (!(bandHeight > 0.0) || textHeight <= bandHeight)
        return 1;
    return int(std::min(1e6, std::ceil(textHeight / bandHeight)));
}

QRectF boundaryBand(const PanelLayout &layout, int boundary)
{
    return band(layout, 2 * boundary);
}

QRectF mapCell(const PanelLayout &layout, core::MapKind map, int layer)
{
    const QRectF row = onBoundary(map) ? boundaryBand(layout, layer) : layerBand(layout, layer);
    const Span span = spanOf(map);
    const double inset = std::min(2.0, row.height() / 6);
    const double height = std::min(kMaxObjectHeight, row.height() - 2 * inset);
    return {row.left() + span.from * row.width(), row.center().y() - height / 2,
            (span.to - span.from) * row.width(), height};
}

int bandOf(core::MapKind map, const core::Object &object, int layers)
{
    const int band = map == core::MapKind::GradActivations ? object.layer + 1 : object.layer;
    return std::clamp(band, 0, onBoundary(map) ? layers : layers - 1);
}

bool objectsFit(const PanelLayout &layout, QSizeF label)
{
    const QRectF narrowest = mapCell(layout, core::MapKind::OptStates, 0);
    return layerBand(layout, 0).height() >= label.height() && narrowest.width() >= label.width();
}

QRectF slotRect(const QRectF &cell, int index, int count, double gap)
{
    if (count <= 1)
        return cell;
    const double width = std::max(1.0, (cell.width() - gap * (count - 1)) / count);
    return {cell.left() + index * (width + gap), cell.top(), width, cell.height()};
}

QRectF shardCell(const QRectF &bar, int index, int total)
{
    const double width = bar.width() / std::max(1, total);
    return {bar.left() + index * width, bar.top(), width, bar.height()};
}

double memoryFraction(std::int64_t memory, std::int64_t maximum)
{
    if (maximum <= 0)
        return 0.0;
    return std::clamp(double(memory) / double(maximum), 0.0, 1.0);
}

std::vector<PlacedObject> placeObjects(const PanelLayout &layout, const replay::RankState &rank)
{
    std::vector<PlacedObject> placed;
    std::vector<std::vector<std::size_t>> bands;
    for (int m = 0; m < core::kMapCount; ++m) {
        const auto map = core::MapKind(m);
        const auto &entries = rank.map(map);
        bands.resize(std::size_t(layout.layers) + 1); // band -> entries, in map order
        for (auto &members : bands)
            members.clear(); // keeps their memory for the next map
        for (std::size_t i = 0; i < entries.size(); ++i)
            bands[std::size_t(bandOf(map, entries[i].object(), layout.layers))].push_back(i);
        for (int band = 0; band <= layout.layers; ++band) {
            const std::vector<std::size_t> &members = bands[std::size_t(band)];
            if (members.empty())
                continue;
            const QRectF cell = mapCell(layout, map, band);
            const double room =
                (onBoundary(map) ? boundaryBand(layout, band) : layerBand(layout, band)).height();
            const bool byBatch = members.size() > 1 && disjointBatches(entries, members);
            for (std::size_t k = 0; k < members.size(); ++k) {
                const core::Object &object = entries[members[k]].object();
                const QRectF slot = byBatch ? batchSpan(cell, object)
                                            : slotRect(cell, int(k), int(members.size()), 2);
                placed.push_back({map, members[k], slot, byBatch ? cell : slot, byBatch, room});
            }
        }
    }
    return placed;
}

std::optional<PlacedObject> objectAt(const std::vector<PlacedObject> &placed, QPointF point)
{
    for (const auto &object : placed)
        if (object.rect.contains(point))
            return object;
    return std::nullopt;
}

} // namespace rankstep::gui
