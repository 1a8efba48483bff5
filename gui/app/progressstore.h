// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <memory>
#include <optional>

class QLockFile;

namespace rankstep::gui {

// Where a learner stands: each lesson's state and their code, kept across restarts and crashes.
// Code lives in files (one per lesson) under the app's data folder; states in QSettings.
class ProgressStore
{
public:
    enum class State { New, Attempted, Solved };

    // root: the folder for code files; empty means the standard app data location.
    explicit ProgressStore(QString root = {});
    ~ProgressStore();
    ProgressStore(const ProgressStore &) = delete;
    ProgressStore &operator=(const ProgressStore &) = delete;

    // Takes the store for this window (a QLockFile in its folder), so that two windows do not
    // overwrite each other's code. nullopt when taken, else a sentence naming the other instance
    // (kept as heldElsewhere until a later lock() takes the store).
    std::optional<QString> lock();
    QString heldElsewhere() const { return m_heldElsewhere; }

    State state(const QString &lessonId) const;
    // Records a run's outcome; a solved lesson stays solved.
    void recordRun(const QString &lessonId, bool solved);
    void reset(const QString &lessonId);

    struct StoredCode {
        QString text;    // what the editor shows
        QString notText; // empty, or why the file is not UTF-8 text and must never be rewritten
    };
    // The saved code of a lesson, or nullopt when there is none (or it is not a regular file).
    std::optional<StoredCode> code(const QString &lessonId) const;
    // Writes atomically (QSaveFile); false with a reason on failure.
    bool saveCode(const QString &lessonId, const QString &code, QString *error = nullptr);
    QString codePath(const QString &lessonId) const;
    QString root() const { return m_root; }
    // Keeps a copy of code that could not be saved: in the store's "recovery" folder, else in the
    // system's temporary folder. The copy's path, or empty (with a reason) when neither worked.
    QString saveRecovery(const QString &lessonId, const QString &code, QString *error) const;

    QString lastLesson() const;
    void setLastLesson(const QString &lessonId);

private:
    void migrateRenamedLessons();
    QString m_root;
    std::unique_ptr<QLockFile> m_lock;
    QString m_heldElsewhere;
};

QString stateName(ProgressStore::State state); // "new", "attempted", "solved"

} // namespace rankstep::gui
