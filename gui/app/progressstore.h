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
    // overwrite each other's code. nullopt when taken, else a sentence: another instance holds it
    // (naming it), or the folder cannot be written (read-only). Kept as readOnlyWhy until a later
    // lock() takes the store.
    std::optional<QString> lock();
    // Why this window writes nothing to the store (code, backups, recovery copies); empty when it
    // may. Only lock() sets it: a store never locked is writable (tests, scripts).
    QString readOnlyWhy() const { return m_readOnlyWhy; }

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
    // Writes the whole file or nothing (core::writeWholeFile: a failed write never replaces the
    // saved code); a link there is replaced by a file, never written through (nothing outside the
    // store is written). False with a reason (the OS's, in plain words) on failure, and when the
    // store is read-only here.
    bool saveCode(const QString &lessonId, const QString &code, QString *error = nullptr);
    // Keeps the bytes of a lesson's code file as they are, as `name` in the store (an import's
    // backup). The copy's path, or empty with a reason.
    QString keepCopy(const QString &lessonId, const QString &name, QString *error) const;
    // The file a lesson's code file links to, or empty when it is no symbolic link.
    QString linkTarget(const QString &lessonId) const;
    QString codePath(const QString &lessonId) const;
    QString root() const { return m_root; }
    // Keeps a copy of code that could not be saved: in the store's "recovery" folder (not when the
    // store is read-only here or that folder is a link), else in the system's temporary folder.
    // The copy's path, or empty (with a reason) when neither worked.
    QString saveRecovery(const QString &lessonId, const QByteArray &bytes, QString *error) const;

    QString lastLesson() const;
    void setLastLesson(const QString &lessonId);

private:
    void migrateRenamedLessons();
    QString notWritable() const;
    bool writeInStore(const QString &path, const QByteArray &bytes, QString *error) const;
    QString m_root;
    std::unique_ptr<QLockFile> m_lock;
    QString m_readOnlyWhy;
};

QString stateName(ProgressStore::State state); // "new", "attempted", "solved"

} // namespace rankstep::gui
