// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

#include <memory>

class QTemporaryDir;

namespace rankstep::gui {

class CodeEditor;
class ProgressStore;

// Keeps the learner's code safe between the editor and the progress store: it loads a lesson's
// saved code, saves what is typed, and never rewrites a file it could not read as text or a store
// it may not write (another window holds it, or its folder is read-only: the editor is then
// read-only). A code file that is a link is replaced by a file at the next save, never written
// through. A save that fails leaves the text in the
// editor, keeps a copy in a recovery file and says so (notice) until a save works again.
class CodeKeeper : public QObject
{
    Q_OBJECT
public:
    CodeKeeper(ProgressStore &progress, CodeEditor &editor, QObject *parent = nullptr);
    ~CodeKeeper() override;

    // Shows the lesson's saved code, or the starter when there is none; read-only when the file
    // is not text or the store may not be written (ProgressStore::lock, tried again here).
    void open(const QString &lessonId, const QString &starter);
    // Replaces the code with the starter, as the learner asked. A file that was not text is
    // first copied to the recovery folder; a store this window may not write stays untouched, and
    // the notice says why.
    void resetTo(const QString &starter);
    // Shows code that is not the learner's (a scripted screenshot, a recorded demonstration, a
    // learner's submission in the class roster): runs use a scratch file. With a reason, the
    // editor is read-only and the reason is the notice above it.
    void showScript(const QString &lessonId, const QString &code, const QString &readOnlyWhy = {});

    // Saves the editor's text where the next run reads it: the lesson's file, or a scratch file
    // when the code is not the learner's or may not be written; the editor's pending save is then
    // dropped. False with a reason on failure.
    bool save(QString *error = nullptr);
    QString runFilePath() const;
    bool readOnly() const { return !m_readOnlyWhy.isEmpty(); }
    // The editor shows the learner's code of a lesson (not a script's): runs count as progress.
    bool learnersCode() const { return m_persist; }
    QString notice() const { return m_notice; }

Q_SIGNALS:
    // What the learner must know about their code file (read-only, a failed save and where the
    // copy is); empty when all is well.
    void noticeChanged(const QString &text);

private:
    bool write(QString *error);
    bool saveScratch(QString *error);
    void setNotice(const QString &text);

    ProgressStore &m_progress;
    CodeEditor &m_editor;
    QString m_lessonId;
    QString m_readOnlyWhy; // the code shown may not be written to the lesson's file
    bool m_persist = true;
    QString m_recoveryPath; // this failed-save episode's copy
    QString m_notice;
    std::unique_ptr<QTemporaryDir> m_scratch;
};

} // namespace rankstep::gui
