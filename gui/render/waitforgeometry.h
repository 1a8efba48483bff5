// SPDX-License-Identifier: MIT
// Where the wait-for picture of a hang draws things: one node per rank on an ellipse (up to
// kMaxRingRanks ranks, rank 0 at the top, clockwise), a compact grid beyond, and arrows between
// node boundaries. Pure functions in pixels.
#pragma once

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <optional>
#include <vector>

namespace rankstep::gui {

inline constexpr int kMaxRingRanks = 16;
// The size a node wants: room for "rank r" and two lines of what it waits in.
inline constexpr QSizeF kPreferredNodeSize(200, 62);
// Below this a node is too small to read on the ring, and the nodes go to a grid.
inline constexpr QSizeF kMinimumNodeSize(44, 26);

// The nodes of `ranks` ranks inside `area`, none overlapping the others (empty for ranks <= 0).
std::vector<QRectF> waitForNodes(int ranks, const QRectF &area);
// The ring layout at one node size (nodes may overlap when the size is too large).
std::vector<QRectF> ringNodes(int ranks, const QRectF &area, QSizeF node);
// The largest node size at which the ring of `ranks` nodes fits `area`, `gap` pixels apart.
std::optional<QSizeF> largestRingNode(int ranks, const QRectF &area, double gap);
// The compact grid layout: cells row by row, `gap` pixels apart.
std::vector<QRectF> gridNodes(int ranks, const QRectF &area, double gap);
// True when any two rects come closer than `gap` pixels.
bool anyOverlap(const std::vector<QRectF> &rects, double gap);

// Where the ray from the center of `rect` toward `target` leaves the rect (the center itself
// when target is the center).
QPointF boundaryToward(const QRectF &rect, QPointF target);
// An arrow from the boundary of `from` to the boundary of `to`, `gap` pixels off each boundary,
// shifted `side` pixels to the right of its direction so that A->B and B->A do not cover each
// other. A zero-length line when the rects overlap.
QLineF arrowBetween(const QRectF &from, const QRectF &to, double gap, double side);
// The two short strokes of an arrowhead at line.p2(), `length` pixels long.
std::pair<QLineF, QLineF> arrowHead(const QLineF &line, double length);

// The index of the node under `point`, if any.
std::optional<int> nodeAt(const std::vector<QRectF> &nodes, QPointF point);

} // namespace rankstep::gui
