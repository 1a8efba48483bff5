// SPDX-License-Identifier: MIT
#include "codekeeper.h"

#include "apptempfolder.h"
#include "codeeditor.h"
#include "core/regularfile.h"
#include "core/wholefile.h"
#include "progressstore.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

namespace rankstep::gui {

CodeKeeper::CodeKeeper(ProgressStore &progress, CodeEditor &editor, QObject *parent)
    : QObject(parent), m_progress(progress), m_editor(editor)
{}

CodeKeeper::~CodeKeeper() = default;

void CodeKeeper::open(const QString &lessonId, const QString &starter)
{
    m_lessonId = lessonId;
    m_persist = true;
    m_recoveryPath.clear();
    const auto stored = m_progress.code(lessonId);
    if (!m_progress.readOnlyWhy().isEmpty())
        m_progress.lock(); // the other window may have closed since
    m_readOnlyWhy = m_progress.readOnlyWhy();
    if (stored && !stored->notText.isEmpty())
        m_readOnlyWhy =
            tr("Your saved code %1 is shown read-only and is never rewritten: %2. Open it in "
               "another editor to fix it, or use Reset to starter to start again.")
                .arg(QDir::toNativeSeparators(m_progress.codePath(lessonId)), stored->notText);
    m_editor.setCode(stored ? stored->text : starter);
    m_editor.setReadOnly(readOnly());
    const QString link = m_progress.linkTarget(lessonId);
    setNotice(!m_readOnlyWhy.isEmpty() || link.isEmpty()
                  ? m_readOnlyWhy
                  : tr("Your saved code %1 is a link to %2. Rankstep writes only in its own "
                       "folder: your next save puts a file of its own in the link's place, and "
                       "%2 stays as it is.")
                        .arg(QDir::toNativeSeparators(m_progress.codePath(lessonId)),
                             QDir::toNativeSeparators(link)));
}

void CodeKeeper::resetTo(const QString &starter)
{
    if (m_persist && !m_progress.readOnlyWhy().isEmpty()) {
        setNotice(tr("Nothing was reset. %1").arg(m_progress.readOnlyWhy()));
        return;
    }
    if (m_persist && readOnly()) { // the file is not text: keep its bytes before it is replaced
        const auto bytes = core::readRegularFile(m_progress.codePath(m_lessonId).toStdString(),
                                                 core::kMaxCodeFileBytes);
        QString error = bytes ? QString() : QString::fromStdString(bytes.error().message);
        const QString copy =
            bytes ? m_progress.saveRecovery(m_lessonId, QByteArray::fromStdString(*bytes), &error)
                  : QString();
        if (copy.isEmpty()) {
            setNotice(tr("Your saved code was not replaced: a copy of it could not be kept (%1).")
                          .arg(error));
            return;
        }
        m_readOnlyWhy.clear();
        m_editor.setReadOnly(false);
        setNotice(tr("Your earlier file was kept in %1.").arg(QDir::toNativeSeparators(copy)));
    }
    m_editor.replaceAllUndoable(starter);
}

void CodeKeeper::showScript(const QString &lessonId, const QString &code,
                            const QString &readOnlyWhy)
{
    m_lessonId = lessonId;
    m_persist = false;
    m_recoveryPath.clear();
    m_readOnlyWhy = readOnlyWhy;
    m_editor.setCode(code);
    m_editor.setReadOnly(readOnly());
    setNotice(readOnlyWhy);
}

QString CodeKeeper::runFilePath() const
{
    if (m_persist && !readOnly())
        return m_progress.codePath(m_lessonId);
    if (!m_scratch)
        return {};
    return m_scratch->filePath(m_lessonId + QStringLiteral(".py"));
}

bool CodeKeeper::saveScratch(QString *error)
{
    if (!m_scratch)
        m_scratch = std::make_unique<QTemporaryDir>(appTempFolderTemplate());
    const QByteArray code = m_editor.text().toUtf8();
    const auto failed = core::writeWholeFile(QFile::encodeName(runFilePath()).toStdString(),
                                             std::string_view(code.constData(), code.size()));
    if (failed && error)
        *error = QString::fromStdString(failed->reason);
    return !failed;
}

bool CodeKeeper::save(QString *error)
{
    const bool saved = write(error);
    if (saved)
        m_editor.markSaved(); // saved now: its pending save would write it again later
    return saved;
}

bool CodeKeeper::write(QString *error)
{
    if (m_lessonId.isEmpty())
        return false;
    if (!m_persist || readOnly())
        return saveScratch(error);
    QString why;
    if (m_progress.saveCode(m_lessonId, m_editor.text(), &why)) {
        m_recoveryPath.clear();
        setNotice({});
        return true;
    }
    QString recoveryError;
    const QString copy =
        m_progress.saveRecovery(m_lessonId, m_editor.text().toUtf8(), &recoveryError);
    if (!copy.isEmpty()) {
        if (!m_recoveryPath.isEmpty() && m_recoveryPath != copy)
            QFile::remove(m_recoveryPath); // one copy per failed-save episode, the newest
        m_recoveryPath = copy;
    }
    const QString where = QDir::toNativeSeparators(m_progress.codePath(m_lessonId));
    setNotice(copy.isEmpty()
                  ? tr("Your code could not be saved to %1 (%2), and no recovery copy could be "
                       "written (%3). It is only in this editor now: copy it somewhere safe.")
                        .arg(where, why, recoveryError)
                  : tr("Your code could not be saved to %1 (%2). It stays in the editor, and a "
                       "copy is kept in %3. Rankstep tries again as you type.")
                        .arg(where, why, QDir::toNativeSeparators(copy)));
    if (error)
        *error = why;
    return false;
}

void CodeKeeper::setNotice(const QString &text)
{
    if (text == m_notice)
        return;
    m_notice = text;
    Q_EMIT noticeChanged(text);
}

} // namespace rankstep::gui
