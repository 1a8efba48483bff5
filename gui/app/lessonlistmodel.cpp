// SPDX-License-Identifier: MIT
#include "lessonlistmodel.h"

#include "lessontitle.h"

#include <QColor>

namespace rankstep::gui {

LessonListModel::LessonListModel(std::vector<lessons::Lesson> lessons, ProgressStore &progress,
                                 QObject *parent)
    : QAbstractListModel(parent), m_lessons(std::move(lessons)), m_progress(progress)
{}

int LessonListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lessons.size());
}

QVariant LessonListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() < 0 || index.row() >= rowCount())
        return {};
    const lessons::Lesson &lesson = m_lessons[std::size_t(index.row())];
    const QString id = QString::fromStdString(lesson.id);
    const ProgressStore::State state = m_progress.state(id);
    switch (role) {
        case Qt::DisplayRole: {
            const QString mark = state == ProgressStore::State::Solved      ? QStringLiteral("✓ ")
                                 : state == ProgressStore::State::Attempted ? QStringLiteral("• ")
                                                                            : QStringLiteral("   ");
            return mark + lessonTitle(lesson);
        }
        case Qt::ToolTipRole: {
            // "1 rank"; a PyTorch lesson has no puzzle layers or batches, it trains for steps.
            const int ranks = lesson.config.ranks;
            const QString rankText = ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(ranks);
            const QString setting =
                lesson.isTorch()
                    ? tr("%1, PyTorch, %2 steps").arg(rankText).arg(lesson.torch->steps)
                    : tr("%1, %2 layers, %3 batches")
                          .arg(rankText)
                          .arg(lesson.config.layers)
                          .arg(lesson.config.batches);
            return tr("%1 — %2 (%3)").arg(id, setting, stateName(state));
        }
        case Qt::ForegroundRole:
            if (state == ProgressStore::State::Solved)
                return QColor(0x1b, 0x7a, 0x2e);
            return {};
        case IdRole:
            return id;
        case StateRole:
            return stateName(state);
        default:
            return {};
    }
}

const lessons::Lesson *LessonListModel::lessonAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return nullptr;
    return &m_lessons[std::size_t(row)];
}

int LessonListModel::rowOf(const QString &lessonId) const
{
    for (std::size_t i = 0; i < m_lessons.size(); ++i)
        if (QString::fromStdString(m_lessons[i].id) == lessonId)
            return int(i);
    return -1;
}

void LessonListModel::refresh(const QString &lessonId)
{
    const int row = rowOf(lessonId);
    if (row >= 0)
        Q_EMIT dataChanged(index(row), index(row));
}

} // namespace rankstep::gui
