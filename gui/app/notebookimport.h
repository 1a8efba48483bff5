// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include "core/error.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QAction;
class QMenu;
class QWidget;

namespace QCoro {
template <typename T>
class Task;
}

namespace rankstep::lessons {
struct PuzzleImport;
}

namespace rankstep::gui {

class CodeEditor;
class CodeKeeper;
class ProgressStore;

// What an import does to the window: the code typed so far is saved first, and the open lesson
// is opened again when the import replaced its code.
struct ImportTarget {
    QWidget &window; // the dialogs' parent
    CodeKeeper &keeper;
    CodeEditor &editor;
    std::function<const lessons::Lesson *()> openLesson;
    std::function<bool(const QString &lessonId)> reopen;
};

// What importing one file did, in the learner's words.
struct ImportSummary {
    QString file;               // the file's name, without its folder
    QString error;              // set when the file could not be read; nothing was imported then
    QStringList imported;       // ids of the lessons whose code is now the file's function
    QStringList unchanged;      // ids whose saved code already was exactly the file's function
    QStringList backups;        // paths where a learner's own earlier code was kept
    QStringList missingPuzzles; // ids of the notebook's puzzles the file does not define
    QStringList missingOthers;  // ids of Rankstep's further lessons it does not define
    QStringList unmatched;      // functions of the file that no lesson names
};

// File > Import notebook or Python file… (Ctrl+I): finds the puzzle functions in a learner's
// notebook or .py (core/lessons/puzzleimport.h), saves each as its lesson's code, and says what
// it found. A learner's own code (saved, and neither the starter nor the imported code) is never
// lost: it is kept beside the lesson's code file as "<id>.before-import-<date-time>.py".
class NotebookImport : public QObject
{
    Q_OBJECT
public:
    // Adds the action to the window's File menu.
    NotebookImport(ImportTarget target, QMenu *fileMenu,
                   const std::vector<lessons::Lesson> &lessons, ProgressStore &progress);

    QAction *action() const { return m_action; }
    // Imports the file, reloads the open lesson's editor when its code changed; no dialogs. Reads
    // and searches the file on the calling thread.
    ImportSummary importFile(const QString &path);
    // Imports the file and shows the summary in a message box (object name "importSummary",
    // opened without blocking). The file is read and searched on a worker thread (a 32 MB
    // notebook takes seconds) while the status bar shows the import; the window stays live.
    // Files asked for while one is imported (several dropped at once) follow it in order.
    void importAndReport(const QString &path);
    bool isImporting() const { return m_importing; }
    // importFile() then the summary, on the calling thread: a script's --import is done before
    // the script's run or screenshot.
    void importAndReportNow(const QString &path) { report(path, importFile(path)); }
    // Asks for a file (dialog object name "importFileDialog"), then importAndReport().
    void chooseFile();

    // The summary as the dialog shows it: a headline and the details.
    static QString headline(const ImportSummary &summary);
    QString details(const ImportSummary &summary) const;

Q_SIGNALS:
    // Every import, read or refused (summary.error says why).
    void importFinished(const rankstep::gui::ImportSummary &summary);
    // A file was read (whatever it held): File > Open Recent keeps it.
    void fileRead(const QString &path);
    // An import began (the file's name) or the last one queued ended (an empty name).
    void importingChanged(bool importing, const QString &fileName);

private:
    QCoro::Task<void> importQueued();
    // Saves what was found in the file at `path` and reports it (importFinished).
    ImportSummary apply(const QString &path, const core::Result<lessons::PuzzleImport> &found);
    void report(const QString &path, const ImportSummary &summary);
    void saveFunction(ImportSummary &summary, const QString &id, const QString &code);
    QString titleOf(const QString &id) const;

    ImportTarget m_target;
    const std::vector<lessons::Lesson> &m_lessons;
    ProgressStore &m_progress;
    QAction *m_action = nullptr;
    QStringList m_queue; // files waiting for the one being imported
    bool m_importing = false;
};

} // namespace rankstep::gui
