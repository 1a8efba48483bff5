// SPDX-License-Identifier: MIT
#include "ranktimesmodel.h"

#include <algorithm>
#include <numeric>

namespace rankstep::gui {
namespace {

// A time as the table shows it: to a tenth of a step (or of a millisecond, for a run in real
// time), "35.7" rather than "35.744".
QString shortTime(core::SimTime time)
{
    return QString::number(double(time.ticks()) / double(core::SimTime::kTicksPerStep), 'f', 1);
}

core::SimTime timeOf(const core::RankFigures &figures, int column)
{
    switch (column) {
        case RankTimesModel::Busy:
            return figures.compute;
        case RankTimesModel::Idle:
            return figures.idle;
        default:
            return figures.communication;
    }
}

// The value a column sorts by: the rank itself, or one of its times in ticks.
std::int64_t valueOf(const core::Trace &trace, int rank, int column)
{
    if (column < RankTimesModel::Busy || column >= RankTimesModel::ColumnCount)
        return rank;
    return timeOf(trace.figures.ranks[std::size_t(rank)], column).ticks();
}

} // namespace

RankTimesModel::RankTimesModel(QObject *parent) : QAbstractTableModel(parent) {}

void RankTimesModel::setTrace(TracePtr trace, const QString &unit)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_unit = unit;
    m_order.resize(m_trace ? m_trace->figures.ranks.size() : 0);
    std::iota(m_order.begin(), m_order.end(), 0);
    applyOrder();
    endResetModel();
}

int RankTimesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_order.size());
}

int RankTimesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankTimesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int rank = rankAt(index.row());
    if (role == RankRole)
        return rank;
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (index.column() == Rank)
        return role == Qt::DisplayRole ? QVariant(QString::number(rank)) : QVariant();
    const core::SimTime time = timeOf(m_trace->figures.ranks[std::size_t(rank)], index.column());
    if (role == Qt::DisplayRole)
        return shortTime(time);
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(time.toString());
    return {};
}

QString RankTimesModel::widestText(int column) const
{
    if (m_order.empty())
        return QStringLiteral("0");
    if (column == Rank)
        return QString::number(m_order.size() - 1);
    core::SimTime largest;
    for (const core::RankFigures &figures : m_trace->figures.ranks)
        largest = std::max(largest, timeOf(figures, column));
    return shortTime(largest);
}

QVariant RankTimesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto timed = [this](const QString &heading) {
        return m_unit.isEmpty() ? heading : heading + QStringLiteral(" (%1)").arg(m_unit);
    };
    switch (section) {
        case Rank:
            return tr("Rank");
        case Busy:
            return timed(tr("Busy"));
        case Idle:
            return timed(tr("Idle"));
        case Communication:
            return timed(tr("Communication"));
        default:
            return {};
    }
}

void RankTimesModel::sort(int column, Qt::SortOrder order)
{
    if (column >= ColumnCount)
        return;
    if (column < 0) { // no sort: the ranks' order
        column = Rank;
        order = Qt::AscendingOrder;
    }
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> ranks; // the rank each persistent index was on
    ranks.reserve(std::size_t(before.size()));
    for (const QModelIndex &index : before)
        ranks.push_back(rankAt(index.row()));
    m_column = column;
    m_sortOrder = order;
    applyOrder();
    std::vector<int> rowOf(m_order.size());
    for (std::size_t row = 0; row < m_order.size(); ++row)
        rowOf[std::size_t(m_order[row])] = int(row);
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i)
        after << index(rowOf[std::size_t(ranks[std::size_t(i)])], before[i].column());
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void RankTimesModel::applyOrder()
{
    if (!m_trace)
        return;
    const core::Trace &trace = *m_trace;
    const int column = m_column;
    const bool ascending = m_sortOrder == Qt::AscendingOrder;
    std::sort(m_order.begin(), m_order.end(), [&](int a, int b) {
        const std::int64_t x = valueOf(trace, a, column), y = valueOf(trace, b, column);
        if (x != y)
            return ascending ? x < y : x > y;
        return a < b;
    });
}

} // namespace rankstep::gui
