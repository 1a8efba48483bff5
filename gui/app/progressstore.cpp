// SPDX-License-Identifier: MIT
#include "progressstore.h"

#include "core/regularfile.h"
#include "core/wholefile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QStringDecoder>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace rankstep::gui {
namespace {

QString settingsKey(const QString &lessonId)
{
    return QStringLiteral("progress/") + lessonId;
}

// Why bytes are not text the editor may show and save back unchanged: empty when they are UTF-8
// without NUL bytes (a NUL would cut the file where Scintilla's text ends).
QString whyNotText(const std::string &bytes)
{
    if (const auto nul = bytes.find('\0'); nul != std::string::npos)
        return QObject::tr("it holds a NUL byte (at byte %1)").arg(nul);
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder.decode(QByteArrayView(bytes.data(), qsizetype(bytes.size())));
    if (decoder.hasError())
        return QObject::tr("it is not UTF-8 text (Latin-1 or another encoding?)");
    return {};
}

} // namespace

QString stateName(ProgressStore::State state)
{
    switch (state) {
        case ProgressStore::State::New:
            return QStringLiteral("new");
        case ProgressStore::State::Attempted:
            return QStringLiteral("attempted");
        case ProgressStore::State::Solved:
            return QStringLiteral("solved");
    }
    return QStringLiteral("new");
}

ProgressStore::ProgressStore(QString root) : m_root(std::move(root))
{
    if (m_root.isEmpty())
        m_root = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                 QStringLiteral("/code");
    QDir().mkpath(m_root);
    migrateRenamedLessons();
}

// Lessons whose name changed: the learner's code and state move to the new name, once. The
// point-to-point lesson was `talk`, the name of the notebook's demonstration of pass_to and
// receive, so grading a notebook counted that demonstration as a failed lesson.
void ProgressStore::migrateRenamedLessons()
{
    static const std::pair<const char *, const char *> kRenamed[] = {{"talk", "pass_along"}};
    QSettings settings;
    for (const auto &[oldName, newName] : kRenamed) {
        const QString from = QString::fromLatin1(oldName);
        const QString to = QString::fromLatin1(newName);
        const QString oldPath = codePath(from);
        if (QFileInfo(oldPath).isFile() && !QFileInfo::exists(codePath(to))) {
            const auto bytes =
                core::readRegularFile(oldPath.toStdString(), core::kMaxCodeFileBytes);
            QString text =
                bytes ? QString::fromUtf8(bytes->data(), qsizetype(bytes->size())) : QString();
            // The function keeps the learner's body under the lesson's new name.
            const QRegularExpression definition(QStringLiteral("^((?:async\\s+)?def\\s+)") +
                                                    QRegularExpression::escape(from) +
                                                    QStringLiteral("(\\s*\\()"),
                                                QRegularExpression::MultilineOption);
            text.replace(definition, QStringLiteral("\\1") + to + QStringLiteral("\\2"));
            if (bytes && !text.contains(QChar::ReplacementCharacter) &&
                writeInStore(codePath(to), text.toUtf8(), nullptr))
                QFile::remove(oldPath);
            else if (!bytes || text.contains(QChar::ReplacementCharacter))
                QFile::rename(oldPath, codePath(to)); // not text: moved as it is
        }
        const QString oldKey = settingsKey(from);
        if (settings.contains(oldKey)) {
            if (!settings.contains(settingsKey(to)))
                settings.setValue(settingsKey(to), settings.value(oldKey));
            settings.remove(oldKey);
        }
        if (settings.value(QStringLiteral("session/lastLesson")).toString() == from)
            settings.setValue(QStringLiteral("session/lastLesson"), to);
    }
}

ProgressStore::~ProgressStore() = default;

std::optional<QString> ProgressStore::lock()
{
    if (m_lock && m_lock->isLocked())
        return std::nullopt;
    QDir().mkpath(m_root);
    m_lock = std::make_unique<QLockFile>(m_root + QStringLiteral("/.rankstep.lock"));
    m_lock->setStaleLockTime(0); // held as long as the window is open; a dead holder is stale
    if (m_lock->tryLock(0)) {
        m_readOnlyWhy.clear();
        return std::nullopt;
    }
    const bool held = m_lock->error() == QLockFile::LockFailedError;
    qint64 pid = 0;
    QString host, application;
    m_lock->getLockInfo(&pid, &host, &application);
    m_lock.reset();
    if (!held) // no lock file could be made: a read-only folder, not another window
        return m_readOnlyWhy =
                   QObject::tr(
                       "Your code folder %1 cannot be written (%2), so Rankstep can save "
                       "nothing there: this window shows your code read-only. Make the "
                       "folder writable and open the lesson again to edit here.")
                       .arg(QDir::toNativeSeparators(m_root), notWritable());
    return m_readOnlyWhy =
               QObject::tr(
                   "Another Rankstep window (process %1 on %2) has your saved code open. "
                   "This window shows your code read-only and saves nothing; close the other "
                   "one and open the lesson again to edit here.")
                   .arg(pid)
                   .arg(host.isEmpty() ? QObject::tr("this computer") : host);
}

// Why the folder cannot be written, in plain words (with this process's rights: root is let
// through folders a learner is not).
QString ProgressStore::notWritable() const
{
    const QByteArray folder = QFile::encodeName(m_root);
    if (faccessat(AT_FDCWD, folder.constData(), W_OK, AT_EACCESS) == 0)
        return QObject::tr("its lock file could not be made");
    switch (errno) {
        case EROFS:
            return QObject::tr("the file system is read-only");
        case EACCES:
        case EPERM:
            return QObject::tr("it is read-only for you");
        case ENOENT:
            return QObject::tr("it does not exist and could not be made");
        default:
            return QString::fromLocal8Bit(std::strerror(errno));
    }
}

ProgressStore::State ProgressStore::state(const QString &lessonId) const
{
    const QString value = QSettings().value(settingsKey(lessonId)).toString();
    if (value == QLatin1String("solved"))
        return State::Solved;
    if (value == QLatin1String("attempted"))
        return State::Attempted;
    return State::New;
}

void ProgressStore::recordRun(const QString &lessonId, bool solved)
{
    if (state(lessonId) == State::Solved)
        return;
    QSettings().setValue(settingsKey(lessonId),
                         stateName(solved ? State::Solved : State::Attempted));
}

void ProgressStore::reset(const QString &lessonId)
{
    QSettings().remove(settingsKey(lessonId));
}

QString ProgressStore::codePath(const QString &lessonId) const
{
    return m_root + QLatin1Char('/') + lessonId + QStringLiteral(".py");
}

std::optional<ProgressStore::StoredCode> ProgressStore::code(const QString &lessonId) const
{
    // Checked before it is read: a FIFO or a device in the code store would hang the window.
    const auto bytes =
        core::readRegularFile(codePath(lessonId).toStdString(), core::kMaxCodeFileBytes);
    if (!bytes)
        return std::nullopt;
    return StoredCode{QString::fromUtf8(bytes->data(), qsizetype(bytes->size())),
                      whyNotText(*bytes)};
}

// Every file the store writes: whole or not at all, a link replaced rather than followed (a
// code file linked to ~/.bashrc must not make a save write there), nothing while read-only.
bool ProgressStore::writeInStore(const QString &path, const QByteArray &bytes, QString *error) const
{
    if (!m_readOnlyWhy.isEmpty()) {
        if (error)
            *error = m_readOnlyWhy;
        return false;
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    const auto failed = core::writeWholeFile(
        QFile::encodeName(path).toStdString(),
        std::string_view(bytes.constData(), std::size_t(bytes.size())), core::Links::Replace);
    if (failed && error)
        *error = QString::fromStdString(failed->reason);
    return !failed;
}

bool ProgressStore::saveCode(const QString &lessonId, const QString &code, QString *error)
{
    return writeInStore(codePath(lessonId), code.toUtf8(), error);
}

QString ProgressStore::keepCopy(const QString &lessonId, const QString &name, QString *error) const
{
    const auto bytes =
        core::readRegularFile(codePath(lessonId).toStdString(), core::kMaxCodeFileBytes);
    if (!bytes) {
        if (error)
            *error = QString::fromStdString(bytes.error().message);
        return {};
    }
    const QString copy = m_root + QLatin1Char('/') + name;
    if (!writeInStore(copy, QByteArray::fromStdString(*bytes), error))
        return {};
    return copy;
}

QString ProgressStore::linkTarget(const QString &lessonId) const
{
    return QFileInfo(codePath(lessonId)).symLinkTarget();
}

QString ProgressStore::saveRecovery(const QString &lessonId, const QByteArray &bytes,
                                    QString *error) const
{
    const QString name = lessonId + QStringLiteral("-") +
                         QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")) +
                         QStringLiteral(".py");
    const QString inStore = m_root + QStringLiteral("/recovery");
    QStringList folders;
    if (m_readOnlyWhy.isEmpty() && !QFileInfo(inStore).isSymLink())
        folders << inStore;
    folders << QDir::tempPath() + QStringLiteral("/Rankstep-recovery");
    for (const QString &folder : folders) {
        QDir().mkpath(folder);
        const QString path = folder + QLatin1Char('/') + name;
        const auto failed = core::writeWholeFile(
            QFile::encodeName(path).toStdString(),
            std::string_view(bytes.constData(), std::size_t(bytes.size())), core::Links::Replace);
        if (!failed)
            return path;
        if (error)
            *error = QString::fromStdString(failed->reason);
    }
    return {};
}

QString ProgressStore::lastLesson() const
{
    return QSettings().value(QStringLiteral("session/lastLesson")).toString();
}

void ProgressStore::setLastLesson(const QString &lessonId)
{
    QSettings().setValue(QStringLiteral("session/lastLesson"), lessonId);
}

} // namespace rankstep::gui
