// SPDX-License-Identifier: MIT
// The What if tab's table: a row per setting of the sweep, in the grid's order whatever order the
// runs finish in, with its result, Timesteps, peak memory (orange where it is over the device's)
// and idle share; the program column only in a comparison of programs. A double-click on a row
// asks to open its run.
#pragma once

#include "core/io/sweeprow.h"
#include "palette.h"

#include <QColor>
#include <QTableWidget>

#include <optional>
#include <vector>

namespace rankstep::gui {

// What does not fit the device: an orange apart from the Pareto front's red (the palette's
// maximum) and the points' blue, that reads on the light and the dark look.
inline const QColor kOverMemory = kDeviceMemory;

// A row's Timesteps as the sweep prints them ("-" for none), and a share as "12.5%".
QString sweepTimeText(const io::SweepRow &row, const std::optional<core::SimTime> &time);
QString percentText(double share);

class WhatIfTable : public QTableWidget
{
    Q_OBJECT
public:
    // Program (which program of a comparison) is shown first, and only in a comparison.
    enum Column {
        Ranks,
        Layers,
        Batches,
        Bandwidth,
        Layout, // tensor x pipeline, shown when a row has one
        Result,
        Time,
        Memory,
        Idle,
        Error,
        Program,
        Columns
    };

    explicit WhatIfTable(QWidget *parent = nullptr);

    // rows[index] in its place by the grid's order (rows[i].index), with the words of its result
    // and of its program.
    void addRow(const std::vector<io::SweepRow> &rows, int index, const QString &result,
                const QString &program);
    // The bandwidth and layout columns where a row has them, the time's unit in its header.
    void showColumnsOf(const std::vector<io::SweepRow> &rows, bool seconds);

Q_SIGNALS:
    void rowOpened(int index); // the index into the rows of the double-clicked row

private:
    void setRowCells(int tableRow, const io::SweepRow &row, const QString &result,
                     const QString &program);
};

} // namespace rankstep::gui
