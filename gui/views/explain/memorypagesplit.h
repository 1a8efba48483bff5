// SPDX-License-Identifier: MIT
// How the Why tab's page "What fills memory" shares its height between a rank's memory by kind
// over time (the chart, its legend above it) and what the rank holds at the cursor (the table).
#pragma once

#include <QList>
#include <QSplitter>

class QTableView;

namespace rankstep::gui {

// The rows of objects the table shows whole, at least, wherever the page has the room.
inline constexpr int kObjectTableLeastRows = 4;

struct MemoryPageRoom {
    int room = 0;       // the splitter's height, less its handle (pixels)
    int chartLeast = 0; // the legend and the least chart that still draws its axes' labels
    int tableLeast = 0; // the table's heading, kObjectTableLeastRows rows and its scroll bar
};

// {chart, table}: half each where both fit whole, the table never under its least while the
// chart keeps its own; where the page cannot hold both, the table takes it all and the chart
// folds away (the splitter's handle brings it back; the memory chart's By kind shows it below).
QList<int> shareMemoryPage(const MemoryPageRoom &in);

// The chart's pane over the table, shared anew (shareMemoryPage) at every size of the page, until
// the learner moves the handle.
class MemoryPageSplitter : public QSplitter
{
    Q_OBJECT
public:
    // `legend` over `chart` in `chartPane`; `table` the objects at the cursor.
    MemoryPageSplitter(QWidget *chartPane, QWidget *legend, QWidget *chart, QTableView *table,
                       QWidget *parent = nullptr);

    MemoryPageRoom room() const; // what the page has now, for shareMemoryPage
    bool chartShown() const;
    // Unfolds the chart (half the page, at least its least) or folds it; the share stays the
    // learner's from then on.
    void setChartShown(bool shown);

Q_SIGNALS:
    void chartShownChanged(bool shown);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void share();

    QWidget *m_legend;
    QWidget *m_chart;
    QTableView *m_table;
    bool m_moved = false; // by the learner: their share stays
};

} // namespace rankstep::gui
