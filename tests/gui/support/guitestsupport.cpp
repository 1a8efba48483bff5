// SPDX-License-Identifier: MIT
#include "guitestsupport.h"

#include "windowparts.h"

#include "core/lessons/builtin.h"
#include "core/trace.h"
#include "tests/core/referencepuzzles.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDeadlineTimer>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

#include <stdexcept>

namespace rankstep::gui::testing {

const std::vector<lessons::Lesson> &builtinLessons()
{
    static const std::vector<lessons::Lesson> all = [] {
        auto loaded = lessons::loadLessons(lessons::builtinLessonFiles());
        if (!loaded) {
            throw std::runtime_error("built-in lessons: " + loaded.error().message);
        }
        return std::move(*loaded);
    }();
    return all;
}

const lessons::Lesson &builtinLesson(const QString &id)
{
    const lessons::Lesson *lesson = lessons::findLesson(builtinLessons(), id.toStdString());
    if (!lesson) {
        throw std::runtime_error("no built-in lesson " + id.toStdString());
    }
    return *lesson;
}

int lineContaining(const std::string &text, const QString &needle, const QString &after)
{
    const QStringList lines = QString::fromStdString(text).split(QLatin1Char('\n'));
    qsizetype from = 0;
    if (!after.isEmpty()) {
        while (from < lines.size() && !lines[from].contains(after)) {
            ++from;
        }
        ++from;
    }
    for (qsizetype i = from; i < lines.size(); ++i) {
        if (lines[i].contains(needle)) {
            return int(i) + 1;
        }
    }
    return 0;
}

QMessageBox *visibleMessageBox(const QString &objectName)
{
    for (QWidget *top : QApplication::topLevelWidgets()) {
        auto *box = qobject_cast<QMessageBox *>(top);
        if (box && box->isVisible() && (objectName.isEmpty() || box->objectName() == objectName)) {
            return box;
        }
    }
    return nullptr;
}

void answerNextMessageBox(QMessageBox::StandardButton button, int timeoutMs)
{
    // Polls from the event loop, so it also answers a box whose exec() blocks the caller.
    auto *poll = new QTimer(qApp);
    const QDeadlineTimer deadline(timeoutMs);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, button, deadline] {
        QMessageBox *box = visibleMessageBox();
        if (!box && !deadline.hasExpired()) {
            return;
        }
        poll->stop();
        poll->deleteLater();
        if (QAbstractButton *pressed = box ? box->button(button) : nullptr) {
            pressed->click();
        } else if (box) {
            box->reject();
        }
    });
    poll->start(20);
}

int distinctColors(const QImage &image)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    QSet<QRgb> colors;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x) {
            colors.insert(line[x]);
        }
    }
    return int(colors.size());
}

void WindowTest::SetUp()
{
    // Nothing may fall back to the user's own folders.
    QStandardPaths::setTestModeEnabled(true);
    qputenv("RANKSTEP_CLI", RANKSTEP_CLI);
    ASSERT_TRUE(m_dir.isValid());
    // Settings of this test alone: ctest -j runs tests in parallel processes, which would
    // otherwise share (and clear) one settings file.
    const QString settings = m_dir.filePath(QStringLiteral("settings"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings);
    ASSERT_TRUE(QSettings().fileName().startsWith(settings))
        << QSettings().fileName().toStdString();
    QSettings().clear();
    m_progress = std::make_unique<ProgressStore>(m_dir.filePath(QStringLiteral("code")));
}

void WindowTest::TearDown()
{
    QSettings().clear();
    // Dialogs parented to a window die with it; anything else left open would leak into the
    // next test's dialog searches.
    for (QWidget *top : QApplication::topLevelWidgets()) {
        if (qobject_cast<QDialog *>(top)) {
            top->deleteLater();
        }
    }
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

std::unique_ptr<MainWindow> WindowTest::makeWindow(bool show)
{
    auto window = std::make_unique<MainWindow>(builtinLessons(), *m_progress);
    if (show) {
        window->show();
        window->activateWindow();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        EXPECT_TRUE(QTest::qWaitForWindowActive(window.get()));
    }
    return window;
}

QString WindowTest::write(const QString &name, const std::string &bytes) const
{
    const QString path = root() + QStringLiteral("/traces/") + name;
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(bytes.data(), qint64(bytes.size()));
    return path;
}

bool WindowTest::runAndWait(MainWindow &window, int timeoutMs)
{
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runCode();
    return finished.count() > 0 || finished.wait(timeoutMs);
}

std::shared_ptr<const core::Trace> referenceTrace(const std::string &name)
{
    for (const auto &puzzle : rankstep::testing::referencePuzzles())
        if (puzzle.name == name)
            return std::make_shared<const core::Trace>(rankstep::testing::runReference(name));
    return nullptr;
}

bool openFileAndWait(MainWindow &window, const QString &path)
{
    const bool started = window.openFile(path);
    const RunSession &session = *window.parts().session;
    const bool settled =
        QTest::qWaitFor([&session] { return session.opening().isEmpty(); }, kRunTimeoutMs);
    return started && settled;
}

} // namespace rankstep::gui::testing
