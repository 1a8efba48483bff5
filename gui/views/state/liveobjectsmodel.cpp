// SPDX-License-Identifier: MIT
#include "liveobjectsmodel.h"

#include "kindcolors.h"

#include "core/explain/describe.h"

#include <QCoreApplication>

namespace rankstep::gui {

LiveObjectsModel::LiveObjectsModel(QObject *parent) : QAbstractTableModel(parent) {}

void LiveObjectsModel::setObjects(std::vector<explain::LiveObject> objects)
{
    beginResetModel();
    m_objects = std::move(objects);
    endResetModel();
}

int LiveObjectsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_objects.size());
}

int LiveObjectsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LiveObjectsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const explain::LiveObject &o = m_objects[std::size_t(index.row())];
    if (role == LineRole)
        return o.line;
    if (role == Qt::DecorationRole && index.column() == Kind)
        return kindSwatch(o.object.kind, 12); // as the state panels' key draws the kind
    if (role == Qt::TextAlignmentRole && index.column() != Kind)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const bool batches = core::hasBatches(o.object.kind);
    const bool shards = core::hasShards(o.object.kind) && o.object.total > 1;
    switch (index.column()) {
        case Kind:
            // The engine's word for the kind, in the learner's language (gui/session/enginetext.h).
            return QCoreApplication::translate("EngineText", core::kindWords(o.object.kind));
        case Layer:
            return o.object.layer;
        case Batches:
            return batches ? QString::fromStdString(explain::formatRanges(o.object.batches))
                           : QString();
        case Shards:
            return shards ? tr("%1 of %2")
                                .arg(QString::fromStdString(explain::formatRanges(o.object.shards)))
                                .arg(o.object.total)
                          : QString();
        case Bytes:
            return QVariant::fromValue<qlonglong>(o.bytes);
        case Line:
            return o.line > 0 ? QVariant(o.line) : QVariant();
        case Since:
            return QString::fromStdString(o.since.toString());
        default:
            return {};
    }
}

QVariant LiveObjectsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Kind:
            return tr("Kind");
        case Layer:
            return tr("Layer");
        case Batches:
            return tr("Batches");
        case Shards:
            return tr("Shards");
        case Bytes:
            return tr("Bytes");
        case Line:
            return tr("Line");
        case Since:
            return tr("Stored at t");
        default:
            return {};
    }
}

} // namespace rankstep::gui
