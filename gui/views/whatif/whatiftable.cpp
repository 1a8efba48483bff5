// SPDX-License-Identifier: MIT
#include "whatiftable.h"

#include "memoryseries.h"

#include <QHeaderView>

#include <algorithm>

namespace rankstep::gui {

QString sweepTimeText(const io::SweepRow &row, const std::optional<core::SimTime> &time)
{
    return time ? QString::fromStdString(io::formatSweepTime(row, *time)) : QStringLiteral("-");
}

QString percentText(double share)
{
    return QStringLiteral("%1%").arg(share * 100.0, 0, 'f', 1);
}

WhatIfTable::WhatIfTable(QWidget *parent) : QTableWidget(0, Columns, parent)
{
    setObjectName(QStringLiteral("whatIfTable"));
    setHorizontalHeaderLabels({tr("ranks"), tr("layers"), tr("batches"), tr("GB/s"),
                               tr("tensor x pipeline"), tr("result"), tr("Timesteps"),
                               tr("peak memory"), tr("idle"), tr("error"), tr("program")});
    horizontalHeader()->moveSection(Program, 0);
    setColumnHidden(Program, true);
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setMinimumHeight(60);
    setToolTip(tr("Double-click a row to open its run."));
    connect(this, &QTableWidget::cellDoubleClicked, this, [this](int tableRow, int) {
        if (QTableWidgetItem *cell = item(tableRow, Ranks))
            Q_EMIT rowOpened(cell->data(Qt::UserRole).toInt());
    });
}

void WhatIfTable::addRow(const std::vector<io::SweepRow> &rows, int index, const QString &result,
                         const QString &program)
{
    const io::SweepRow &row = rows[std::size_t(index)];
    // The table keeps the grid's order whatever order the rows finish in.
    int at = 0;
    while (at < rowCount() &&
           rows[std::size_t(item(at, Ranks)->data(Qt::UserRole).toInt())].index < row.index)
        ++at;
    insertRow(at);
    setRowCells(at, row, result, program);
    item(at, Ranks)->setData(Qt::UserRole, index);
}

void WhatIfTable::setRowCells(int tableRow, const io::SweepRow &row, const QString &result,
                              const QString &program)
{
    QString memory = row.peakMemory ? formatMemory(*row.peakMemory) : QStringLiteral("-");
    if (row.overDeviceMemory())
        memory = tr("%1, over %2").arg(memory, formatMemory(*row.deviceMemory));
    const QString cells[Columns] = {
        QString::number(row.point.ranks),
        QString::number(row.point.layers),
        QString::number(row.point.batches),
        row.point.bandwidth > 0 ? QString::number(row.point.bandwidth) : QStringLiteral("-"),
        QStringLiteral("%1 x %2").arg(row.point.tensor).arg(row.point.pipeline),
        result,
        sweepTimeText(row, row.timesteps),
        memory,
        row.idleShare ? percentText(*row.idleShare) : QStringLiteral("-"),
        QString::fromStdString(row.error),
        program};
    for (int c = 0; c < Columns; ++c) {
        auto *cell = new QTableWidgetItem(cells[c]);
        if (c != Result && c != Error && c != Program)
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (c == Error)
            cell->setToolTip(cells[c]);
        if (c == Memory && row.overDeviceMemory()) {
            cell->setForeground(kOverMemory);
            cell->setToolTip(
                tr("A rank's peak is above the device's memory: this layout does "
                   "not fit."));
        }
        setItem(tableRow, c, cell);
    }
}

void WhatIfTable::showColumnsOf(const std::vector<io::SweepRow> &rows, bool seconds)
{
    setColumnHidden(Bandwidth, std::none_of(rows.begin(), rows.end(), [](const io::SweepRow &r) {
                        return r.point.bandwidth > 0;
                    }));
    setColumnHidden(Layout, std::none_of(rows.begin(), rows.end(), [](const io::SweepRow &r) {
                        return r.point.tensor > 1 || r.point.pipeline > 1;
                    }));
    horizontalHeaderItem(Time)->setText(seconds ? tr("Timesteps, s") : tr("Timesteps"));
}

} // namespace rankstep::gui
