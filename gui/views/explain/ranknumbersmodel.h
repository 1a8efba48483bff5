// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractListModel>

namespace rankstep::gui {

// The ranks 0 to N-1 as a list of their numbers, each made when a view reads it: a rank chooser
// over 16,384 ranks holds no item per rank (a QComboBox's own items took 16,384 of them and
// measured every one before its first show).
class RankNumbersModel : public QAbstractListModel
{
public:
    using QAbstractListModel::QAbstractListModel;

    void setRanks(int ranks); // 0 for none
    int ranks() const { return m_ranks; }
    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    int m_ranks = 0;
};

} // namespace rankstep::gui
