// SPDX-License-Identifier: MIT
#include "liveobjectsmodel.h"

#include "enginetext.h"
#include "kindcolors.h"

#include "core/attention.h"
#include "core/explain/describe.h"

#include <QCoreApplication>

namespace rankstep::gui {

LiveObjectsModel::LiveObjectsModel(QObject *parent) : QAbstractTableModel(parent) {}

void LiveObjectsModel::setObjects(std::vector<explain::LiveObject> objects, int contextSize)
{
    beginResetModel();
    m_objects = std::move(objects);
    m_contextSize = contextSize;
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

// What an unfinished object lacks: briefly in the cell ("3 of 4 chunks seen", as the state view's
// chip "a1 c0 3/4" counts them; "partial sum"), in the tooltip in explain's words (the engine's,
// gui/session/enginetext.h).
QString LiveObjectsModel::unfinishedText(const core::Object &object, bool whole) const
{
    if (whole)
        return QString::fromStdString(
            explain::describeUnfinished(object, m_contextSize, engineWords()));
    if (core::isUnfinishedAttention(object))
        return tr("%1 of %2 chunks seen")
            .arg(core::attendedChunks(object).size())
            .arg(object.kind == core::ObjectKind::WeightGrad ? m_contextSize : object.total);
    return explain::isUnfinished(object) ? tr("partial sum") : QString();
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
    if (role == Qt::TextAlignmentRole && index.column() != Kind && index.column() != Unfinished)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (index.column() == Unfinished && (role == Qt::DisplayRole || role == Qt::ToolTipRole))
        return unfinishedText(o.object, role == Qt::ToolTipRole);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const bool batches = core::hasBatches(o.object.kind);
    // A weight's shards; an activation's chunk of the context's sequence or part of the sequence
    // (a tensor partial's shards name the slice its term comes from: it holds the whole sequence).
    const bool shards = o.object.total > 1 && (core::hasShards(o.object.kind) || !o.object.partial);
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
        case Unfinished:
            return tr("Unfinished");
        default:
            return {};
    }
}

} // namespace rankstep::gui
