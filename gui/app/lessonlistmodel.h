// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"
#include "progressstore.h"

#include <QAbstractListModel>

#include <vector>

namespace rankstep::gui {

// The lessons in order, each with its state (new, attempted, solved) from the progress store.
class LessonListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { IdRole = Qt::UserRole + 1, StateRole };

    LessonListModel(std::vector<lessons::Lesson> lessons, ProgressStore &progress,
                    QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;

    const lessons::Lesson *lessonAt(int row) const;
    int rowOf(const QString &lessonId) const; // -1 when unknown
    const std::vector<lessons::Lesson> &lessons() const { return m_lessons; }
    // Call after the progress store changed for this lesson.
    void refresh(const QString &lessonId);

private:
    std::vector<lessons::Lesson> m_lessons;
    ProgressStore &m_progress;
};

} // namespace rankstep::gui
