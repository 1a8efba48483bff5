// SPDX-License-Identifier: MIT
#include "progressstore.h"

#include "core/regularfile.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>

namespace rankstep::gui {
namespace {

QString settingsKey(const QString &lessonId)
{
    return QStringLiteral("progress/") + lessonId;
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

std::optional<QString> ProgressStore::code(const QString &lessonId) const
{
    // Checked before it is read: a FIFO or a device in the code store would hang the window.
    const auto bytes =
        core::readRegularFile(codePath(lessonId).toStdString(), core::kMaxCodeFileBytes);
    if (!bytes)
        return std::nullopt;
    return QString::fromStdString(*bytes);
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

QString ProgressStore::lastLesson() const
{
    return QSettings().value(QStringLiteral("session/lastLesson")).toString();
}

void ProgressStore::setLastLesson(const QString &lessonId)
{
    QSettings().setValue(QStringLiteral("session/lastLesson"), lessonId);
}

} // namespace rankstep::gui
