// SPDX-License-Identifier: MIT
// Where the state view draws things: a grid of rank panels, and inside each panel the model as
// stacked bands from the input (bottom) to the output (top). Pure functions in pixels.
#pragma once

#include "core/replay/state.h"
#include "core/storage.h"

#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rankstep::gui {

inline constexpr int kMaxVisibleRanks = 16;
inline constexpr double kMaxObjectHeight = 34;

struct PanelGrid {
    int columns = 1;
    int rows = 1;
    bool operator==(const PanelGrid &) const = default;
};

// The arrangement of `count` panels in `area` whose panels come closest to the size a panel of
// a `layers`-layer model wants (count 0 gives a 1x1 grid), among those whose panels are at least
// `leastWidth` pixels wide (the rank's number in the title's font); where none is, the widest.
PanelGrid panelGrid(int count, QSizeF area, int layers, double leastWidth = 0);
// Panel `index` (row by row) of the grid laid over `area`, `gap` pixels between panels.
QRectF panelRect(const PanelGrid &grid, int index, const QRectF &area, double gap);

// A rank in focus: its panel large on one side of `area` (the left of a wide area, the top of a
// tall one) and an overview of `others` panels beside it. No others: the focus takes it all.
struct FocusSplit {
    QRectF focus, overview; // overview empty without others
};
FocusSplit focusSplit(const QRectF &area, int others, double gap);

// The parts of one rank's panel: title line, memory bar, layer labels (left) and the model.
struct PanelLayout {
    QRectF frame, title, memory, labels, model;
    int layers = 1;
};
PanelLayout panelLayout(const QRectF &panel, int layers);
// Panels shorter than this take the compact form: a thinner title line and memory bar, so that
// the layer bands keep room for their labels.
inline constexpr double kCompactPanelHeight = 110;
bool isCompactPanel(const QRectF &panel);

// The model's 2 * layers + 1 bands, bottom to top: boundary 0 (the input), layer 0, boundary 1,
// ..., layer layers - 1, boundary layers (the output). Activations live on boundaries.
QRectF layerBand(const PanelLayout &layout, int layer);
// Label every how many layers so that labels `textHeight` tall do not run into each other
// across layer bands `bandHeight` apart (1 when each fits; at least 1).
int layerLabelStep(double bandHeight, double textHeight);
QRectF boundaryBand(const PanelLayout &layout, int boundary);
// The part of its band that holds (at most kMaxObjectHeight tall, centered) a map's objects of one
// layer (weights, optimizer states and weight gradients share the layer's band; activations and
// their gradients a boundary's).
QRectF mapCell(const PanelLayout &layout, core::MapKind map, int layer);
// The band index an object is drawn in: its layer (weights, weight grads), the boundary it
// sits on (activations: layer; activation gradients: layer + 1), clamped to the model.
int bandOf(core::MapKind map, const core::Object &object, int layers);

// Whether a panel can draw its objects legibly: each band tall enough for a label of `label`
// size over its objects, and the narrowest map column (the optimizer states') wide enough for it. A
// panel that cannot shows a summary of its kinds instead (statesummary.h).
bool objectsFit(const PanelLayout &layout, QSizeF label);

// Item `index` of `count` side by side in `cell`, `gap` pixels apart.
QRectF slotRect(const QRectF &cell, int index, int count, double gap);
// Cell `index` of `total` equal cells across `bar`.
QRectF shardCell(const QRectF &bar, int index, int total);
// How much of the memory bar to fill: memory / maximum, in [0, 1] (0 when maximum <= 0).
double memoryFraction(std::int64_t memory, std::int64_t maximum);

// One map entry of a rank: entry `index` of map `map`, hit at `rect`. Its cells (shards or
// batches) are laid across `frame`. Entries of one band that hold different batches of the same
// thing (activations[1, 0], activations[1, 1], ...) share the band's frame, each at its own
// batches (`heldOnly`: only its held cells are drawn); others sit side by side.
struct PlacedObject {
    core::MapKind map = core::MapKind::Weights;
    std::size_t index = 0;
    QRectF rect;
    QRectF frame;
    bool heldOnly = false;
    double room = 0; // the height of its band: a label may cover the gaps above and below it
};
std::vector<PlacedObject> placeObjects(const PanelLayout &layout, const replay::RankState &rank);
// The object under `point`, if any.
std::optional<PlacedObject> objectAt(const std::vector<PlacedObject> &placed, QPointF point);

} // namespace rankstep::gui
