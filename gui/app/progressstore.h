// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <optional>

namespace rankstep::gui {

// Where a learner stands: each lesson's state and their code, kept across restarts and crashes.
// Code lives in files (one per lesson) under the app's data folder; states in QSettings.
class ProgressStore
{
public:
    enum class State { New, Attempted, Solved };

    // root: the folder for code files; empty means the standard app data location.
    explicit ProgressStore(QString root = {});

    State state(const QString &lessonId) const;
    // Records a run's outcome; a solved lesson stays solved.
    void recordRun(const QString &lessonId, bool solved);
    void reset(const QString &lessonId);

    std::optional<QString> code(const QString &lessonId) const;
    // Writes atomically (QSaveFile); false with a reason on failure.
    bool saveCode(const QString &lessonId, const QString &code, QString *error = nullptr);
    QString codePath(const QString &lessonId) const;
    QString root() const { return m_root; }

    QString lastLesson() const;
    void setLastLesson(const QString &lessonId);

private:
    QString m_root;
};

QString stateName(ProgressStore::State state); // "new", "attempted", "solved"

} // namespace rankstep::gui
