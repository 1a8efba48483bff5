// SPDX-License-Identifier: MIT
#include "progressstore.h"

#include "core/regularfile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QStringDecoder>

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
            QSaveFile file(codePath(to));
            if (bytes && !text.contains(QChar::ReplacementCharacter) &&
                file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) >= 0 && file.commit())
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
        m_heldElsewhere.clear();
        return std::nullopt;
    }
    qint64 pid = 0;
    QString host, application;
    m_lock->getLockInfo(&pid, &host, &application);
    m_lock.reset();
    return m_heldElsewhere =
               QObject::tr(
                   "Another Rankstep window (process %1 on %2) has your saved code open. "
                   "This window shows your code read-only and saves nothing; close the other "
                   "one and open the lesson again to edit here.")
                   .arg(pid)
                   .arg(host.isEmpty() ? QObject::tr("this computer") : host);
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

bool ProgressStore::saveCode(const QString &lessonId, const QString &code, QString *error)
{
    QDir().mkpath(m_root);
    QSaveFile file(codePath(lessonId));
    if (!file.open(QIODevice::WriteOnly) || file.write(code.toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

QString ProgressStore::saveRecovery(const QString &lessonId, const QString &code,
                                    QString *error) const
{
    const QString name = lessonId + QStringLiteral("-") +
                         QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")) +
                         QStringLiteral(".py");
    const QString folders[] = {m_root + QStringLiteral("/recovery"),
                               QDir::tempPath() + QStringLiteral("/Rankstep-recovery")};
    for (const QString &folder : folders) {
        QDir().mkpath(folder);
        QSaveFile file(folder + QLatin1Char('/') + name);
        if (file.open(QIODevice::WriteOnly) && file.write(code.toUtf8()) >= 0 && file.commit())
            return file.fileName();
        if (error)
            *error = file.errorString();
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
