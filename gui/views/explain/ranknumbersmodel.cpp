// SPDX-License-Identifier: MIT
#include "ranknumbersmodel.h"

#include <algorithm>

namespace rankstep::gui {

void RankNumbersModel::setRanks(int ranks)
{
    ranks = std::max(0, ranks);
    if (ranks == m_ranks)
        return;
    beginResetModel();
    m_ranks = ranks;
    endResetModel();
}

int RankNumbersModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_ranks;
}

QVariant RankNumbersModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::DisplayRole || role == Qt::EditRole || role == Qt::AccessibleTextRole)
        return QString::number(index.row());
    return {};
}

} // namespace rankstep::gui
