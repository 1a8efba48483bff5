// SPDX-License-Identifier: MIT
#pragma once

#include "tracefwd.h"

#include <QAbstractTableModel>

#include <vector>

namespace rankstep::gui {

// Each rank's time of a run, a row each: its number, busy (compute), idle and communication
// (core::RankFigures), read from the trace as the view asks for a cell: at 16,384 ranks a table
// of items made 65,536 of them before the Why tab was even shown. A time shows to a tenth, as
// the time split above the table does (the Why tab's pane is narrow), exactly in its tooltip.
// Sorts by any column, by value (a time's number, not its text), ties in rank order; column -1
// (no sort) is the ranks' order.
class RankTimesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Rank, Busy, Idle, Communication, ColumnCount };
    static constexpr int RankRole = Qt::UserRole + 1; // the row's rank, whatever the order

    explicit RankTimesModel(QObject *parent = nullptr);

    // Null: no rows. `unit` ("ms" for a run in milliseconds, "" for the puzzle's steps) goes after
    // the time columns' headings.
    void setTrace(TracePtr trace, const QString &unit = {});
    int rankAt(int row) const { return m_order[std::size_t(row)]; }
    // The widest text of a column's cells: its largest value's (a time's digits are as wide as
    // any other's); "0" without rows.
    QString widestText(int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void applyOrder(); // m_order sorted by m_column in m_sortOrder

    TracePtr m_trace;
    QString m_unit;
    std::vector<int> m_order; // the rank shown in each row
    int m_column = Rank;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace rankstep::gui
