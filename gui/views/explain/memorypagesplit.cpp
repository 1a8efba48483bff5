// SPDX-License-Identifier: MIT
#include "memorypagesplit.h"

#include <QHeaderView>
#include <QLayout>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>

#include <algorithm>

namespace rankstep::gui {

QList<int> shareMemoryPage(const MemoryPageRoom &in)
{
    const int room = std::max(0, in.room);
    if (room - in.tableLeast < in.chartLeast)
        return {0, room};
    const int chart = std::max(in.chartLeast, std::min(room - in.tableLeast, room / 2));
    return {chart, room - chart};
}

MemoryPageSplitter::MemoryPageSplitter(QWidget *chartPane, QWidget *legend, QWidget *chart,
                                       QTableView *table, QWidget *parent)
    : QSplitter(Qt::Vertical, parent), m_legend(legend), m_chart(chart), m_table(table)
{
    addWidget(chartPane);
    addWidget(table);
    setCollapsible(1, false); // the table stays; the chart folds where the page is short
    connect(this, &QSplitter::splitterMoved, this, [this] {
        m_moved = true;
        Q_EMIT chartShownChanged(chartShown());
    });
}

bool MemoryPageSplitter::chartShown() const
{
    return sizes().value(0) > 0;
}

void MemoryPageSplitter::setChartShown(bool shown)
{
    m_moved = true;
    const MemoryPageRoom in = room();
    const int chart =
        shown ? std::min(std::max(0, in.room), std::max(in.room / 2, in.chartLeast)) : 0;
    setSizes({chart, std::max(0, in.room - chart)});
    Q_EMIT chartShownChanged(chartShown());
}

MemoryPageRoom MemoryPageSplitter::room() const
{
    MemoryPageRoom in;
    in.room = height() - handleWidth();
    // A chart shorter than about six lines of text draws no time labels, and its memory labels
    // as "..." (MemoryKindChart).
    const int legend = m_legend->hasHeightForWidth() ? m_legend->heightForWidth(width())
                                                     : m_legend->sizeHint().height();
    const QLayout *pane = widget(0)->layout();
    in.chartLeast = legend + (pane ? pane->spacing() : 0) + 6 * m_chart->fontMetrics().height();
    const int rows = kObjectTableLeastRows * m_table->verticalHeader()->defaultSectionSize();
    in.tableLeast = m_table->horizontalHeader()->sizeHint().height() + rows +
                    2 * m_table->frameWidth() +
                    m_table->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_table);
    return in;
}

void MemoryPageSplitter::resizeEvent(QResizeEvent *event)
{
    QSplitter::resizeEvent(event);
    if (!m_moved)
        share();
}

void MemoryPageSplitter::share()
{
    setSizes(shareMemoryPage(room()));
    Q_EMIT chartShownChanged(chartShown());
}

} // namespace rankstep::gui
