// SPDX-License-Identifier: MIT
#pragma once

#include "core/explain/memoryexplain.h"

#include <QAbstractTableModel>

#include <vector>

namespace rankstep::gui {

// The objects a rank holds at one moment, a row each, largest first: kind, layer, batches,
// shards (a chunk or part of the sequence too), bytes, the line that stored it and when, and what
// an unfinished one still lacks (core/explain/memoryexplain.h, describe.h).
class LiveObjectsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // Unfinished beside the kind: the Why tab is narrow, and what an object lacks matters first.
    enum Column { Kind, Unfinished, Layer, Batches, Shards, Bytes, Line, Since, ColumnCount };
    static constexpr int LineRole = Qt::UserRole + 1; // the line, 1-based (0: none)

    explicit LiveObjectsModel(QObject *parent = nullptr);

    // contextSize: the run's context degree, the chunks an attention needs.
    void setObjects(std::vector<explain::LiveObject> objects, int contextSize = 1);
    const std::vector<explain::LiveObject> &objects() const { return m_objects; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString unfinishedText(const core::Object &object, bool whole) const;

    std::vector<explain::LiveObject> m_objects;
    int m_contextSize = 1;
};

} // namespace rankstep::gui
