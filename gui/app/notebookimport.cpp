// SPDX-License-Identifier: MIT
#include "notebookimport.h"

#include "codeeditor.h"
#include "codekeeper.h"
#include "core/lessons/puzzleimport.h"
#include "progressstore.h"

#include <QAction>
#include <QCoroFuture>
#include <QCoroTask>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>

namespace rankstep::gui {
namespace {

// At most a dozen names: a notebook of thousands of helpers must not make a box taller than
// the screen.
QString listed(const QStringList &items)
{
    constexpr int kShown = 12;
    if (items.size() <= kShown)
        return items.join(QStringLiteral(", "));
    const auto more = int(items.size() - kShown + 1);
    return NotebookImport::tr("%1 and %n more", nullptr, more)
        .arg(items.first(kShown - 1).join(QStringLiteral(", ")));
}

} // namespace

NotebookImport::NotebookImport(ImportTarget target, QMenu *fileMenu,
                               const std::vector<lessons::Lesson> &lessons, ProgressStore &progress)
    : QObject(&target.window), m_target(std::move(target)), m_lessons(lessons), m_progress(progress)
{
    m_action = fileMenu->addAction(tr("Import notebook or Python file…"), this,
                                   &NotebookImport::chooseFile);
    m_action->setObjectName(QStringLiteral("importAction"));
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
}

ImportSummary NotebookImport::importFile(const QString &path)
{
    // A FIFO, a device or a link loop is refused with a reason, never read (a hang).
    return apply(path, lessons::importPuzzleFile(path.toStdString(), m_lessons));
}

ImportSummary NotebookImport::apply(const QString &path,
                                    const core::Result<lessons::PuzzleImport> &found)
{
    ImportSummary summary;
    summary.file = QFileInfo(path).fileName();
    if (!m_progress.readOnlyWhy().isEmpty())
        m_progress.lock();                     // the other window may have closed since
    if (!m_progress.readOnlyWhy().isEmpty()) { // a read-only window writes nothing
        summary.error = tr("Nothing was imported, and no saved code was changed. %1")
                            .arg(m_progress.readOnlyWhy());
        Q_EMIT importFinished(summary);
        return summary;
    }
    // Typed while the file was read: saved first, so that it is what a backup keeps and the
    // editor's reload below does not write it over the imported code.
    m_target.keeper.save();
    if (!found) {
        summary.error = QString::fromStdString(found.error().message);
        Q_EMIT importFinished(summary);
        return summary;
    }
    for (const lessons::ImportedFunction &function : found->found)
        saveFunction(summary, QString::fromStdString(function.lessonId),
                     QString::fromStdString(function.code));
    for (const std::string &id : found->missingLessons) {
        const lessons::Lesson *lesson = lessons::findLesson(m_lessons, id);
        (lesson && lesson->notebookTargets ? summary.missingPuzzles : summary.missingOthers)
            << QString::fromStdString(id);
    }
    for (const std::string &name : found->unmatchedFunctions)
        summary.unmatched << QString::fromStdString(name);
    const lessons::Lesson *open = m_target.openLesson();
    if (open && summary.imported.contains(QString::fromStdString(open->id))) {
        // What was typed is in the backup (or, had the save above failed, the recovery copy):
        // the reload must not save it over the imported code.
        m_target.editor.markSaved();
        m_target.reopen(QString::fromStdString(open->id)); // the editor shows the new code
    }
    Q_EMIT importFinished(summary);
    return summary;
}

void NotebookImport::saveFunction(ImportSummary &summary, const QString &id, const QString &code)
{
    const lessons::Lesson *lesson = lessons::findLesson(m_lessons, id.toStdString());
    const auto stored = m_progress.code(id);
    const std::optional<QString> earlier =
        stored ? std::optional<QString>(stored->text) : std::nullopt;
    if (earlier && *earlier == code) {
        summary.unchanged << id;
        return;
    }
    if (earlier && lesson && *earlier != QString::fromStdString(lesson->starter)) {
        const QString stamp =
            QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
        const QString name = id + QStringLiteral(".before-import-") + stamp + QStringLiteral(".py");
        QString why;
        const QString backup = m_progress.keepCopy(id, name, &why);
        if (backup.isEmpty()) {
            summary.error +=
                tr("%1 was not imported: its earlier code could not be kept in %2 (%3).\n")
                    .arg(id, QDir::toNativeSeparators(m_progress.root() + QLatin1Char('/') + name),
                         why);
            return;
        }
        summary.backups << backup;
    }
    QString error;
    if (m_progress.saveCode(id, code, &error))
        summary.imported << id;
    else // the file that was there is kept whole: a failed write never replaces it
        summary.error += tr("%1 was not imported: %2 could not be written (%3); its saved code "
                            "is unchanged.\n")
                             .arg(id, QDir::toNativeSeparators(m_progress.codePath(id)), error);
}

void NotebookImport::importAndReport(const QString &path)
{
    m_queue << path;
    if (m_importing)
        return;
    // Busy from now on, and the files read from the event loop: never inside the caller (a drop
    // handler), even when the worker is done before the coroutine looks.
    m_importing = true;
    Q_EMIT importingChanged(true, QFileInfo(path).fileName());
    QTimer::singleShot(0, this, [this] { importQueued(); }); // reports its own errors
}

QCoro::Task<void> NotebookImport::importQueued()
{
    QPointer<NotebookImport> self(this);
    while (!m_queue.isEmpty()) {
        const QString path = m_queue.takeFirst();
        Q_EMIT importingChanged(true, QFileInfo(path).fileName());
        // The worker gets its own copy of the lessons: the window may close while it reads.
        using Found = core::Result<lessons::PuzzleImport>;
        QFuture<std::shared_ptr<Found>> reading =
            QtConcurrent::run([file = path.toStdString(), lessons = m_lessons] {
                try {
                    return std::make_shared<Found>(lessons::importPuzzleFile(file, lessons));
                } catch (const std::exception &e) { // out of memory: said, and the queue goes on
                    return std::make_shared<Found>(
                        core::Error(core::ErrorKind::Usage, -1, 0,
                                    std::string("the file could not be read: ") + e.what()));
                }
            });
        const std::shared_ptr<Found> found = co_await reading;
        if (!self)
            co_return;
        report(path, apply(path, *found));
    }
    m_importing = false;
    Q_EMIT importingChanged(false, {});
}

void NotebookImport::report(const QString &path, const ImportSummary &summary)
{
    if (summary.error.isEmpty()) {
        QSettings().setValue(QStringLiteral("import/folder"), QFileInfo(path).absolutePath());
        Q_EMIT fileRead(path);
    }
    auto *box = new QMessageBox(
        (summary.imported.isEmpty() && summary.unchanged.isEmpty()) || !summary.error.isEmpty()
            ? QMessageBox::Warning
            : QMessageBox::Information,
        tr("Import"), headline(summary), QMessageBox::Ok, &m_target.window);
    box->setObjectName(QStringLiteral("importSummary"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(details(summary));
    box->open();
}

void NotebookImport::chooseFile()
{
    auto *dialog = new QFileDialog(&m_target.window, tr("Import notebook or Python file"),
                                   QSettings().value(QStringLiteral("import/folder")).toString(),
                                   tr("Notebooks and Python files (*.ipynb *.py);;All files (*)"));
    dialog->setObjectName(QStringLiteral("importFileDialog"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &NotebookImport::importAndReport);
    dialog->open();
}

QString NotebookImport::headline(const ImportSummary &summary)
{
    const auto count = summary.imported.size() + summary.unchanged.size();
    if (count == 0)
        return summary.error.isEmpty()
                   ? tr("%1 holds no puzzle function of these lessons.").arg(summary.file)
                   : tr("Nothing was imported from %1.").arg(summary.file);
    if (count == 1)
        return tr("Found 1 puzzle function in %1.").arg(summary.file);
    return tr("Found %1 puzzle functions in %2.").arg(count).arg(summary.file);
}

QString NotebookImport::details(const ImportSummary &summary) const
{
    QStringList lines;
    if (!summary.error.isEmpty())
        lines << summary.error.trimmed();
    for (const QString &id : summary.imported)
        lines << tr("✓ %1 (%2): loaded into its editor").arg(titleOf(id), id);
    for (const QString &id : summary.unchanged)
        lines << tr("✓ %1 (%2): already had this code").arg(titleOf(id), id);
    for (const QString &backup : summary.backups)
        lines << tr("Your earlier code was kept in %1").arg(backup);
    if (!summary.missingPuzzles.isEmpty())
        lines << tr("Not found (no function of that name): %1").arg(listed(summary.missingPuzzles));
    if (!summary.missingOthers.isEmpty() && !summary.imported.isEmpty())
        lines << tr("Rankstep's other lessons, not in the notebook, keep their code: %1")
                     .arg(listed(summary.missingOthers));
    if (!summary.unmatched.isEmpty())
        lines << tr("Functions that match no lesson (left out): %1").arg(listed(summary.unmatched));
    return lines.join(QLatin1Char('\n'));
}

QString NotebookImport::titleOf(const QString &id) const
{
    const lessons::Lesson *lesson = lessons::findLesson(m_lessons, id.toStdString());
    return lesson ? QString::fromStdString(lesson->title) : id;
}

} // namespace rankstep::gui
