// SPDX-License-Identifier: MIT
#pragma once

#include "core/explain/memoryexplain.h"

#include <QAbstractTableModel>

#include <vector>

namespace rankstep::gui {

// The objects a rank holds at one moment, a row each, largest first: kind, layer, batches,
// shards, bytes, the line that stored it and when (core/explain/memoryexplain.h).
class LiveObjectsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Kind, Layer, Batches, Shards, Bytes, Line, Since, ColumnCount };
    static constexpr int LineRole = Qt::UserRole + 1; // the line, 1-based (0: none)

    explicit LiveObjectsModel(QObject *parent = nullptr);

    void setObjects(std::vector<explain::LiveObject> objects);
    const std::vector<explain::LiveObject> &objects() const { return m_objects; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<explain::LiveObject> m_objects;
};

} // namespace rankstep::gui
