// SPDX-License-Identifier: MIT
// The words of the What if tab: the labels of its scatter's points, each naming its setting by
// what the sweep varies ("16 ranks", "8 ranks, 2 batches") beside its point and clear of every
// other point and label; and each row's result as the results panel would judge that run.
#pragma once

#include "core/io/sweeprow.h"
#include "core/lessons/lesson.h"

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QStringList>

#include <optional>
#include <vector>

namespace rankstep::gui {

// The words for each point: the fields in which the points differ (ranks, layers, batches,
// bandwidth, tensor, pipeline, in that order); empty words where they all agree.
QStringList sweepPointLabels(const std::vector<io::SweepPoint> &points);

// Where each label goes, in order: right of its point, left, above, below, then the corners,
// inside `plot`, over no point's marker (each `radii[i]` around its point: a ring is larger than
// a dot) and no label placed before. A label with no room beside its point, and every label of a
// point whose marker touches two others (a tight cluster, which labels beside it would close in),
// goes farther out with a leader line to its point that crosses no other point or label; nullopt
// only when no place in the plot is clear (the point still says its setting on hover).
std::vector<std::optional<QRectF>> placePointLabels(const std::vector<QPointF> &points,
                                                    const std::vector<QSizeF> &sizes,
                                                    const QRectF &plot,
                                                    const std::vector<double> &radii);

// Where a leader line from `point` meets its label's `box`: the box's nearest point.
QPointF leaderEnd(const QRectF &box, const QPointF &point);

// Whether a row ran the lesson's own setting (its ranks, layers and batches, the cost model's
// bandwidth) under the notebook's costs: the only setting a lesson is graded at.
bool isGradedSetting(const io::SweepRow &row, const lessons::Lesson &lesson,
                     const std::string &costModel);
// A row's result in the results panel's terms: "solved" only where the lesson is graded and its
// targets are met; a run with the right weights elsewhere is "correct" (checked, not graded);
// else "not correct", "error", "hung", "stopped" or "crashed".
QString sweepResultText(const io::SweepRow &row, const lessons::Lesson *lesson,
                        const std::string &costModel);
// "4 ranks, 8 layers, 4 batches", as the results panel names a setting.
QString settingText(const core::RunConfig &config);

} // namespace rankstep::gui
